"""What a person sees when the server says no, or cannot be reached: on the ticket board
(only a ticket's owner may move it), Ana drags Ben's ticket with the mouse and then
with the keyboard; the ticket goes back to its place, nothing stays floating, and a
notice (role status) says why, with a "refused" event the page can take over. With the
server stopped, a drag is refused at once, saying the connection is gone. Screenshots
go to .build/test-artifacts/."""
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium import chromium
from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait


@pytest.fixture
def server():
    s = Server("--demo", "small", "--ticket-interval", "0")
    yield s
    s.stop()


def open_tickets(server, name="Ana"):
    d = browser(1280, 800)
    d.get(server.url + f"tickets.html?name={name}")
    wait(d, lambda d: js(d, "return document.getElementById('tickets').dataset.status") == "connected"
         and js(d, "return document.querySelectorAll('#tickets .ticket:not([hidden])').length") >= 5, message="the board did not load")
    js(d, "window.__refused = []; document.getElementById('tickets').addEventListener('refused', e => window.__refused.push(e.detail))")
    return d


def ticket(d, owner):
    return d.find_element(By.CSS_SELECTOR, f"#tickets .ticket[data-owner='{owner}']:not([hidden])")


def at_home(d, node):
    """The cell is drawn at its frame (not carried, not scaled)."""
    return js(d, """const n = arguments[0], e = window.__tickets.state.elements.get('i:' + n.dataset.item);
        return !n.classList.contains('carried') && getComputedStyle(n).transform === `matrix(1, 0, 0, 1, ${e.frame[0]}, ${e.frame[1]})`""", node)


def notice(d):
    return js(d, "const n = document.querySelector('#tickets .cv-notice'); return n && !n.hidden ? n.textContent : null")


def test_a_refused_move_goes_back_and_says_why(server):
    d = open_tickets(server)
    try:
        base = js(d, "return window.__tickets.state.seq")
        bens = ticket(d, "Ben")
        title = bens.find_element(By.CSS_SELECTOR, ".title").text
        ActionChains(d, duration=50).move_to_element(bens).click_and_hold().move_by_offset(0, 30).move_by_offset(0, 120).perform()
        said = lambda d: notice(d) or ""
        wait(d, lambda d: said(d).startswith(f"Not done: “{title[:40]}") and said(d).endswith("” cannot be moved"),
             message=f"no notice: {notice(d)!r}")
        ActionChains(d).release().perform()
        wait(d, lambda d: at_home(d, bens), message="Ben's ticket stayed where it was dropped")
        assert js(d, "return document.querySelector('#tickets .cv-notice').getAttribute('role')") == "status"
        assert js(d, "return window.__refused.map(r => r.code)")[0] == "not_movable"
        assert js(d, "return window.__tickets.state.seq") == base
        d.save_screenshot(str(artifacts_dir() / "refused-move.png"))
        # The next drag, of her own ticket, is hers: it moves.
        anas = ticket(d, "Ana")
        ActionChains(d, duration=50).move_to_element(anas).click_and_hold().move_by_offset(0, 30).move_by_offset(0, 160).release().perform()
        wait(d, lambda d: js(d, "return window.__tickets.state.seq") == base + 1, message="her own ticket did not move")
        # By keyboard: picked up, refused, and never said to be dropped.
        item = ticket(d, "Ben").get_attribute("data-item")
        js(d, "window.__tickets.live.interaction.focus(arguments[0], true); document.querySelector('#tickets .cv-scroller').focus()", item)
        js(d, "window.__said = []; new MutationObserver(() => window.__said.push(document.querySelector('#tickets .cv-announcer').textContent))"
              ".observe(document.querySelector('#tickets .cv-announcer'), {childList: true, characterData: true, subtree: true})")
        ActionChains(d).send_keys("m").perform()
        wait(d, lambda d: len(js(d, "return window.__refused")) == 2, message="the keyboard move was not refused")
        ActionChains(d).send_keys(Keys.ARROW_DOWN, Keys.ENTER).perform()
        wait(d, lambda d: at_home(d, ticket(d, "Ben")))
        assert not any(s.startswith("Dropped") for s in js(d, "return window.__said")), js(d, "return window.__said")
        assert js(d, "return window.__tickets.state.seq") == base + 1
    finally:
        d.quit()


def test_with_the_server_gone_a_drag_is_refused_at_once(server):
    d = open_tickets(server)
    try:
        server.stop()
        wait(d, lambda d: js(d, "return document.getElementById('tickets').dataset.status") == "reconnecting", message="the page did not notice")
        anas = ticket(d, "Ana")
        ActionChains(d, duration=50).move_to_element(anas).click_and_hold().move_by_offset(0, 30).move_by_offset(0, 90).release().perform()
        # The reason says the connection is lost itself: said once, not after "Not done".
        wait(d, lambda d: (notice(d) or "").startswith("Not connected: a move needs the connection"), message=f"no notice: {notice(d)!r}")
        wait(d, lambda d: at_home(d, anas), message="the ticket stayed lifted")
        assert js(d, "return window.__refused.map(r => r.code)") == ["offline"]
        # By keyboard too: M on a focused ticket picks nothing up, and says why.
        js(d, "window.__tickets.live.interaction.focus(arguments[0], true); document.querySelector('#tickets .cv-scroller').focus()",
           anas.get_attribute("data-item"))
        ActionChains(d).send_keys("m").perform()
        wait(d, lambda d: js(d, "return window.__refused.map(r => r.code)") == ["offline", "offline"], message="the keyboard move was not refused")
        assert not js(d, "return window.__tickets.live.interaction.moving"), "a move began offline"
        ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        assert at_home(d, anas)
    finally:
        d.quit()


