"""Less motion when a person asks for it (prefers-reduced-motion: reduce): another
viewer's move puts the photos it shifts in their new places at once, with no slide;
with the setting off, the same move slides them."""
import pytest

from server_fixture import Server
from test_interaction import open_viewer
from test_two_viewers import js, wait

COUNT_MOTION = """
window.__slides = 0; window.__moving = 0;
document.addEventListener('transitionrun', e => { if (e.propertyName === 'transform') window.__slides++; }, true);
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const transforms = new Set((Array.isArray(frames) ? frames : []).map(f => f.transform ?? ''));
  if (transforms.size > 1) window.__moving++;
  return animate.call(this, frames, options);
};
"""


@pytest.fixture
def server():
    s = Server("--demo", "photos")
    yield s
    s.stop()


def moved(watcher, mover, seq):
    """The mover moves the album's first photo after its fourth: the three between shift."""
    js(watcher, COUNT_MOTION)
    js(mover, """const s = window.__collection.state, order = s.order[0];
                 window.__collection.live.send({type: 'move', op: 'm' + arguments[0], item: order[0], section: s.sections[0].id, after: order[3]})""", seq)
    wait(watcher, lambda d: js(d, "return window.__collection.state.seq") == seq, message="the move did not arrive")
    # Two frames later the batch is drawn.
    js(watcher, "return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return js(watcher, "return [window.__slides, window.__moving]")


def test_reduced_motion_moves_cells_at_once_and_the_default_slides(server):
    calm, mover = open_viewer(server), open_viewer(server)
    try:
        calm.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        assert js(calm, "return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert moved(calm, mover, 1) == [0, 0]
        assert not js(calm, "return document.querySelector('.content').classList.contains('animating')")
        # The same page with the setting off slides its cells.
        calm.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
        moved(calm, mover, 2)
        wait(calm, lambda d: sum(js(d, "return [window.__slides, window.__moving]")) >= 3, timeout=3, message="the default does not slide")
    finally:
        calm.quit()
        mover.quit()
