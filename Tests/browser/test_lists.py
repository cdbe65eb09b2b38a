"""List sections (UIKit's list configuration): the store's basket is an inset grouped
list whose rows the client draws as its own list rows (no page template): text,
secondary text, accessories, rounded first and last rows, separators between rows,
and each row sized to its text."""

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait


ROWS = """return [...document.querySelectorAll('#store .cv-list-cell:not([hidden])')].filter(n => /^b[0-9]/.test(n.dataset.item)).map(n => {
  const r = n.getBoundingClientRect(), cs = getComputedStyle(n), after = getComputedStyle(n, '::after');
  return {item: n.dataset.item, text: n.querySelector('.cv-list-primary').textContent, detail: n.querySelector('.cv-list-secondary').textContent,
          accessory: n.querySelector('.cv-list-trailing .cv-accessory')?.dataset.accessory ?? null, position: n.dataset.position,
          separator: after.content !== 'none' && after.height === '1px', separatorLeft: after.left,
          textLeft: n.querySelector('.cv-list-primary').getBoundingClientRect().left - r.left, radius: cs.borderTopLeftRadius, bottomRadius: cs.borderBottomLeftRadius,
          height: r.height, width: r.width, label: n.getAttribute('aria-label')};
}).sort((a, b) => a.item.localeCompare(b.item))"""


def scroll_to_basket(d):
    """Scrolls to the end once the content is drawn (a scroll before is clamped to 0)."""
    wait(d, lambda d: js(d, "return document.getElementById('store').dataset.status === 'connected' && document.querySelector('#store .cv-content').offsetHeight > 1500"))
    def at_end(d):
        js(d, "document.querySelector('#store .cv-scroller').scrollTop = 100000")
        return len(js(d, ROWS)) == 5
    wait(d, at_end, message="the basket's rows are not drawn")


def test_the_basket_is_a_list_drawn_by_the_client(server):
    d = browser(1000, 900)
    try:
        d.get(server.url + "store.html")
        scroll_to_basket(d)
        # Rows size themselves to their two lines of text (11 + 20 + 18 + 11), and are inset 20 each side.
        wait(d, lambda d: all(r["height"] == 60 for r in js(d, ROWS)), message=f"rows did not size themselves: {js(d, ROWS)}")
        rows = js(d, ROWS)
        assert [r["text"] for r in rows] == ["Stoneware teapot", "Beeswax candles", "Willow basket", "Bookends, walnut", "Terracotta pot"]
        assert rows[0]["detail"] == "€38 · 1" and all(r["accessory"] == "disclosureIndicator" for r in rows)
        # A screen reader hears a row's text, not its id ("b1").
        assert rows[0]["label"] == "Stoneware teapot, 1 of 5 in Your basket", rows[0]["label"]
        assert [r["position"] for r in rows] == ["first", "middle", "middle", "middle", "last"]
        assert [r["separator"] for r in rows] == [True, True, True, True, False]
        # The basket's separator configuration insets them 108 points: where the text starts.
        assert rows[0]["separatorLeft"] == "108px" and abs(rows[0]["textLeft"] - 108) <= 2, (rows[0]["textLeft"], rows[0])
        assert rows[0]["radius"] == "10px" and rows[2]["radius"] == "0px" and rows[4]["bottomRadius"] == "10px"
        width = js(d, "return document.querySelector('#store .cv-scroller').clientWidth")
        assert all(abs(r["width"] - (width - 40)) <= 1 for r in rows)
        d.save_screenshot(str(artifacts_dir() / "store-basket-list.png"))
    finally:
        d.quit()


def row_items(d):
    return js(d, "return window.__store.state.order?.[window.__store.state.sections.findIndex(s => s.id === 'basket')] ?? []")


def open_basket(server, width=1000, height=900):
    d = browser(width, height)
    d.get(server.url + "store.html")
    scroll_to_basket(d)
    return d


