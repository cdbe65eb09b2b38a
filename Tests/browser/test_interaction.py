"""The browser client as a person uses it: keyboard focus by geometry, selection
with modifiers, reorder by keyboard and by pointer, the layout switch, and remote
changes read out in the live region. Screenshots go to .build/test-artifacts/."""
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait


@pytest.fixture
def server():
    s = Server("--demo", "photos")
    yield s
    s.stop()


def open_viewer(server, width=1000, height=700):
    d = browser(width, height)
    d.get(server.url)
    wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected"
         and js(d, "return !!document.querySelector('[data-item=p9]:not([hidden])')"), message="viewer did not load")
    return d


def focused(d):
    return js(d, "return window.__collection.interaction.focusedItem")


def frame(d, item):
    return js(d, "return window.__collection.state.elements.get('i:' + arguments[0])?.frame", item)


def order(d, n=8):
    return js(d, """return [...window.__collection.state.elements.values()].filter(e => e.kind === 'cell' && e.section === 0)
                     .sort((a, b) => a.item - b.item).slice(0, arguments[0]).map(e => e.key.slice(2))""", n)


def mine(d):
    return sorted(js(d, "return window.__collection.state.mySelection()"))


def keys(d, *sequence):
    ActionChains(d).send_keys(*sequence).perform()


def test_keyboard_moves_focus_by_geometry_and_selects(server):
    d = open_viewer(server)
    try:
        scroller = d.find_element(By.ID, "scroller")
        assert scroller.get_attribute("role") == "listbox" and scroller.get_attribute("tabindex") == "0"
        # One tab stop: Tab from the last toolbar control lands on the collection.
        d.find_element(By.CSS_SELECTOR, ".actions .nav").send_keys(Keys.TAB)
        assert js(d, "return document.activeElement.id") == "scroller"
        wait(d, lambda d: focused(d) == "p1")
        assert scroller.get_attribute("aria-activedescendant") == "cell-p1"
        keys(d, Keys.ARROW_RIGHT)
        wait(d, lambda d: focused(d) == "p2")
        # Down goes to the cell below in the grid (same column), not to the next index.
        keys(d, Keys.ARROW_DOWN)
        wait(d, lambda d: focused(d) not in ("p2", None))
        below, start = frame(d, focused(d)), frame(d, "p2")
        assert below[0] == start[0] and below[1] > start[1], (start, below)
        columns = js(d, "return [...window.__collection.state.elements.values()].filter(e => e.kind === 'cell' && e.section === 0 && e.frame[1] === arguments[0]).length", start[1])
        assert focused(d) == f"p{2 + columns}"
        assert "focused" in d.find_element(By.ID, f"cell-{focused(d)}").get_attribute("class")
        # Space selects (the server decides and says so), and the option says it is selected.
        keys(d, " ")
        wait(d, lambda d: mine(d) == [focused(d)])
        wait(d, lambda d: d.find_element(By.ID, f"cell-{focused(d)}").get_attribute("aria-selected") == "true")
        option = d.find_element(By.ID, f"cell-{focused(d)}")
        assert option.get_attribute("role") == "option" and option.get_attribute("aria-setsize") == "640"
        # End goes to the last photo of the last album (scrolling there), Home back to the first.
        keys(d, Keys.END)
        wait(d, lambda d: focused(d) == "p2200", message="End did not reach the last photo")
        assert js(d, "return document.getElementById('scroller').scrollTop") > 10000
        keys(d, Keys.HOME)
        wait(d, lambda d: focused(d) == "p1", message="Home did not reach the first photo")
        keys(d, Keys.PAGE_DOWN)

        def paged_down(d):
            # One reading: the focused cell may leave the state between two (a clean
            # clone's run read a frame, then None).
            f = frame(d, focused(d))
            return f is not None and f[1] > 500
        wait(d, paged_down, message="Page Down did not move a screen")
    finally:
        d.quit()


