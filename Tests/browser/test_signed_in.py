"""Signed-in viewers in headless Chromium: a token in a cookie makes the page its
user's; others see that user's name and colour; a user whose role may not edit sees
the edit controls disabled, its selection still reaches the others, and a Delete key
it presses changes nothing. Screenshots go to .build/test-artifacts/."""
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from server_fixture import BINARY, Server, artifacts_dir
from test_two_viewers import browser, js, seq, wait

SECRET = "a browser test secret, long enough to sign tokens"


def issue(user, name, roles):
    run = subprocess.run([str(BINARY), "--issue-token", user, "--token-name", name, "--token-roles", roles],
                         capture_output=True, text=True, timeout=30, env={"COLLECTION_TOKEN_SECRET": SECRET})
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@pytest.fixture
def server():
    s = Server("--demo", "small", "--ticket-interval", "0", env={"COLLECTION_TOKEN_SECRET": SECRET})
    yield s
    s.stop()


def signed_in(server, token, page="", size=(1100, 700)):
    driver = browser(*size)
    driver.get(server.url + "style.css")   # a page of the origin, to set its cookie on
    driver.add_cookie({"name": "collection_token", "value": token, "path": "/"})
    driver.get(server.url + page)
    return driver


def test_a_view_only_user_watches_and_selects_with_edit_controls_off(server):
    ana = signed_in(server, issue("ana", "Ana Lima", "viewer"))
    bob = signed_in(server, issue("bob", "Bob", "editor"))
    try:
        for d in (ana, bob):
            wait(d, lambda d: js(d, "return window.__collection?.state?.me?.name ?? null") is not None, message="no welcome")
        # Each page names its user; the other sees the name too.
        wait(bob, lambda d: "Ana Lima" in d.find_element(By.ID, "viewers").text, message="Bob does not see Ana")
        assert js(ana, "return window.__collection.state.me.name") == "Ana Lima"
        # Ana may not edit: the controls say so; Bob's are on.
        for control in ["insert", "shuffle", "layout"]:
            assert ana.find_element(By.ID, control).get_attribute("disabled") is not None, control
            assert bob.find_element(By.ID, control).get_attribute("disabled") is None, control
        # Her selection reaches Bob; her Delete key changes nothing.
        first = ana.find_element(By.CSS_SELECTOR, ".cell[data-item]:not([hidden])")
        item = first.get_attribute("data-item")
        first.click()
        wait(bob, lambda d: js(d, "return window.__collection.state.othersSelecting(arguments[0]).length", item) == 1,
             message="Bob does not see Ana's selection")
        ana.switch_to.active_element.send_keys(Keys.DELETE)
        bob.find_element(By.ID, "shuffle").click()
        # Each page gets the shuffle on its own connection, in no set order: wait
        # for both, then for anything that would come after.
        for d in (ana, bob):
            wait(d, lambda d: seq(d) >= 1, message="a page does not get Bob's shuffle")
        time.sleep(0.3)
        assert seq(ana) == 1 and seq(bob) == 1   # the shuffle is the only batch: the Delete was refused
        assert js(ana, "return window.__collection.state.order?.flat().includes(arguments[0]) ?? [...window.__collection.state.elements.keys()].includes('i:' + arguments[0])", item)
        ana.save_screenshot(str(artifacts_dir() / "signed-in-view-only.png"))
    finally:
        ana.quit()
        bob.quit()


def test_a_guest_named_like_a_user_is_marked_as_a_guest(server):
    ana = signed_in(server, issue("ana", "Ana", "editor"))
    impostor = browser(1100, 700)
    try:
        impostor.get(server.url + "?name=Ana")
        for d in (ana, impostor):
            wait(d, lambda d: js(d, "return window.__collection?.state?.me?.name ?? null") == "Ana", message="no welcome")
        # On Ana's page: two dots called Ana, one of them dashed and named a guest.
        wait(ana, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#viewers .viewer")) == 2, message="Ana does not see the guest")
        dots = ana.find_elements(By.CSS_SELECTOR, "#viewers .viewer")
        guests = [d for d in dots if "guest" in d.get_attribute("class")]
        assert len(guests) == 1 and guests[0].get_attribute("title") == "Ana (guest)"
        assert [d.get_attribute("title") for d in dots if d not in guests] == ["Ana (you)"]
        ana.save_screenshot(str(artifacts_dir() / "signed-in-and-guest.png"))
    finally:
        ana.quit()
        impostor.quit()


def test_the_sign_in_form_makes_every_page_the_users_until_sign_out(server):
    """signin.html posts to the server's /signin route (SignInExample): the token comes
    back as an HttpOnly cookie, the browser lands on ?next=, and that page's WebSocket
    is the signed-in user's; the form then says who is signed in, and Sign out ends it."""
    d = browser(1100, 700)
    try:
        d.get(server.url + "signin.html?next=/tickets.html")
        d.find_element(By.ID, "name").send_keys("Chloé")
        d.find_element(By.CSS_SELECTOR, "input[name=role][value=editor]").click()
        d.save_screenshot(str(artifacts_dir() / "signin-form.png"))
        d.find_element(By.CSS_SELECTOR, "#signin button[type=submit]").click()
        wait(d, lambda d: d.current_url.endswith("/tickets.html"), message="the form did not lead to the tickets")
        wait(d, lambda d: js(d, "return window.__tickets?.state?.me?.name ?? null") == "Chloé", message="the page is not Chloé's")
        # The token is the server's business: page scripts cannot read it.
        assert "collection_token" not in js(d, "return document.cookie")
        assert d.get_cookie("collection_token")["httpOnly"] is True
        d.save_screenshot(str(artifacts_dir() / "signin-tickets.png"))
        # Back on the form: it says who is signed in, and signs out.
        d.get(server.url + "signin.html")
        wait(d, lambda d: d.find_element(By.ID, "current").is_displayed(), message="the form does not say who is signed in")
        assert d.find_element(By.ID, "current").text == "Signed in as Chloé (editor)."
        d.find_element(By.CSS_SELECTOR, "#signout button[type=submit]").click()
        wait(d, lambda d: d.get_cookie("collection_token") is None, message="signing out kept the cookie")
        wait(d, lambda d: "signin.html" in d.current_url and not d.find_element(By.ID, "current").is_displayed(),
             message="signed out, the form still names Chloé")
    finally:
        d.quit()
