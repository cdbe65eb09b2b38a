"""The retro board (retro.html) as people use it: an editor signed in at 1280×800
sees three columns side by side, adds a card and votes, and starts the countdown; a
guest on a phone (390×844) sees one column, the countdown running, and is told why
its vote is refused. Screenshots go to .build/test-artifacts/."""
import pytest
from selenium.webdriver.common.by import By

from chromium import PHONE, chromium
from server_fixture import Server, artifacts_dir
from test_signed_in import SECRET, issue, signed_in
from test_two_viewers import js, wait


@pytest.fixture
def server():
    s = Server("--demo", "small", "--ticket-interval", "0", env={"COLLECTION_TOKEN_SECRET": SECRET})
    yield s
    s.stop()


def phone():
    return chromium(mobile=PHONE)


def cards(d):
    return js(d, "return [...document.querySelectorAll('#retro .retro-card:not([hidden])')].map(c => "
                 "({text: c.querySelector('.text').textContent, x: c.getBoundingClientRect().x, y: c.getBoundingClientRect().y}))")


def test_an_editor_and_a_guest_on_a_phone_share_the_retro(server):
    ana = signed_in(server, issue("ana", "Ana", "editor"), page="retro.html", size=(1280, 800))
    guest = phone()
    try:
        guest.get(server.url + "retro.html?name=Gil")
        for d in (ana, guest):
            wait(d, lambda d: len(cards(d)) >= 3, message="the cards did not appear")
        # Wide: the three columns side by side, their headers on one line.
        headers = js(ana, "return [...document.querySelectorAll('#retro .column-header:not([hidden])')].map(h => "
                          "[h.textContent.trim(), Math.round(h.getBoundingClientRect().x), Math.round(h.getBoundingClientRect().y)])")
        assert [h[0].split()[0] for h in headers] == ["Went", "To", "Actions"], headers
        assert headers[0][1] < headers[1][1] < headers[2][1] and len({h[2] for h in headers}) == 1, headers
        # The phone: one column, the sections one under the other.
        xs = {round(c["x"]) for c in cards(guest)}
        assert len(xs) == 1, cards(guest)
        # Ana adds a card to "Actions"; both see it.
        ana.find_element(By.ID, "add-column").send_keys("Actions")
        ana.find_element(By.ID, "add-text").send_keys("Pair on reviews")
        ana.find_element(By.CSS_SELECTOR, "#add button[type=submit]").click()
        for d in (ana, guest):
            wait(d, lambda d: any(c["text"] == "Pair on reviews" for c in cards(d)), message="the new card did not arrive")
        assert ana.find_element(By.ID, "add-text").get_attribute("value") == ""
        # Her vote is answered to her; the count reaches the guest.
        vote = ana.find_element(By.XPATH, "//div[contains(@class,'retro-card')][.//p[text()='Pair on reviews']]//button[contains(@class,'vote')]")
        assert vote.get_attribute("aria-label") == "Vote for “Pair on reviews” (0 votes)"
        vote.click()
        wait(ana, lambda d: d.find_element(By.ID, "notice").text == "Voted: 1 vote now.", message="no answer to the vote")
        wait(guest, lambda d: js(d, "return window.__retro.state.elements.get('i:' + arguments[0])?.content.votes",
                                 vote.find_element(By.XPATH, "ancestor::div[@data-item]").get_attribute("data-item")) == "1",
             message="the guest does not see the vote")
        # The guest's vote is refused, and the page says why.
        guest.find_elements(By.CSS_SELECTOR, "#retro .retro-card:not([hidden]) .vote")[0].click()
        wait(guest, lambda d: d.find_element(By.ID, "notice").text.startswith("Sign in to vote"), message="the refusal is not shown")
        # Ana starts the countdown; the guest's toolbar counts down.
        ana.find_element(By.CSS_SELECTOR, "#timer .start").click()
        wait(guest, lambda d: js(d, "return document.querySelector('#timer .retro-clock')?.dataset.state") == "running",
             message="the guest does not see the countdown")
        first = js(guest, "return document.querySelector('#timer .remaining').textContent")
        wait(guest, lambda d: js(d, "return document.querySelector('#timer .remaining').textContent") != first,
             message="the countdown does not move")
        ana.save_screenshot(str(artifacts_dir() / "retro-desktop.png"))
        guest.save_screenshot(str(artifacts_dir() / "retro-phone.png"))
    finally:
        ana.quit()
        guest.quit()