def test_swipe_to_delete_in_a_list_reaches_a_second_viewer(server):
    from selenium.webdriver.common.action_chains import ActionChains
    ana, ben = open_basket(server), open_basket(server, 600, 900)
    try:
        assert row_items(ana) == ["b1", "b2", "b3", "b4", "b5"]
        row = ana.find_element("css selector", "#store .cv-list-cell[data-item=b2]")
        # Swipe b2 from its trailing edge: its Remove action shows at that edge.
        ActionChains(ana, duration=40).move_to_element(row).click_and_hold().move_by_offset(-40, 0).move_by_offset(-90, 2).release().perform()
        wait(ana, lambda d: js(d, "return [...document.querySelectorAll('#store .cv-list-cell[data-item=b2] .cv-swipe-action')].map(b => b.textContent)") == ["Remove"],
             message="the swipe showed no action")
        ana.save_screenshot(str(artifacts_dir() / "store-basket-swiped.png"))
        assert js(ana, "return window.__store.state.mySelection()") == []   # a swipe is not a tap
        ana.find_element("css selector", "#store .cv-list-cell[data-item=b2] .cv-swipe-action").click()
        for d in (ana, ben):
            wait(d, lambda d: row_items(d) == ["b1", "b3", "b4", "b5"], message=f"b2 is still in the basket: {row_items(d)}")
        # From the keyboard: Delete on the focused row reveals its actions, focused.
        js(ben, "document.querySelector('#store .cv-scroller').focus(); window.__store.live.interaction.focus('b4')")
        js(ben, "document.querySelector('#store .cv-scroller').dispatchEvent(new KeyboardEvent('keydown', {key: 'Delete', bubbles: true}))")
        wait(ben, lambda d: js(d, "return document.activeElement?.classList.contains('cv-swipe-action') && document.activeElement.textContent") == "Remove",
             message="Delete did not reveal the row's actions")
        js(ben, "document.activeElement.click()")
        for d in (ana, ben):
            wait(d, lambda d: row_items(d) == ["b1", "b3", "b5"])
    finally:
        ana.quit()
        ben.quit()


def help_rows(d):
    return js(d, "return window.__store.state.order?.[window.__store.state.sections.findIndex(s => s.id === 'help')] ?? []")


def test_an_outline_expands_for_every_viewer_by_click_and_by_key(server):
    ana, ben = open_basket(server), open_basket(server, 600, 900)
    try:
        assert help_rows(ana) == ["h-delivery", "h-returns", "h-payment"]
        js(ana, "document.querySelector('#store .cv-scroller').scrollTop = 100000")
        wait(ana, lambda d: js(d, "return !!document.querySelector('#store .cv-list-cell[data-item=h-returns] [data-outline]')"))
        ana.find_element("css selector", "#store .cv-list-cell[data-item=h-returns] [data-outline]").click()
        for d in (ana, ben):
            wait(d, lambda d: help_rows(d) == ["h-delivery", "h-returns", "h-returns-1", "h-returns-2", "h-payment"], message=f"help: {help_rows(d)}")
        wait(ana, lambda d: js(d, "return document.querySelector('#store .cv-list-cell[data-item=h-returns] [data-outline]').dataset.expanded") == "true")
        assert ana.find_element("css selector", "#store .cv-list-cell[data-item=h-returns-1]").text == "How to return an item"
        assert js(ana, "return window.__store.state.mySelection()") == []   # the disclosure is not a tap on the row
        ana.save_screenshot(str(artifacts_dir() / "store-help-outline.png"))
        # Left on the focused topic collapses it.
        js(ben, "document.querySelector('#store .cv-scroller').focus(); window.__store.live.interaction.focus('h-returns')")
        js(ben, "document.querySelector('#store .cv-scroller').dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))")
        for d in (ana, ben):
            wait(d, lambda d: help_rows(d) == ["h-delivery", "h-returns", "h-payment"])
    finally:
        ana.quit()
        ben.quit()


