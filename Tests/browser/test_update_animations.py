"""A layout's initial and final attributes (UIKit's initialLayoutAttributesForAppearingItem
and finalLayoutAttributesForDisappearingItem) reach the page: in the photos demo's
waterfall, an inserted photo drops in from its own height above and a deleted one
shrinks to a fifth where it was. The grid keeps UIKit's default: a fade in place."""

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait
from test_transitions import open_photos

RECORD = """window.__anims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  window.__anims.push({ key: this.dataset.key, keyframes: JSON.parse(JSON.stringify(keyframes)) });
  return animate.call(this, keyframes, options);
};"""


def animations(d, key):
    return [a["keyframes"] for a in js(d, "return window.__anims") if a["key"] == key]


def test_inserted_and_deleted_photos_move_as_the_layout_says(server):
    d = open_photos(server)
    try:
        js(d, RECORD)
        js(d, "window.__collection.live.send({type: 'layout', name: 'waterfall'})")
        wait(d, lambda d: js(d, "return window.__collection.state.layout") == "waterfall")
        # The switch's own animation ends first: a delete during it starts from where
        # the cell is on its way (a make test under load deleted mid-switch).
        wait(d, lambda d: js(d, "return document.getAnimations().length") == 0, message="the layout switch did not settle")
        gone = js(d, "return window.__collection.state.elements.get('i:p2').frame")
        js(d, "window.__collection.live.send({type: 'delete', op: 'd1', items: ['p2']})")
        wait(d, lambda d: animations(d, "i:p2"), message="the deleted photo did not animate")
        last = animations(d, "i:p2")[-1][-1]
        # It ends where it was, a fifth of its size, transparent.
        assert last["opacity"] == 0
        assert last["transform"] == f"translate({gone[0]}px, {gone[1]}px) matrix(0.2, 0, 0, 0.2, 0, 0)", last
        section = js(d, "return window.__collection.state.sections[0].id")
        js(d, "window.__collection.live.send({type: 'insert', op: 'i1', section: arguments[0], count: 1})", section)
        wait(d, lambda d: js(d, "return window.__collection.state.seq") == 2)
        key = js(d, """const s = window.__collection.state; for (const [k, e] of s.elements) if (e.kind === 'cell' && e.section === 0 && e.item === 0) return k;""")
        wait(d, lambda d: animations(d, key), message="the inserted photo did not animate")
        frame = js(d, "return window.__collection.state.elements.get(arguments[0]).frame", key)
        first = animations(d, key)[-1][0]
        # It starts its own height above its frame, transparent.
        assert first["opacity"] == 0
        assert first["transform"] == f"translate({frame[0]}px, {frame[1] - frame[3]}px)", first
        d.save_screenshot(str(artifacts_dir() / "waterfall-insert.png"))
        # The grid keeps the default: the next inserted photo fades in where it lands.
        js(d, "window.__collection.live.send({type: 'layout', name: 'grid'})")
        wait(d, lambda d: js(d, "return window.__collection.state.layout") == "grid")
        js(d, "window.__collection.live.send({type: 'insert', op: 'i2', section: arguments[0], count: 1})", section)
        wait(d, lambda d: js(d, "return window.__collection.state.seq") == 3)
        key = js(d, """const s = window.__collection.state; for (const [k, e] of s.elements) if (e.kind === 'cell' && e.section === 0 && e.item === 0) return k;""")
        wait(d, lambda d: animations(d, key))
        frame = js(d, "return window.__collection.state.elements.get(arguments[0]).frame", key)
        first = animations(d, key)[-1][0]
        assert first["opacity"] == 0 and first["transform"] == f"translate({frame[0]}px, {frame[1]}px)", first
    finally:
        d.quit()
