"""Leaving is leaving: a viewer who navigates away (the browser keeping the page in
its back/forward cache, socket and all) leaves everyone's presence list at once, and
comes back, resumed, when the person goes back."""
import pytest

from server_fixture import Server
from test_interaction import open_viewer
from test_two_viewers import js, wait


@pytest.fixture
def server():
    s = Server("--demo", "photos")
    yield s
    s.stop()


def present(d):
    return js(d, "return [...window.__collection.state.viewers.keys()].length")


def test_navigating_away_leaves_and_going_back_returns(server):
    ana, ben = open_viewer(server), open_viewer(server)
    try:
        wait(ben, lambda d: present(d) == 2, message="Ben does not see Ana")
        js(ana, "window.__before = 'kept'; addEventListener('pageshow', e => { window.__restored = e.persisted })")
        ana.get(server.url + "board.html")
        # (At once: in ms here. Without leaving on pagehide, minutes: until a heartbeat fails.)
        wait(ben, lambda d: present(d) == 1, timeout=10, message="Ana left but is still among the viewers")
        ana.back()
        wait(ana, lambda d: js(d, "return document.body.dataset.status") == "connected", message="Ana's page did not connect again")
        wait(ben, lambda d: present(d) == 2, message="Ana came back but Ben does not see her")
        # Back from the cache: the same page, resumed (not a new load).
        assert js(ana, "return [window.__before ?? null, window.__restored ?? null]") == ["kept", True]
    finally:
        ana.quit()
        ben.quit()