def test_the_reorder_handle_moves_a_row_and_the_delete_accessory_reveals_remove(server):
    from selenium.webdriver.common.action_chains import ActionChains
    ana, ben = open_basket(server), open_basket(server, 600, 900)
    try:
        assert row_items(ana) == ["b1", "b2", "b3", "b4", "b5"]
        handle = ana.find_element("css selector", "#store .cv-list-cell[data-item=b1] [data-accessory=reorder]")
        below = ana.find_element("css selector", "#store .cv-list-cell[data-item=b3]")
        # Pressing the handle lifts the row at once; dropped on b3, it takes b3's place.
        ActionChains(ana, duration=40).click_and_hold(handle).move_to_element(below).move_by_offset(0, 8).release().perform()
        for d in (ana, ben):
            wait(d, lambda d: row_items(d) == ["b2", "b3", "b1", "b4", "b5"], message=f"the basket is {row_items(d)}")
        assert js(ana, "return window.__store.state.mySelection()") == []   # the handle is not a tap on the row
        # The delete accessory reveals the row's Remove action, focused; choosing it removes the row for everyone.
        ana.find_element("css selector", "#store .cv-list-cell[data-item=b4] [data-accessory=delete]").click()
        wait(ana, lambda d: js(d, "return document.activeElement?.classList.contains('cv-swipe-action') && document.activeElement.textContent") == "Remove",
             message="the delete accessory did not reveal Remove")
        ana.save_screenshot(str(artifacts_dir() / "store-basket-delete-accessory.png"))
        js(ana, "document.activeElement.click()")
        for d in (ana, ben):
            wait(d, lambda d: row_items(d) == ["b2", "b3", "b1", "b5"], message=f"the basket is {row_items(d)}")
    finally:
        ana.quit()
        ben.quit()


def detail(d, item):
    return js(d, "return document.querySelector(`#store [data-item='${arguments[0]}'] .cv-list-secondary`)?.textContent ?? null", item)


def test_the_insert_accessory_runs_the_servers_handler_by_mouse_and_by_key(server):
    """A basket row's insert accessory (UIKit's, with an actionHandler) adds one more of
    the row: Ana clicks it, then reaches another row's by Tab and presses Enter; Ben,
    watching, sees both counts go up."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    ana, ben = open_basket(server), open_basket(server)
    try:
        insert = ana.find_element(By.CSS_SELECTOR, "#store [data-item=b2] [data-accessory=insert]")
        # A button named with its row, reached from the row (not a Tab stop of its own).
        assert insert.tag_name == "button" and insert.get_attribute("aria-label") == "Add, Beeswax candles"
        assert insert.get_attribute("tabindex") == "-1"
        assert detail(ben, "b2") == "€12 · 3"
        insert.click()
        wait(ben, lambda d: detail(d, "b2") == "€12 · 4", message=f"Ben did not see the new count: {detail(ben, 'b2')}")
        wait(ana, lambda d: detail(d, "b2") == "€12 · 4")
        # By key: focus the Willow basket row, Tab into its controls, Enter on Add.
        ana.find_element(By.CSS_SELECTOR, "#store [data-item=b3] .cv-list-primary").click()
        ActionChains(ana).send_keys(Keys.TAB).perform()
        wait(ana, lambda d: js(d, "const a = document.activeElement; return a?.dataset.accessory === 'insert' && a.closest('[data-item]')?.dataset.item === 'b3'"),
             message="Tab did not reach the row's Add")
        ActionChains(ana).send_keys(Keys.ENTER).perform()
        wait(ben, lambda d: detail(d, "b3") == "€45 · 2", message=f"Ben did not see the keyboard's add: {detail(ben, 'b3')}")
        ana.save_screenshot(str(artifacts_dir() / "store-basket-insert.png"))
    finally:
        ana.quit()
        ben.quit()
