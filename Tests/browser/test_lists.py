"""List sections (UIKit's list configuration): the store's basket is an inset grouped
list whose rows the client draws as its own list rows (no page template): text,
secondary text, accessories, rounded first and last rows, separators between rows,
and each row sized to its text."""
import pytest

from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait


@pytest.fixture
def server():
    s = Server("--demo", "small", "--ticket-interval", "0")
    yield s
    s.stop()


ROWS = """return [...document.querySelectorAll('#store .cv-list-cell:not([hidden])')].map(n => {
  const r = n.getBoundingClientRect(), cs = getComputedStyle(n), after = getComputedStyle(n, '::after');
  return {item: n.dataset.item, text: n.querySelector('.cv-list-primary').textContent, detail: n.querySelector('.cv-list-secondary').textContent,
          accessory: n.querySelector('.cv-list-trailing .cv-accessory')?.dataset.accessory ?? null, position: n.dataset.position,
          separator: after.content !== 'none' && after.height === '1px', radius: cs.borderTopLeftRadius, bottomRadius: cs.borderBottomLeftRadius,
          height: r.height, width: r.width};
}).sort((a, b) => a.item.localeCompare(b.item))"""


def test_the_basket_is_a_list_drawn_by_the_client(server):
    d = browser(1000, 900)
    try:
        d.get(server.url + "store.html")
        wait(d, lambda d: js(d, "return document.getElementById('store').dataset.status === 'connected'"))
        js(d, "document.querySelector('#store .cv-scroller').scrollTop = 100000")
        wait(d, lambda d: len(js(d, ROWS)) == 5, message="the basket's rows are not drawn")
        # Rows size themselves to their two lines of text (11 + 20 + 18 + 11), and are inset 20 each side.
        wait(d, lambda d: all(r["height"] == 60 for r in js(d, ROWS)), message=f"rows did not size themselves: {js(d, ROWS)}")
        rows = js(d, ROWS)
        assert [r["text"] for r in rows] == ["Stoneware teapot", "Beeswax candles", "Willow basket", "Bookends, walnut", "Terracotta pot"]
        assert rows[0]["detail"] == "€38 · 1" and all(r["accessory"] == "disclosureIndicator" for r in rows)
        assert [r["position"] for r in rows] == ["first", "middle", "middle", "middle", "last"]
        assert [r["separator"] for r in rows] == [True, True, True, True, False]
        assert rows[0]["radius"] == "10px" and rows[2]["radius"] == "0px" and rows[4]["bottomRadius"] == "10px"
        width = js(d, "return document.querySelector('#store .cv-scroller').clientWidth")
        assert all(abs(r["width"] - (width - 40)) <= 1 for r in rows)
        d.save_screenshot(str(artifacts_dir() / "store-basket-list.png"))
    finally:
        d.quit()
