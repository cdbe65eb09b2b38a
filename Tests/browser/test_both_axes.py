"""Scrolling on both axes. The storefront (store.html): sections that scroll on
their own; a carousel of 10,000 products scrolls sideways with a bounded page
(the server sends the cells near each viewer's own offset), pages come to rest a
page at a time, and another viewer's carousel stays where it was. The photos'
filmstrip: a whole collection that scrolls sideways."""
import pytest
from selenium.webdriver.support.ui import Select

from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait


BAND = "document.querySelector('#store .cv-band[data-section=everything]')"


def open_store(server):
    d = browser(1000, 900)
    d.get(server.url + "store.html")
    wait(d, lambda d: js(d, f"return document.getElementById('store').dataset.status === 'connected' && !!{BAND} && !!{BAND}.querySelector('[data-item=p1]')"),
         message="the store did not load")
    return d


def band_items(d):
    """The products drawn in the carousel (shown nodes), by number."""
    return sorted(int(i[1:]) for i in js(d, f"return [...{BAND}.querySelectorAll('[data-item]')].filter(n => !n.hidden).map(n => n.dataset.item)"))


def settled(d, offset):
    return js(d, f"const b = {BAND}; return Math.abs(b.scrollLeft - arguments[0]) < 1", offset)


def test_a_carousel_of_ten_thousand_scrolls_sideways_with_a_bounded_page(server):
    ana, ben = open_store(server), open_store(server)
    try:
        band = js(ana, "return document.getElementById('store').state.bands.find(b => b.section === 'everything')")
        # 10,000 cards 150 wide, 10 apart, 16 inset each side; it pages.
        assert band["length"] == 16 + 10_000 * 160 - 10 + 16 and band["behavior"] == "paging"
        assert max(band_items(ana)) < 30
        page = js(ana, f"return {BAND}.clientWidth")
        # A small swipe pages one page on, and no further.
        js(ana, f"{BAND}.scrollLeft = 200")
        wait(ana, lambda d: settled(d, page), message="the carousel did not come to rest a page on")
        # Far along: the server sends the products near this viewer's offset.
        js(ana, f"{BAND}.scrollLeft = 800000")
        wait(ana, lambda d: settled(d, round(800000 / page) * page), message="the carousel did not rest on a page")
        left = js(ana, f"return {BAND}.scrollLeft")
        first_in_view = int((left - 16) // 160) + 1   # product n sits at 16 + (n - 1) × 160
        wait(ana, lambda d: first_in_view in band_items(d) and first_in_view + 5 in band_items(d),
             message=f"product {first_in_view} did not arrive at offset {left}")
        items = band_items(ana)
        assert min(items) > first_in_view - 20 and max(items) < first_in_view + 30
        nodes = js(ana, "return document.querySelectorAll('*').length")
        assert nodes <= 1000, f"{nodes} nodes on the page"
        ana.save_screenshot(str(artifacts_dir() / "store-carousel-far.png"))
        # Ben's carousel is his own: still at its start.
        assert js(ben, f"return {BAND}.scrollLeft") == 0 and 1 in band_items(ben)
        assert js(ben, "return document.getElementById('store').state.bands.find(b => b.section === 'everything').offset") == 0
    finally:
        ana.quit()
        ben.quit()


def test_keyboard_focus_brings_a_card_of_a_carousel_into_view(server):
    d = open_store(server)
    try:
        js(d, "document.querySelector('#store .cv-scroller').focus()")
        js(d, "window.__store.live.interaction.focus('p1')")
        for _ in range(12):
            js(d, "document.querySelector('#store .cv-scroller').dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
        # Focus went along the products; the carousel scrolled to show the focused one.
        wait(d, lambda d: js(d, "return window.__store.live.interaction.focusedItem") == "p13")
        wait(d, lambda d: js(d, f"return {BAND}.scrollLeft") > 0, message="the carousel did not follow the focus")
        # The band may still be on its way (it scrolls smoothly, then snaps to its
        # paging): the card must end up wholly inside it.
        where = f"const b = {BAND}.getBoundingClientRect(), c = {BAND}.querySelector('[data-item=p13]').getBoundingClientRect(); return [b.left, b.right, c.left, c.right]"
        inside = lambda card: card[0] <= card[2] and card[3] <= card[1] + 1
        wait(d, lambda d: inside(js(d, where)), message="the focused card did not come wholly into view")
        card = js(d, where)
        assert inside(card), card
    finally:
        d.quit()


@pytest.fixture
def photos():
    s = Server("--demo", "photos", "--ticket-interval", "0")
    yield s
    s.stop()


def test_a_horizontal_layout_scrolls_the_whole_collection_sideways(photos):
    d = browser(1000, 700)
    try:
        d.get(photos.url)
        wait(d, lambda d: js(d, "return document.body.dataset.status === 'connected' && !!document.querySelector('#content [data-item=p1]')"))
        Select(d.find_element("id", "layout-mode")).select_by_value("filmstrip")
        wait(d, lambda d: js(d, "const s = document.getElementById('scroller'); return s.scrollWidth > 100000 && s.scrollHeight <= s.clientHeight + 1"),
             message="the filmstrip did not scroll sideways")
        rows = js(d, "const tops = new Set([...document.querySelectorAll('#content [data-item]:not([hidden])')].map(n => n.getBoundingClientRect().top)); return tops.size")
        assert rows >= 2
        js(d, "document.getElementById('scroller').scrollLeft = 60000")
        def shown():
            return sorted(int(i[1:]) for i in js(d, "return [...document.querySelectorAll('#content [data-item]:not([hidden])')].map(n => n.dataset.item)"))
        # The photos near x = 60,000 arrive, those of the start leave; the page holds a few screens of them.
        wait(d, lambda d: 1 not in shown() and any(js(d, "const r = document.querySelector(`#content [data-item=p${arguments[0]}]`)?.getBoundingClientRect(); return !!r && r.left >= 0 && r.right <= 1000", n) for n in shown()),
             message="the photos at x = 60,000 did not arrive")
        assert len(shown()) < 200
        d.save_screenshot(str(artifacts_dir() / "photos-filmstrip.png"))
    finally:
        d.quit()
