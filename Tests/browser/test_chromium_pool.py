"""The browsers the tests share (chromium.py): one a test quits comes back to the next
blank, without the cookies or held buttons of the last, and one that changed what the
DevTools protocol can change, or was resized, is not handed out again."""
from selenium.webdriver.common.action_chains import ActionChains

from chromium import chromium
from test_two_viewers import js


def test_a_quit_browser_comes_back_blank_without_cookies(server):
    first = chromium(700, 500)
    first.get(server.url)
    first.add_cookie({"name": "left", "value": "behind"})
    assert first.get_cookie("left") is not None
    ActionChains(first).move_by_offset(10, 10).click_and_hold().perform()
    first.quit()
    again = chromium(700, 500)
    try:
        assert again is first
        assert js(again, "return location.href") == "about:blank"
        again.get(server.url)
        assert again.get_cookie("left") is None
        assert js(again, "return window.innerWidth") <= 700
    finally:
        again.quit()


def test_a_browser_changed_through_devtools_or_resized_is_not_handed_out_again(server):
    emulated = chromium(710, 500)
    emulated.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    emulated.quit()
    resized = chromium(710, 500)
    assert resized is not emulated
    resized.set_window_size(900, 600)
    resized.quit()
    fresh = chromium(710, 500)
    try:
        assert fresh is not emulated and fresh is not resized
        fresh.get(server.url)
        assert js(fresh, "return matchMedia('(prefers-reduced-motion: reduce)').matches") is False
    finally:
        fresh.quit()