def test_selection_with_modifiers(server):
    d = open_viewer(server)
    try:
        cell = lambda item: d.find_element(By.CSS_SELECTOR, f"[data-item='{item}']")
        cell("p2").click()
        wait(d, lambda d: mine(d) == ["p2"])
        ActionChains(d).key_down(Keys.CONTROL).click(cell("p4")).key_up(Keys.CONTROL).perform()
        wait(d, lambda d: mine(d) == ["p2", "p4"], message="Ctrl-click did not add")
        ActionChains(d).key_down(Keys.CONTROL).click(cell("p2")).key_up(Keys.CONTROL).perform()
        wait(d, lambda d: mine(d) == ["p4"], message="Ctrl-click did not toggle off")
        cell("p4").click()   # the anchor
        ActionChains(d).key_down(Keys.SHIFT).click(cell("p7")).key_up(Keys.SHIFT).perform()
        wait(d, lambda d: mine(d) == ["p4", "p5", "p6", "p7"], message="Shift-click did not extend")
        ActionChains(d).key_down(Keys.SHIFT).click(cell("p5")).key_up(Keys.SHIFT).perform()
        wait(d, lambda d: mine(d) == ["p4", "p5"], message="Shift-click did not shrink the range")
        cell("p9").click()
        wait(d, lambda d: mine(d) == ["p9"], message="a plain click did not select only that item")
        # Pointer down highlights before release.
        ActionChains(d).move_to_element(cell("p3")).click_and_hold().perform()
        assert "highlighted" in cell("p3").get_attribute("class")
        ActionChains(d).release().perform()
        wait(d, lambda d: mine(d) == ["p3"])
    finally:
        d.quit()


def test_shift_click_covers_the_whole_order_and_editing_mode_ticks(server):
    d, other = open_viewer(server), open_viewer(server)
    try:
        cell = lambda item: d.find_element(By.CSS_SELECTOR, f"[data-item='{item}']:not([hidden])")
        cell("p2").click()
        wait(d, lambda d: mine(d) == ["p2"])
        # Far down, in the second album: the range covers photos the page never drew.
        last = js(d, "return window.__collection.state.order[1][5]")
        drawn = lambda: js(d, "return !!document.querySelector(`[data-item='${arguments[0]}']:not([hidden])`)", last)
        for _ in range(40):
            if drawn():
                break
            js(d, "document.getElementById('scroller').scrollTop += 1500")
            time.sleep(0.1)
        wait(d, lambda d: drawn(), message="the second album did not come into view")
        js(d, "document.getElementById(`cell-${arguments[0]}`).scrollIntoView({block: 'center'})", last)
        time.sleep(0.3)
        ActionChains(d).key_down(Keys.SHIFT).click(cell(last)).key_up(Keys.SHIFT).perform()
        want = js(d, "const o = window.__collection.state.order; return o[0].slice(1).concat(o[1].slice(0, 6))")
        wait(d, lambda d: mine(d) == sorted(want), message=f"{len(mine(d))} selected, want {len(want)}")
        # Everyone sees the range (one message, not one per photo).
        wait(other, lambda o: len(js(o, "return [...window.__collection.state.selections.keys()]")) == len(want))
        # Editing mode: this viewer's clicks tick photos; the checkbox shows on every photo.
        js(d, "document.getElementById('scroller').scrollTop = 0")
        d.find_element(By.ID, "edit").click()
        wait(d, lambda d: js(d, "return document.body.classList.contains('editing')"), message="editing mode did not start")
        assert d.find_element(By.ID, "edit").get_attribute("aria-pressed") == "true"
        assert not js(other, "return document.body.classList.contains('editing')")
        wait(d, lambda d: cell("p1").find_element(By.CSS_SELECTOR, ".check").is_displayed())
        cell("p1").click()
        wait(d, lambda d: "p1" in mine(d) and "p2" in mine(d), message="a click in editing mode did not add")
        cell("p2").click()
        wait(d, lambda d: "p2" not in mine(d) and "p1" in mine(d), message="a click in editing mode did not untick")
        d.save_screenshot(str(artifacts_dir() / "editing-mode.png"))
        d.find_element(By.ID, "edit").click()
        wait(d, lambda d: not js(d, "return document.body.classList.contains('editing')"))
        cell("p3").click()
        wait(d, lambda d: mine(d) == ["p3"], message="out of editing mode a click selects only that photo")
    finally:
        d.quit()
        other.quit()


