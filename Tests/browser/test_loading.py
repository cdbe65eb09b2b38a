"""The examples on a phone and while loading: until the first welcome a page says
"Loading…" where its collection will be, is busy for screen readers, and offers no
control that would do nothing; on a phone the photos toolbar is two short lines with
one layout control; the status line keeps its width as viewers come, so the photos
do not jump; a store department's name is not cut."""
import pytest

from server_fixture import Server, artifacts_dir
from test_retro import phone
from test_two_viewers import browser, js, wait


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "small", "--ticket-interval", "0")
    yield s
    s.stop()


def loading_text(d, selector):
    return js(d, "return getComputedStyle(document.querySelector(arguments[0]), '::before').content", selector)


def test_until_the_welcome_pages_say_loading_and_offer_nothing(server):
    d = browser(1280, 800)
    try:
        # A WebSocket that never opens (as over a slow link): the pages stay before their welcome.
        hold = d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            window.WebSocket = class { static OPEN = 1; readyState = 0; constructor() {} send() {} close() {} };"""})
        d.get(server.url)
        wait(d, lambda d: js(d, "return document.readyState") == "complete")
        assert loading_text(d, "#scroller") == '"Loading…"'
        assert js(d, "return document.getElementById('scroller').getAttribute('aria-busy')") == "true"
        assert js(d, "return ['insert', 'shuffle', 'delete'].every(id => document.getElementById(id).disabled)")
        d.get(server.url + "retro.html")
        wait(d, lambda d: js(d, "return document.readyState") == "complete")
        assert loading_text(d, "#retro .cv-scroller") == '"Loading…"'
        assert js(d, "return document.querySelector('#add button[type=submit]').disabled") is True
        # Let through: the welcome ends it all.
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": hold["identifier"]})
        d.get(server.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected" and js(d, "return !document.getElementById('insert').disabled"))
        wait(d, lambda d: loading_text(d, "#scroller") == "none")
        assert js(d, "return document.getElementById('scroller').hasAttribute('aria-busy')") is False
        d.get(server.url + "retro.html")
        wait(d, lambda d: js(d, "return document.querySelector('#add button[type=submit]').disabled") is False)
        assert loading_text(d, "#retro .cv-scroller") == "none"
    finally:
        d.quit()


def test_on_a_phone_the_toolbar_is_short_and_the_store_names_whole(server):
    d = phone()
    try:
        d.get(server.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected")
        height = js(d, "return document.querySelector('.toolbar').getBoundingClientRect().height")
        assert height <= 110, height
        # One layout control: the menu.
        assert js(d, "return ['layout', 'transition'].map(id => document.getElementById(id).offsetParent)") == [None, None]
        assert js(d, "return document.getElementById('layout-mode').offsetParent !== null")
        d.save_screenshot(str(artifacts_dir() / "phone-photos.png"))
        d.get(server.url + "store.html")
        wait(d, lambda d: js(d, "return !!document.querySelector('#store .department:not([hidden]) .title')?.textContent"), timeout=15)
        js(d, "document.querySelector('#store .department:not([hidden])').scrollIntoView()")
        cut = js(d, """return [...document.querySelectorAll('#store .department:not([hidden]) .title')]
                         .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.textContent)""")
        assert cut == [], cut
    finally:
        d.quit()


def test_viewers_coming_do_not_move_the_photos(server):
    first = browser(1280, 800)
    others = []
    try:
        first.get(server.url)
        wait(first, lambda d: js(d, "return document.body.dataset.status") == "connected")
        top = js(first, "return document.getElementById('scroller').getBoundingClientRect().top")
        for n in range(5):
            other = browser(400, 400)
            other.get(server.url)
            others.append(other)
            wait(first, lambda d: js(d, "return window.__collection.state.viewers.size") == n + 2, message="the viewer did not arrive")
            assert js(first, "return document.getElementById('scroller').getBoundingClientRect().top") == top
        # Past four dots, the rest are one "+N".
        wait(first, lambda d: js(d, "return [...document.querySelectorAll('#viewers .viewer')].map(v => v.textContent).at(-1)") == "+3")
    finally:
        first.quit()
        for d in others:
            d.quit()