def section_items(d):
    return js(d, "return window.__tickets.state.order")


def test_an_empty_column_takes_a_ticket_by_keyboard_and_by_mouse(server):
    """Ben's ticket 5 is "Done"'s only one: moved out, the column is empty, and takes it
    back by keyboard (M, the arrow to the empty column, Enter) and another by mouse
    (dropped on the empty column's header)."""
    d = open_tickets(server, "Ben")
    try:
        base = js(d, "return window.__tickets.state.seq")
        assert section_items(d)[2] == ["5"]
        def keyboard_move(item, *keys):
            js(d, "window.__tickets.live.interaction.focus(arguments[0], true); document.querySelector('#tickets .cv-scroller').focus()", item)
            ActionChains(d).send_keys("m").perform()
            wait(d, lambda d: js(d, "return window.__tickets.live.interaction.moving?.item") == item)
            for key in keys:
                where = js(d, "return JSON.stringify(window.__tickets.state.elements.get('i:' + arguments[0]).frame)", item)
                ActionChains(d).send_keys(key).perform()
                # Each step shows where the ticket would go before the next is taken.
                wait(d, lambda d: js(d, "return JSON.stringify(window.__tickets.state.elements.get('i:' + arguments[0]).frame)", item) != where,
                     message=f"{key!r} did not move {item}")
            ActionChains(d).send_keys(Keys.ENTER).perform()
        # Out of "Done" by keyboard: "Done" is empty.
        keyboard_move("5", Keys.ARROW_LEFT)
        wait(d, lambda d: section_items(d)[2] == [], message=f"5 did not leave Done: {section_items(d)}")
        assert js(d, "return window.__tickets.state.sections[2].count") == 0
        # Back into the empty "Done" by keyboard: right past ticket 4, onto its header.
        keyboard_move("5", Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        wait(d, lambda d: section_items(d)[2] == ["5"], message=f"5 did not go back into the empty Done: {section_items(d)}")
        # Out again, then ticket 2 dropped by mouse on the empty column's header.
        keyboard_move("5", Keys.ARROW_LEFT)
        wait(d, lambda d: section_items(d)[2] == [])
        header = d.find_element(By.XPATH, "//collection-view[@id='tickets']//div[contains(@class,'column-header')][.//h3[text()='Done']]")
        ActionChains(d, duration=50).move_to_element(ticket(d, "Ben")).click_and_hold().move_by_offset(0, 30) \
            .move_to_element(header).move_by_offset(0, 2).release().perform()
        wait(d, lambda d: len(section_items(d)[2]) == 1 and section_items(d)[2] != ["5"], message=f"no drop into the empty Done: {section_items(d)}")
        assert js(d, "return window.__tickets.state.seq") == base + 4
        d.save_screenshot(str(artifacts_dir() / "empty-column-drop.png"))
    finally:
        d.quit()


def test_an_empty_column_takes_a_ticket_by_touch(server):
    """The same empty "Done" takes a ticket from a finger: a held press on Ben's ticket,
    dragged onto the empty column's header, lets go there (a touch screen at desktop
    size, so that the three columns show side by side)."""
    d = chromium(mobile={"width": 1280, "height": 800, "pixelRatio": 1, "touch": True})
    try:
        d.get(server.url + "tickets.html?name=Ben")
        wait(d, lambda d: js(d, "return document.getElementById('tickets').dataset.status") == "connected"
             and js(d, "return document.querySelectorAll('#tickets .ticket:not([hidden])').length") >= 5, message="the board did not load")
        assert section_items(d)[2] == ["5"]
        # "Done" emptied by a protocol move of Ben's own ticket 5 into "To do".
        todo = js(d, "return window.__tickets.state.sections[0].id")
        js(d, "window.__tickets.live.submit({type: 'move', op: 'empty-done', item: '5', section: arguments[0]})", todo)
        wait(d, lambda d: section_items(d)[2] == [], message=f"Done was not emptied: {section_items(d)}")

        def touch(kind, point=None):
            d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": point[0], "y": point[1]}] if point else []})

        def centre(element):
            return js(d, "const r = arguments[0].getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]", element)

        card = d.find_element(By.CSS_SELECTOR, "#tickets .ticket[data-owner='Ben'][data-item='5']:not([hidden])")
        # Where it is drawn once its slide into "To do" is over.
        wait(d, lambda d: at_home(d, card), message="ticket 5 did not settle in To do")
        start = centre(card)
        touch("touchStart", start)
        wait(d, lambda d: js(d, "return window.__tickets.live.interaction.moving?.item") == "5", timeout=5,
             message="the ticket was not lifted by a held press")
        header = d.find_element(By.XPATH, "//collection-view[@id='tickets']//div[contains(@class,'column-header')][.//h3[text()='Done']]")
        end = centre(header)
        end = [end[0], end[1] + 2]
        for k in range(1, 13):
            touch("touchMove", [start[0] + (end[0] - start[0]) * k // 12, start[1] + (end[1] - start[1]) * k // 12])
        touch("touchEnd")
        wait(d, lambda d: section_items(d)[2] == ["5"], message=f"no touch drop into the empty Done: {section_items(d)}")
        assert js(d, "return window.__tickets.live.interaction.moving") is None
    finally:
        d.quit()
