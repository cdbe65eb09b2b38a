"""Two headless Chromium viewers on one server: selection, shuffle animation,
delete and insert reach both; scrolling to the end keeps the DOM small; the
page reconnects after the server restarts. Screenshots go to .build/test-artifacts/."""
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import chromium
from server_fixture import Server, artifacts_dir

# Counts Web Animations and CSS transitions started, so a test can tell that a batch animated.
COUNT_ANIMATIONS = """
window.__animations = 0;
const original = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__animations++; return original.apply(this, args); };
document.addEventListener("transitionrun", (event) => { if (event.propertyName === "transform") window.__animations++; }, true);
"""


def browser(width, height):
    """A headless Chromium of `width` × `height` that counts animations (chromium.py: kept for the next test)."""
    return chromium(width, height, init_script=COUNT_ANIMATIONS)


def js(driver, script, *args):
    return driver.execute_script(script, *args)


def wait(driver, condition, timeout=10, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d), message)


def seq(driver):
    return js(driver, "return window.__collection.state.seq")


def item_classes(driver, item):
    return js(driver, "const n = document.querySelector(`[data-item='${arguments[0]}']:not([hidden])`); return n ? n.className : null", item)


@pytest.fixture
def server():
    s = Server("--demo", "photos")
    yield s
    s.stop()


@pytest.fixture
def viewers(server):
    a, b = browser(1200, 800), browser(420, 800)
    try:
        for d in (a, b):
            d.get(server.url)
            wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected"
                 and js(d, "return document.querySelectorAll('.cell:not([hidden])').length") > 8, message="viewer did not load")
        yield a, b
    finally:
        a.quit()
        b.quit()


def test_two_viewers_stay_in_sync(server, viewers):
    a, b = viewers
    # Each viewer has its own layout: a phone-width viewer gets narrower cells.
    width_a = js(a, "return document.querySelector('[data-item=p2]').getBoundingClientRect().width")
    width_b = js(b, "return document.querySelector('[data-item=p2]').getBoundingClientRect().width")
    assert width_a != width_b

    # A click in A selects; B shows A's selection in A's colour.
    a.find_element(By.CSS_SELECTOR, "[data-item='p3']").click()
    wait(a, lambda d: "selected" in (item_classes(d, "p3") or "").split(), message="A did not show its selection")
    wait(b, lambda d: "remote-selected" in (item_classes(d, "p3") or ""), message="B did not show A's selection")
    colour_a = js(a, "return window.__collection.state.me.color")
    assert js(b, "return document.querySelector('[data-item=p3]').style.getPropertyValue('--remote')") == colour_a

    # Shuffle in A: both apply batch 1 and animate it; cells move.
    first_cells = """return window.__collection.state.sections.length && [...window.__collection.state.elements.values()]
        .filter(e => e.kind === 'cell' && e.section === 0).sort((p, q) => p.item - q.item).slice(0, 12).map(e => e.key)"""
    before = js(b, first_cells)
    for d in (a, b):
        js(d, "window.__animations = 0")
    a.find_element(By.ID, "shuffle").click()
    for d in (a, b):
        wait(d, lambda d: seq(d) == 1, message="shuffle batch did not arrive")
        wait(d, lambda d: js(d, "return window.__animations") > 0, message="shuffle did not animate")
    after = js(b, first_cells)
    changed = sum(1 for x, y in zip(before, after) if x != y)
    assert changed >= 6, f"the first places should hold other items after a shuffle: {before} → {after}"
    # The DOM agrees with the state: each of those cells is drawn where the layout put it.
    for key in after:
        frame = js(b, "return window.__collection.state.elements.get(arguments[0]).frame", key)
        transform = js(b, "return document.querySelector(`[data-key='${arguments[0]}']`).style.transform", key)
        assert transform == f"translate({frame[0]:g}px, {frame[1]:g}px)", (key, frame, transform)
    time.sleep(0.5)
    a.save_screenshot(str(artifacts_dir() / "viewer-a.png"))
    b.save_screenshot(str(artifacts_dir() / "viewer-b.png"))

    # Delete selected in A: the item leaves both.
    a.find_element(By.ID, "delete").click()
    for d in (a, b):
        wait(d, lambda d: seq(d) == 2, message="delete batch did not arrive")
        wait(d, lambda d: item_classes(d, "p3") is None, message="deleted item still shown")
    # Insert 3 in B: both get batch 3 with three new items at the top of the album.
    b.find_element(By.ID, "insert").click()
    for d in (a, b):
        wait(d, lambda d: seq(d) == 3, message="insert batch did not arrive")
        wait(d, lambda d: item_classes(d, "p2201") is not None, message="inserted item not shown")

    # Both hold the whole order, and it is the same.
    order = "return window.__collection.state.order"
    assert js(a, order) == js(b, order) and len(js(a, order)[0]) > 100
    # Corrupt B's copy of the order (two ids swapped): the next batch's checksum
    # disagrees, so B asks for a fresh copy instead of showing a wrong order.
    js(b, "const o = window.__collection.state.order[0]; [o[0], o[1]] = [o[1], o[0]]")
    assert js(b, "return window.__collection.state.reloads") == 0
    b.find_element(By.ID, "insert").click()
    for d in (a, b):
        wait(d, lambda d: seq(d) == 4, message="insert batch did not arrive")
    wait(b, lambda d: js(d, "return window.__collection.state.reloads") == 1, message="B did not notice its order was wrong")
    wait(b, lambda d: js(d, order) == js(a, order), message="B's fresh copy differs from A's")
    assert js(b, "return window.__collection.state.reloads") == 1


