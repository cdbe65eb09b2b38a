"""Offline, as a person meets it: with the server stopped, the ticket board shows a
banner (its live region says so once, however many times it retries); an action
made then waits, shown as waiting, and is done once the server is back (its answer
comes as for any action); a drag is refused at once. The photos page keeps Insert on:
an insert made offline waits on the status line and its photos arrive after the
return. The return is said once."""
import pytest
from selenium.webdriver.common.by import By

from server_fixture import Server
from test_two_viewers import browser, js, wait

SAID = """window.__said = []; for (const r of document.querySelectorAll('.cv-announcer, #announcer, .cv-offline [role=status]'))
  new MutationObserver(() => { if (r.textContent) window.__said.push(r.textContent) }).observe(r, {childList: true, characterData: true, subtree: true});"""
ARGS = ("--demo", "small", "--ticket-interval", "0")


@pytest.fixture
def data(tmp_path):
    return str(tmp_path)


def column_of(driver, item):
    return js(driver, "const s = window.__tickets.state; return s.sections.findIndex((_, i) => (s.order[i] ?? []).includes(arguments[0]))", item)


def test_what_is_made_offline_waits_and_is_done_when_the_server_is_back(data):
    server = Server(*ARGS, "--data", data)
    tickets, photos = browser(1100, 700), browser(1100, 700)
    again = None
    try:
        tickets.get(server.url + "tickets.html?name=Ana")
        photos.get(server.url)
        wait(tickets, lambda d: js(d, "return document.getElementById('tickets').dataset.status") == "connected")
        wait(photos, lambda d: js(d, "return document.body.dataset.status") == "connected")
        wait(tickets, lambda d: column_of(d, "3") >= 0)
        for d in (tickets, photos):
            js(d, SAID)
        js(tickets, "window.__results = []; document.getElementById('tickets').addEventListener('actionresult', e => window.__results.push(e.detail))")
        js(tickets, "window.__tries = 0; document.getElementById('tickets').addEventListener('status', e => { if (e.detail.status === 'connecting') window.__tries++ })")
        column = column_of(tickets, "3")
        photo_count = js(photos, "return window.__collection.state.order[0].length")
        server.stop()
        wait(tickets, lambda d: js(d, "const b = document.querySelector('#tickets .cv-offline'); return b.dataset.down === 'true' && b.querySelector('[role=status]').textContent")
             == "Connection lost. Reconnecting…", message="no banner")
        # Several retries go by (250, 500, 1,000 ms…): said once all the same.
        wait(tickets, lambda d: js(d, "return window.__tries") >= 3, message="no retries")
        assert js(tickets, "return window.__said.filter(s => s.startsWith('Connection lost')).length") == 1, js(tickets, "return window.__said")
        assert js(photos, "return window.__said.filter(s => s.startsWith('Connection lost')).length") == 1, js(photos, "return window.__said")
        # An action made now waits, shown as waiting, and is not answered yet.
        tickets.find_element(By.CSS_SELECTOR, "#tickets [data-item='3'] button[data-action='advance']").click()
        wait(tickets, lambda d: js(d, "return document.querySelector('#tickets .cv-offline-waiting').textContent") == "1 change waits to be sent.")
        assert js(tickets, "return document.getElementById('tickets').pendingCount") == 1
        assert js(tickets, "return window.__results") == []
        assert "Not connected: it will be sent when the connection is back." in js(tickets, "return window.__said")
        # The photos page shows a banner while the connection is down.
        wait(photos, lambda d: js(d, "const b = document.querySelector('.offline-banner'); return getComputedStyle(b).display !== 'none' && b.getBoundingClientRect().height > 0"),
             message="no banner on the photos page")
        # The photos page: Insert stays on, and an insert waits on the status line.
        assert js(photos, "return document.getElementById('insert').disabled") is False
        assert js(photos, "return document.getElementById('layout').disabled") is True
        photos.find_element(By.ID, "insert").click()
        wait(photos, lambda d: js(d, "return document.getElementById('status-text').textContent") == "reconnecting · 1 waiting")
        # Back (the same data): what waited goes out and is done; the banner goes, said once.
        again = Server(*ARGS, "--data", data, "--port", str(server.port))
        wait(tickets, lambda d: len(js(d, "return window.__results")) == 1, timeout=20, message="the action was never answered")
        result = js(tickets, "return window.__results[0]")
        assert result["status"] == "done", result
        wait(tickets, lambda d: column_of(d, "3") == column + 1, message="the ticket did not advance")
        wait(tickets, lambda d: js(d, "return document.querySelector('#tickets .cv-offline').dataset.down") is None, message="the banner stayed")
        assert js(tickets, "return document.getElementById('tickets').pendingCount") == 0
        wait(photos, lambda d: js(d, "return window.__collection.state.order[0].length") == photo_count + 3, timeout=20, message="the insert never arrived")
        wait(photos, lambda d: js(d, "return document.getElementById('status-text').textContent") == "connected")
        assert js(photos, "return getComputedStyle(document.querySelector('.offline-banner')).display") == "none"
        wait(tickets, lambda d: "Connected again." in js(d, "return window.__said"), message="the return was not said")
        assert js(tickets, "return window.__said.filter(s => s === 'Connected again.').length") == 1
        assert js(photos, "return window.__said.filter(s => s === 'Connected.').length") == 1
        # Each change was made once: the insert is not repeated by a second reconnect.
        assert js(photos, "return window.__collection.live.outbox.size") == 0
    finally:
        tickets.quit()
        photos.quit()
        server.stop()
        if again:
            again.stop()


def test_every_collection_of_a_page_shows_the_banner_and_it_is_said_once():
    """Two collections on one page, the server stopped: each shows the banner's words
    (the eye sees every collection), and the page's live regions say them once."""
    server = Server(*ARGS)
    d = browser(1100, 700)
    try:
        d.get(server.url + "together.html")
        wait(d, lambda d: js(d, "return [...document.querySelectorAll('collection-view')].every(v => v.dataset.status === 'connected')"))
        js(d, SAID)
        server.stop()
        shown = """return [...document.querySelectorAll('collection-view .cv-offline')].map(b => b.dataset.down === 'true'
            && b.getBoundingClientRect().height > 20 && b.querySelector('[aria-hidden=true]')?.textContent)"""
        wait(d, lambda d: js(d, shown) == ["Connection lost. Reconnecting…"] * 2, message="a collection's banner shows no words")
        assert js(d, "return window.__said.filter(s => s.startsWith('Connection lost')).length") == 1, js(d, "return window.__said")
    finally:
        d.quit()
        server.stop()
