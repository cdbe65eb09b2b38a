"""The background view (UIKit's backgroundView): the photos page shows its empty
state, drawn from the page's template behind the cells and not scrolling, when the
last photo goes, for every viewer, and hides it when photos come back."""

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait


def open_photos(server, width=900, height=700):
    d = browser(width, height)
    d.get(server.url)
    wait(d, lambda d: js(d, "return document.body.dataset.status === 'connected' && !!document.querySelector('#content [data-item=p1]')"))
    return d


EMPTY = "[...document.querySelectorAll('#scroller .empty-state')].find(n => !n.hidden)"


def empty_state(d):
    """The shown empty state's text and place against the scroller's box, or None."""
    return js(d, f"""const n = {EMPTY}; if (!n) return null;
        const r = n.getBoundingClientRect(), s = document.getElementById('scroller').getBoundingClientRect();
        return {{text: n.innerText.replace(/\\s+/g, ' ').trim(), dx: r.left - s.left, dy: r.top - s.top, w: r.width, h: r.height,
                 clientW: document.getElementById('scroller').clientWidth, clientH: document.getElementById('scroller').clientHeight}}""")


def test_the_empty_state_shows_when_the_last_photo_goes_and_hides_when_one_comes(server):
    ana, ben = open_photos(server), open_photos(server, 500, 600)
    try:
        assert empty_state(ana) is None
        js(ana, "const s = window.__collection.state; window.__collection.live.send({type: 'delete', op: 'all', items: s.order.flat()})")
        def in_place(state):
            # The viewport's size, at the scroller's top-left corner (once it has grown in).
            return (state is not None and abs(state["dx"]) <= 1 and abs(state["dy"]) <= 1
                    and abs(state["w"] - state["clientW"]) <= 1 and abs(state["h"] - state["clientH"]) <= 1)
        for d in (ana, ben):
            wait(d, lambda d: empty_state(d) is not None, message="no empty state")
            assert empty_state(d)["text"] == "No photos Insert some, or drop text, links or files here."
            wait(d, lambda d: in_place(empty_state(d)), message=f"the empty state is not the viewport: {empty_state(d)}")
        ana.save_screenshot(str(artifacts_dir() / "photos-empty-state.png"))
        js(ben, "document.getElementById('insert').click()")
        for d in (ana, ben):
            wait(d, lambda d: empty_state(d) is None and js(d, "return window.__collection.state.order.flat().length") == 3,
                 message="the empty state did not go")
    finally:
        ana.quit()
        ben.quit()