def test_scrolling_to_the_end_keeps_the_dom_small(server, viewers):
    a, _ = viewers
    most = 0
    height = js(a, "return document.getElementById('scroller').scrollHeight")
    for y in range(0, height + 1600, 1600):
        js(a, "document.getElementById('scroller').scrollTop = arguments[0]", y)
        time.sleep(0.03)
        most = max(most, js(a, "return document.querySelectorAll('.cell').length"))
    js(a, "const s = document.getElementById('scroller'); s.scrollTop = s.scrollHeight")
    # The last photo of the last album arrives and is drawn.
    wait(a, lambda d: js(d, "return !!document.querySelector('[data-item=p2200]:not([hidden])')"), message="last item not drawn")
    cells = js(a, "return document.querySelectorAll('.cell').length")
    most = max(most, cells)
    (artifacts_dir() / "dom-cells.txt").write_text(f"DOM cells at the end: {cells}; most at any step: {most}\n")
    a.save_screenshot(str(artifacts_dir() / "viewer-a-end.png"))
    print(f"DOM cells at the end of the list: {cells} (most while scrolling: {most})")
    assert cells <= 300 and most <= 400


def test_page_reconnects_after_server_restart(server):
    d = browser(900, 700)
    try:
        d.get(server.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected")
        port = server.port
        server.stop()
        wait(d, lambda d: js(d, "return document.body.dataset.status") in ("reconnecting", "connecting"))
        again = Server("--demo", "photos", "--port", str(port))
        try:
            wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected", timeout=15, message="did not reconnect")
            wait(d, lambda d: js(d, "return document.querySelectorAll('.cell:not([hidden])').length") > 8)
        finally:
            again.stop()
    finally:
        d.quit()


def test_other_viewers_focus_and_drag_are_shown(server):
    """Presence from another viewer: its focus ring and its drag ghost, in its colour."""
    d = browser(1000, 700)
    try:
        d.get(server.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected"
             and js(d, "return !!document.querySelector('[data-item=p3]')"))
        # A second viewer, speaking the protocol directly from the page.
        js(d, """
            const ws = new WebSocket(new URL('ws', location.href).href.replace('http', 'ws'), 'collection.v1');
            window.__other = ws;
            ws.onopen = () => ws.send(JSON.stringify({type: 'hello', viewport: {width: 800, height: 600}}));
            ws.onmessage = (e) => {
              if (JSON.parse(e.data).type !== 'welcome') return;
              ws.send(JSON.stringify({type: 'focus', item: 'p3'}));
              ws.send(JSON.stringify({type: 'drag', item: 'p5', x: 420, y: 330}));
            };
        """)
        wait(d, lambda d: "remote-focus" in (item_classes(d, "p3") or ""), message="focus ring not shown")
        wait(d, lambda d: js(d, "return document.querySelectorAll('.ghost').length") == 1, message="ghost not shown")
        other = js(d, "return [...window.__collection.state.viewers.values()].find(v => v.id !== window.__collection.state.me.id).color")
        assert js(d, "return document.querySelector('.ghost').style.getPropertyValue('--color')") == other
        assert "IMG_0005" in js(d, "return document.querySelector('.ghost').textContent")
        d.save_screenshot(str(artifacts_dir() / "presence.png"))
        # The drag ends, the ghost goes; the viewer leaves, its focus ring goes.
        js(d, "window.__other.send(JSON.stringify({type: 'drag', item: null}))")
        wait(d, lambda d: js(d, "return document.querySelectorAll('.ghost').length") == 0, message="ghost stayed")
        js(d, "window.__other.close()")
        wait(d, lambda d: "remote-focus" not in (item_classes(d, "p3") or ""), message="focus ring stayed")
    finally:
        d.quit()


def test_a_scroll_dropped_by_the_rate_limit_is_sent_again():
    """With a tiny rate limit, most scrolls of a fast scroller are dropped: the page
    sends its viewport again after a `rate_limited` answer, so the window catches up."""
    limited = Server("--demo", "photos", "--rate-limit", "2")
    d = browser(1000, 700)
    try:
        d.get(limited.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected"
             and js(d, "return !!document.querySelector('[data-item=p1]:not([hidden])')"))
        # Ten far jumps in quick succession: the bucket (2 a second, bursts of 4) drops some.
        for y in range(1, 11):
            js(d, "document.getElementById('scroller').scrollTop = arguments[0]", y * 3000)
            time.sleep(0.05)
        js(d, "const s = document.getElementById('scroller'); s.scrollTop = s.scrollHeight")
        wait(d, lambda d: js(d, "return !!document.querySelector('[data-item=p2200]:not([hidden])')"), timeout=15,
             message="the window never caught up with the last scroll")
    finally:
        d.quit()
        limited.stop()