def test_keyboard_reorder_and_the_other_viewer_hears_it(server):
    d, other = open_viewer(server), open_viewer(server, 420, 700)
    try:
        d.execute_script("document.getElementById('scroller').focus()")
        wait(d, lambda d: focused(d) == "p1")
        look = "const s = getComputedStyle(document.querySelector('[data-item=p1]')); return [s.outlineStyle, s.boxShadow]"
        ring = js(d, look)
        keys(d, "m")
        wait(d, lambda d: "Picked up IMG_0001" in js(d, "return document.getElementById('announcer').textContent"))
        # Picked up, it looks it: a dashed outline and a lift where the focus ring was
        # (the ring, in the outline's place and colour, hid the dashes).
        picked = js(d, look)
        assert picked[0] == "dashed" and ring[0] != "dashed" and picked[1] != ring[1], (ring, picked)
        d.save_screenshot(str(artifacts_dir() / "keyboard-picked-up.png"))
        keys(d, Keys.ARROW_RIGHT)
        wait(d, lambda d: order(d, 3) == ["p2", "p1", "p3"], message="the others did not make room")
        keys(d, Keys.ARROW_RIGHT)
        wait(d, lambda d: order(d, 3) == ["p2", "p3", "p1"])
        assert js(d, "return window.__collection.state.seq") == 0   # nothing is committed before the drop
        keys(d, Keys.ENTER)
        for v in (d, other):
            wait(v, lambda v: js(v, "return window.__collection.state.seq") == 1 and order(v, 3) == ["p2", "p3", "p1"])
        wait(other, lambda o: js(o, "return document.getElementById('announcer').textContent")
             == "IMG_0001 moved to position 3 in Summer in Lisbon by Viewer 1 (guest).", message="the live region did not announce the move")
        # Escape cancels a keyboard move: nothing changes.
        keys(d, "m", Keys.ARROW_RIGHT)
        wait(d, lambda d: order(d, 4)[3] == "p1")
        keys(d, Keys.ESCAPE)
        wait(d, lambda d: order(d, 4) == ["p2", "p3", "p1", "p4"])
        time.sleep(0.3)
        assert js(d, "return window.__collection.state.seq") == 1
    finally:
        d.quit()
        other.quit()


def test_pointer_reorder_makes_room_live_and_drops(server):
    d, other = open_viewer(server), open_viewer(server, 700, 700)
    try:
        p1, p4 = (d.find_element(By.CSS_SELECTOR, f"[data-item='{i}']") for i in ("p1", "p4"))
        p2_before = frame(d, "p2")
        ActionChains(d, duration=40).move_to_element(p1).click_and_hold().move_by_offset(12, 0).move_to_element(p4).move_by_offset(4, 4).perform()
        wait(d, lambda d: frame(d, "p2") != p2_before, message="the others did not make room")
        assert "carried" in p1.get_attribute("class")
        # The other viewer sees a ghost in this viewer's colour.
        wait(other, lambda o: js(o, "return document.querySelectorAll('.ghost').length") == 1, message="no ghost for the other viewer")
        time.sleep(0.4)
        d.save_screenshot(str(artifacts_dir() / "mid-drag.png"))
        ActionChains(d).release().perform()
        for v in (d, other):
            wait(v, lambda v: js(v, "return window.__collection.state.seq") == 1 and order(v, 4) == ["p2", "p3", "p4", "p1"], message="drop not applied")
        wait(other, lambda o: js(o, "return document.querySelectorAll('.ghost').length") == 0, message="ghost stayed")
        # Escape during a pointer drag puts everything back.
        p5 = d.find_element(By.CSS_SELECTOR, "[data-item='p5']")
        ActionChains(d, duration=40).move_to_element(p5).click_and_hold().move_by_offset(-200, 0).perform()
        wait(d, lambda d: js(d, "return !!window.__collection.interaction.moving"))
        ActionChains(d).send_keys(Keys.ESCAPE).release().perform()
        time.sleep(0.4)
        assert js(d, "return window.__collection.state.seq") == 1 and order(d, 5)[4] == "p5"
    finally:
        d.quit()
        other.quit()


