"""Interactive transitions (UIKit's startInteractiveTransition): a viewer drives its
own layout between grid and list, every frame from the server. One viewer finishes
its transition, another cancels its own: each ends in its layout, and neither
moved the other."""

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait


def open_photos(server):
    d = browser(900, 800)
    d.get(server.url)
    wait(d, lambda d: js(d, "return document.body.dataset.status === 'connected' && !!document.querySelector('#content [data-item=p2]')"))
    return d


def frame(d, item="p2"):
    return js(d, "return window.__collection.state.elements.get('i:' + arguments[0])?.frame", item)


def drawn(d, item="p2"):
    """Where the page draws the cell: its offset in the content and its size."""
    return js(d, """const n = document.querySelector(`#content [data-key="i:${arguments[0]}"]`), c = document.getElementById('content').getBoundingClientRect();
                    const r = n.getBoundingClientRect(); return [r.left - c.left, r.top - c.top, r.width, r.height]""", item)


def close(a, b, tolerance=1.5):
    return a is not None and b is not None and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_one_viewer_finishes_another_cancels_and_each_ends_in_its_layout(server):
    ana, ben = open_photos(server), open_photos(server)
    try:
        grid = frame(ana)
        assert frame(ben) == grid and grid[2] < 400   # a grid cell
        # Ana pinches half way towards the list: her cell moves, Ben's does not.
        js(ana, "window.__collection.live.beginTransition('list'); window.__collection.live.setTransitionProgress(0.5)")
        wait(ana, lambda d: frame(d) != grid, message="the server sent no frames for the transition")
        half = frame(ana)
        assert grid[2] < half[2] and half[0] <= grid[0]
        # ... past halfway, and lets go: she keeps the list.
        js(ana, "window.__collection.live.setTransitionProgress(0.8)")
        wait(ana, lambda d: frame(d)[2] > half[2])
        js(ana, "window.__collection.live.endTransition(true)")
        wait(ana, lambda d: js(d, "return window.__collection.state.layout === 'list' && document.body.dataset.layout === 'list'"),
             message="Ana's view did not end in the list")
        wait(ana, lambda d: frame(d)[2] > 800, message="Ana's cell is not a list row")
        wait(ana, lambda d: close(drawn(d), frame(d)), message="Ana's page does not draw the row where the server put it")
        ana.save_screenshot(str(artifacts_dir() / "transition-finished.png"))
        # Ben drags the toolbar's slider most of the way, then back before letting go: he stays in the grid.
        assert frame(ben) == grid
        js(ben, """const s = document.getElementById('transition');
                   for (const v of ['0.3', '0.7']) { s.value = v; s.dispatchEvent(new Event('input')); }""")
        wait(ben, lambda d: frame(d)[2] > grid[2] * 1.5, message="Ben's slider did not move his view")
        js(ben, """const s = document.getElementById('transition'); s.value = '0.1'; s.dispatchEvent(new Event('input'));""")
        wait(ben, lambda d: frame(d)[2] < grid[2] * 2)   # a tenth of the way: 164 + 0.1 × (846 - 164) at 900 px
        js(ben, "document.getElementById('transition').dispatchEvent(new Event('change'))")
        wait(ben, lambda d: frame(d) == grid and js(d, "return window.__collection.live.transition") is None, message="Ben's view did not go back to the grid")
        wait(ben, lambda d: close(drawn(d), grid), message=f"Ben's cell is drawn at {drawn(ben)}, not {grid}")
        assert js(ben, "return window.__collection.state.layout") == "grid"
        assert js(ben, "return document.getElementById('transition').value") == "0"
        # Each kept its own: Ana is still in the list.
        assert js(ana, "return window.__collection.state.layout") == "list" and frame(ana)[2] > 800
    finally:
        ana.quit()
        ben.quit()


def test_a_pinch_moves_the_view_to_the_list_and_back(server):
    d = open_photos(server)
    try:
        grid = frame(d)
        # A trackpad pinch outwards is wheel events with ctrlKey and deltaY < 0: towards the list.
        pinch = """for (let i = 0; i < 6; i++) document.getElementById('scroller').dispatchEvent(
                     new WheelEvent('wheel', {deltaY: arguments[0], ctrlKey: true, bubbles: true, cancelable: true}))"""
        js(d, pinch, -50)
        wait(d, lambda d: js(d, "return window.__collection.state.layout") == "list", message="a pinch past halfway did not keep the list")
        wait(d, lambda d: frame(d)[2] > 800)
        # Pinching in a little (a quarter of the way) goes back to the list when let go.
        js(d, pinch, 10)
        wait(d, lambda d: js(d, "return window.__collection.live.transition") is None)
        wait(d, lambda d: frame(d)[2] > 800 and js(d, "return window.__collection.state.layout") == "list")
        js(d, pinch, 60)
        wait(d, lambda d: frame(d) == grid and js(d, "return window.__collection.state.layout") == "grid", message="pinching in did not bring the grid back")
    finally:
        d.quit()