def test_layout_switch_animates_every_viewer(server):
    d, other = open_viewer(server), open_viewer(server, 420, 700)
    try:
        for v in (d, other):
            js(v, "window.__animations = 0")
        d.find_element(By.ID, "layout").click()
        for v in (d, other):
            wait(v, lambda v: js(v, "return document.body.dataset.layout") == "list", message="layout did not switch")
            wait(v, lambda v: js(v, "return window.__animations") > 0, message="the switch did not animate")
            scroller_width = js(v, "return document.getElementById('scroller').clientWidth")
            # One full-width row per photo.
            f = frame(v, "p1")
            assert f[2] > scroller_width * 0.9 and f[3] == 64, (f, scroller_width)
        time.sleep(0.5)
        d.save_screenshot(str(artifacts_dir() / "list-layout.png"))
        wait(other, lambda o: js(o, "return document.getElementById('announcer').textContent")
             == "Switched to list layout by Viewer 1 (guest).", message="the switch was not announced")
        d.find_element(By.ID, "layout").click()
        wait(other, lambda o: js(o, "return document.body.dataset.layout") == "grid")
        assert frame(other, "p1")[3] == frame(other, "p1")[2]   # square again
    finally:
        d.quit()
        other.quit()


def test_a_fast_scroll_is_reported_ahead_then_where_the_page_stopped(server):
    """Scrolling a screen or more in one frame, the page tells the server its offset led
    by that movement (so the window answering covers the next frames); in the frame
    after it stops, it tells the server where it really is."""
    d = open_viewer(server, 1000, 700)
    try:
        js(d, """window.__sent = [];
                 const c = window.__collection.connection, send = c.send.bind(c);
                 c.send = (m) => { if (m.type === 'scroll') window.__sent.push(m.offset.y); return send(m); };""")
        height = js(d, "return document.getElementById('scroller').clientHeight")
        # (What the page sent while loading is not this test's.)
        js(d, "return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        js(d, "window.__sent = []; document.getElementById('scroller').scrollTop = arguments[0]", height)
        settled = lambda d: (lambda s: 2 * height in s and s[-1] == height and s.index(2 * height) < len(s) - 1)(js(d, "return window.__sent"))
        wait(d, settled, message=f"not led, then settled: {js(d, 'return window.__sent')}")
        sent = js(d, "return window.__sent")
        # Led by the movement, then settled where the page is (and nothing else in between).
        assert sent == [2 * height, height], (height, sent)
        # A slow scroll is reported as it is, once.
        js(d, "window.__sent = []; document.getElementById('scroller').scrollTop += 40")
        wait(d, lambda d: len(js(d, "return window.__sent")) >= 1)
        js(d, "return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert js(d, "return window.__sent") == [height + 40]
        # The server's window follows the page: the viewport's cells are drawn.
        wait(d, lambda d: js(d, """const s = document.getElementById('scroller'), r = s.getBoundingClientRect();
            return [...document.querySelectorAll('#content [data-item]:not([hidden])')].some(n => {
              const b = n.getBoundingClientRect(); return b.top < r.bottom && b.bottom > r.top; })"""), message="the viewport is empty")
    finally:
        d.quit()
