"""Drag and drop on the board page (two collections) and onto the photos: between
collections with the pointer (Actions API), onto a folder, a forbidden drop, and an
external text drop (synthesised DataTransfer) with its placeholder. A second viewer
sees every change. Screenshots (mid-drag) go to .build/test-artifacts/."""
import os
import signal
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait


@pytest.fixture
def server():
    s = Server("--demo", "small")
    yield s
    s.stop()


def open_board(server, width=1000, height=760):
    d = browser(width, height)
    d.get(server.url + "board.html")
    wait(d, lambda d: js(d, "return document.body.dataset.status") == "connected"
         and js(d, "return window.__board.columns.every(c => c.state.me && c.view.liveCount > 0)"), message="board did not load")
    return d


def column(name):
    return f"window.__board.columns.find(c => c.collection === '{name}')"


def titles(d, name, section):
    """Titles of a column's section, in the order the page mirrors (the whole order, not only the window)."""
    return js(d, f"""const c = {column(name)}; const s = c.state.sections.findIndex(s => s.id === arguments[0]);
        return c.state.order[s].map(id => [...c.state.elements.values()].find(e => e.key === 'i:' + id)?.content.title ?? id)""", section)


def card(d, name, title):
    return d.find_element(By.XPATH, f"//collection-view[@collection='{name}']//div[contains(@class,'card') and not(@hidden)][.//span[@class='title' and text()='{title}']]")


def seqs(d):
    return js(d, "return window.__board.columns.map(c => c.state.seq)")


def test_a_card_is_dragged_into_the_other_column_and_everyone_sees_it(server):
    a, b = open_board(server), open_board(server, 420, 900)
    try:
        source = card(a, "backlog", "Keyboard shortcuts sheet")
        target = card(a, "sprint", "Insertion indicator")
        # Over the top half of "Insertion indicator": the gap before it.
        actions = ActionChains(a, duration=60).move_to_element(source).click_and_hold().move_by_offset(20, 4)
        actions.move_to_element_with_offset(target, 0, -12).perform()
        wait(a, lambda d: js(d, f"return {column('sprint')}.view.indicator && !{column('sprint')}.view.indicator.hidden"),
             message="no insertion indicator")
        proposal = js(a, "return window.__board.drags.session.proposal")
        assert proposal["operation"] == "move" and proposal["intent"] == "insertAtDestinationIndexPath"
        assert (proposal["section"], proposal["item"]) == (0, 1)
        # The lifted card stays in its column, dimmed; a copy follows the pointer.
        assert "lifted" in source.get_attribute("class")
        assert js(a, "return document.querySelectorAll('.drag-ghost').length") == 1
        assert js(a, "return document.body.style.cursor") == "grabbing"
        a.save_screenshot(str(artifacts_dir() / "board-mid-drag.png"))
        ActionChains(a).release().perform()
        want = ["Drag between columns", "Keyboard shortcuts sheet", "Insertion indicator", "Drop placeholder"]
        for d in (a, b):
            wait(d, lambda d: titles(d, "sprint", "doing") == want, message=f"sprint: {titles(d, 'sprint', 'doing')}")
            wait(d, lambda d: "Keyboard shortcuts sheet" not in titles(d, "backlog", "ideas"))
        assert js(a, "return document.querySelectorAll('.drag-ghost, .drop-placeholder').length") == 0
        assert js(a, f"return {column('sprint')}.view.indicator.hidden")
        # The moved card keeps its identity: the same id in the new column.
        assert js(a, f"return {column('sprint')}.state.order[0][1]") == js(b, f"return {column('sprint')}.state.order[0][1]")
        assert seqs(a) == [1, 1] == seqs(b)
    finally:
        a.quit()
        b.quit()


def test_a_card_goes_into_a_folder_and_a_folder_cannot(server):
    d = open_board(server)
    try:
        archive = card(d, "sprint", "Archive")
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Offline reading list")).click_and_hold() \
            .move_by_offset(20, 0).move_to_element(archive).perform()
        wait(d, lambda d: "drop-into" in archive.get_attribute("class"), message="the folder is not highlighted")
        assert js(d, "return window.__board.drags.session.proposal.target") == js(
            d, f"return [...{column('sprint')}.state.elements.values()].find(e => e.content.title === 'Archive').key.slice(2)")
        ActionChains(d).release().perform()
        wait(d, lambda d: archive.find_element(By.CSS_SELECTOR, ".badge").text == "1", message="the folder did not count the card")
        wait(d, lambda d: "Offline reading list" not in titles(d, "backlog", "ideas"))
        assert "Offline reading list" not in titles(d, "sprint", "done")
        before = seqs(d)
        # A folder onto a folder: forbidden, shown by the cursor; releasing changes nothing.
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Someday")).click_and_hold() \
            .move_by_offset(20, 0).move_to_element(archive).perform()
        wait(d, lambda d: js(d, "return window.__board.drags.session?.proposal?.operation") == "forbidden")
        assert js(d, "return document.body.style.cursor") == "not-allowed"
        assert "drop-into" not in archive.get_attribute("class")
        ActionChains(d).release().perform()
        wait(d, lambda d: js(d, "return document.getElementById('announcer').textContent") == "That drop is not allowed there.")
        assert seqs(d) == before and "Someday" in titles(d, "backlog", "ideas")
        # Escape cancels a drag.
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Dark mode for the status line")).click_and_hold() \
            .move_by_offset(40, 10).perform()
        wait(d, lambda d: js(d, "return !!window.__board.drags.session"))
        ActionChains(d).send_keys(Keys.ESCAPE).release().perform()
        wait(d, lambda d: js(d, "return !window.__board.drags.session && !document.querySelector('.drag-ghost')"))
        assert seqs(d) == before
    finally:
        d.quit()


# Dispatches drag events carrying `text` at the centre of an element (a synthesised DataTransfer).
DRAG = """
function drag(target, type, text, mime = 'text/plain') {
  const r = target.getBoundingClientRect();
  const data = new DataTransfer();
  data.setData(mime, text);
  const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data, clientX: r.left + r.width / 2, clientY: r.top + 8 });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}
"""
EXTERNAL_DRAG = DRAG + "return drag(...arguments);"


def test_external_text_is_dropped_with_a_placeholder(server):
    a, b = open_board(server), open_board(server)
    try:
        target = card(a, "sprint", "Drop placeholder")
        assert js(a, EXTERNAL_DRAG, target, "dragover", "Write the launch post\nwith screenshots")
        wait(a, lambda d: js(d, "return window.__board.drags.external?.proposal?.operation") == "copy", message="no copy proposal")
        proposal = js(a, "return window.__board.drags.external.proposal")
        assert (proposal["section"], proposal["item"]) == (0, 2)
        # The drop shows a placeholder at once (same task: no server answer can have arrived).
        placeholder = js(a, DRAG + "drag(...arguments); return document.querySelector('.drop-placeholder')?.textContent ?? null",
                         target, "drop", "Write the launch post\nwith screenshots")
        assert placeholder == "Adding Write the launch post\nwith screenshots…"
        want = ["Drag between columns", "Insertion indicator", "Write the launch post", "Drop placeholder"]
        for d in (a, b):
            wait(d, lambda d: titles(d, "sprint", "doing") == want, message=f"{titles(d, 'sprint', 'doing')}")
        wait(a, lambda d: js(d, "return document.querySelector('.drop-placeholder')") is None)
        assert js(a, f"""return [...{column('sprint')}.state.elements.values()].find(e => e.content.title === 'Write the launch post')
                          .content.note""") == "Write the launch post\nwith screenshots"
        # Text over a folder goes into it.
        # (The pointer stays over the folder while it may still be sliding down: hover again each poll.)
        archive = card(b, "sprint", "Archive")
        wait(b, lambda d: js(d, DRAG + "drag(arguments[0], 'dragover', 'a note'); return window.__board.drags.external?.proposal?.intent",
                             archive) == "insertIntoDestinationIndexPath")
        js(b, EXTERNAL_DRAG, archive, "drop", "a note")
        for d in (a, b):
            wait(d, lambda d: card(d, "sprint", "Archive").find_element(By.CSS_SELECTOR, ".badge").text == "1")
    finally:
        a.quit()
        b.quit()


def test_text_dropped_on_the_photos_becomes_a_photo(server):
    d = browser(1000, 700)
    try:
        d.get(server.url)
        wait(d, lambda d: js(d, "return !!document.querySelector('[data-item=p2]:not([hidden])')"))
        target = d.find_element(By.CSS_SELECTOR, "[data-item=p2]")
        js(d, EXTERNAL_DRAG, target, "dragover", "https://example.org/pictures/sunset")
        wait(d, lambda d: js(d, "return window.__collection.drags.external?.proposal?.operation") == "copy")
        js(d, EXTERNAL_DRAG, target, "drop", "https://example.org/pictures/sunset")
        wait(d, lambda d: js(d, "return window.__collection.state.order[0][1]") not in ("p2", "p1"), message="no new photo")
        new = js(d, "return window.__collection.state.order[0][1]")
        wait(d, lambda d: js(d, "return window.__collection.state.elements.get('i:' + arguments[0])?.content.title", new)
             == "https://example.org/pictures/sunset")
    finally:
        d.quit()


# DRAG with a link (text/uri-list) instead of text.
LINK_DRAG = DRAG + "return drag(arguments[0], arguments[1], arguments[2], 'text/uri-list');"


def test_dropped_markup_and_script_links_stay_inert(server):
    """Content is plain text: dropped HTML is shown as its text, and a javascript: link never comes in."""
    d = browser(1000, 700)
    try:
        d.get(server.url)
        wait(d, lambda d: js(d, "return !!document.querySelector('[data-item=p2]:not([hidden])')"))
        target = d.find_element(By.CSS_SELECTOR, "[data-item=p2]")
        markup = '<img src=x onerror="window.__pwned = 1"><b>bold</b>'
        js(d, EXTERNAL_DRAG, target, "dragover", markup)
        wait(d, lambda d: js(d, "return window.__collection.drags.external?.proposal?.operation") == "copy")
        js(d, EXTERNAL_DRAG, target, "drop", markup)
        wait(d, lambda d: js(d, "return window.__collection.state.order[0][1]") not in ("p2", "p1"), message="no new photo")
        new = js(d, "return window.__collection.state.order[0][1]")
        wait(d, lambda d: js(d, "return document.querySelector(`[data-item='${arguments[0]}'] [data-field=title]`)?.textContent", new) == markup)
        # Shown as text: no element was made from it, and its handler never ran.
        assert js(d, "return document.querySelectorAll('#scroller img, #scroller b').length") == 0
        # A javascript: link is refused by the server: nothing is added, nothing runs.
        count = js(d, "return window.__collection.state.sections[0].count")
        seq = js(d, "return window.__collection.state.seq")
        js(d, LINK_DRAG, target, "dragover", "javascript:window.__pwned = 2")
        js(d, LINK_DRAG, target, "drop", "javascript:window.__pwned = 2")
        wait(d, lambda d: js(d, "return document.querySelector('.drop-placeholder')") is None, message="placeholder stayed")
        time.sleep(0.5)   # time for a batch, had one been sent
        assert js(d, "return window.__collection.state.sections[0].count") == count
        assert js(d, "return window.__collection.state.seq") == seq
        assert js(d, "return document.querySelectorAll('a[href^=\"javascript\" i]').length") == 0
        assert js(d, "return window.__pwned === undefined")
    finally:
        d.quit()


def test_recycled_cells_are_not_shown(server):
    """A cell node waiting for reuse is hidden by its computed style, whatever its
    template's own display (the board's cards are flex). Checked on the style, not the
    attribute: the attribute alone once left a card over the Bugs header."""
    d = open_board(server)
    try:
        # Move two backlog cards to the sprint: their backlog nodes are recycled.
        for k in range(2):
            js(d, f"""const backlog = {column('backlog')}, sprint = {column('sprint')};
                const id = backlog.state.order.flat().find(i => backlog.state.elements.get('i:' + i)?.content.kind === 'card');
                sprint.send({{type: 'drop', op: 'recycle-{k}', x: 40, y: 40, source: {{collection: 'backlog', item: id}}}});""")
            wait(d, lambda d: js(d, "return window.__board.columns.map(c => c.state.seq).join()") == f"{k + 1},{k + 1}")
        recycled = """return [...document.querySelectorAll('.content [data-reuse]')].map(n => ({
            key: n.dataset.key ?? null, hidden: n.hidden, display: getComputedStyle(n).display})).filter(n => n.key === null)"""
        # Once the slides and fades finish (however long a busy machine takes), every
        # recycled node is out of sight.
        wait(d, lambda d: js(d, recycled) and all(n["display"] == "none" for n in js(d, recycled)),
             message=f"recycled cells still shown, or none recycled: {js(d, recycled)}")
    finally:
        d.quit()


def item_id(d, name, title):
    return js(d, f"return [...{column(name)}.state.elements.values()].find(e => e.content.title === arguments[0])?.key.slice(2)", title)


def test_a_drag_carries_the_viewers_selection_as_the_drag_delegate_says(server):
    a, b = open_board(server), open_board(server, 420, 900)
    try:
        # Ana selects two backlog cards, then drags one of them: the drag session carries both.
        extra = item_id(a, "backlog", "Offline reading list")
        js(a, f"{column('backlog')}.send({{type: 'select', item: arguments[0], selected: true}})", extra)
        wait(a, lambda d: js(d, f"return {column('backlog')}.state.mySelection().includes(arguments[0])", extra))
        source = card(a, "backlog", "Keyboard shortcuts sheet")
        target = card(a, "sprint", "Insertion indicator")
        ActionChains(a, duration=60).move_to_element(source).click_and_hold().move_by_offset(20, 4).move_to_element_with_offset(target, 0, -12).perform()
        wait(a, lambda d: js(d, "return window.__board.drags.session?.carried?.length") == 2, message=f"the drag session did not carry the selection: {js(a, 'const s = window.__board.drags.session; return [s?.carried, s?.id, window.__board.columns[0].state.mySelection()]')}")
        assert js(a, "return document.querySelector('.drag-ghost').dataset.count") == "2"
        assert js(a, "return window.__board.drags.session.id")
        wait(a, lambda d: js(d, "return window.__board.drags.session.proposal?.operation") == "move")
        a.save_screenshot(str(artifacts_dir() / "board-drag-two.png"))
        ActionChains(a).release().perform()
        want = ["Drag between columns", "Keyboard shortcuts sheet", "Offline reading list", "Insertion indicator", "Drop placeholder"]
        for d in (a, b):
            wait(d, lambda d: titles(d, "sprint", "doing") == want, message=f"sprint: {titles(d, 'sprint', 'doing')}")
            wait(d, lambda d: not {"Keyboard shortcuts sheet", "Offline reading list"} & set(titles(d, "backlog", "ideas")))
        # One batch each side: the two cards left the backlog together.
        assert seqs(a) == [1, 1] == seqs(b)
    finally:
        a.quit()
        b.quit()


def test_a_card_goes_to_the_other_column_by_keyboard(server):
    """M picks a card up, Right with no cell that way takes it into the sprint column
    (a drop there, as the pointer's), where the keyboard follows it; Left brings it back."""
    d = open_board(server)
    try:
        item = item_id(d, "backlog", "Keyboard shortcuts sheet")
        js(d, f"const c = {column('backlog')}; c.interaction.focus(arguments[0], true); c.scroller.focus()", item)
        ActionChains(d).send_keys("m").perform()
        wait(d, lambda d: js(d, f"return {column('backlog')}.interaction.moving?.item") == item, message="not picked up")
        ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
        wait(d, lambda d: "Keyboard shortcuts sheet" in titles(d, "sprint", "doing"), message=f"sprint: {titles(d, 'sprint', 'doing')}")
        assert "Keyboard shortcuts sheet" not in titles(d, "backlog", "ideas")
        # The keyboard went with it: the sprint's cell is focused, the backlog's move over.
        wait(d, lambda d: js(d, f"return {column('sprint')}.interaction.focusedItem") == item, message="the keyboard did not follow")
        assert js(d, "return document.activeElement === arguments[0]", d.find_element(By.CSS_SELECTOR, "collection-view[collection='sprint'] .cv-scroller"))
        assert js(d, f"return {column('backlog')}.interaction.moving") is None
        # And back, the same way.
        ActionChains(d).send_keys("m").perform()
        wait(d, lambda d: js(d, f"return {column('sprint')}.interaction.moving?.item") == item, message="not picked up in the sprint")
        ActionChains(d).send_keys(Keys.ARROW_LEFT).perform()
        wait(d, lambda d: "Keyboard shortcuts sheet" in titles(d, "backlog", "ideas"), message=f"it did not come back: {titles(d, 'backlog', 'ideas')}")
        # (At the top of the column, before its first card: not into the folder there.)
        assert titles(d, "backlog", "ideas")[0] == "Keyboard shortcuts sheet"
    finally:
        d.quit()


def test_without_the_connection_no_card_is_lifted_and_a_drag_under_way_ends(server):
    """The edge of a lost connection: a drag under way when it goes ends where it
    began, and a press-and-drag while it is down lifts nothing; each time the
    person is told why (before, the page said "Picked up …", carried the card, and
    its drop went nowhere, silently)."""
    d = open_board(server)
    try:
        js(d, "window.__refused = []; for (const v of window.__board.views) v.addEventListener('refused', e => window.__refused.push(e.detail.message))")
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Keyboard shortcuts sheet")).click_and_hold().move_by_offset(20, 4).perform()
        wait(d, lambda d: js(d, "return !!window.__board.drags.session"), message="the drag did not start")
        server.stop()
        wait(d, lambda d: js(d, "return !window.__board.drags.session && !document.querySelector('.drag-ghost, .lifted')"),
             message="the drag outlived the connection")
        wait(d, lambda d: any(m.startswith("Not connected: the drag ended") for m in js(d, "return window.__refused")),
             message=f"the end of the drag was not said: {js(d, 'return window.__refused')}")
        ActionChains(d).release().perform()
        wait(d, lambda d: js(d, "return document.body.dataset.status") == "reconnecting", message="the page did not notice")
        before = len(js(d, "return window.__refused"))
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Offline reading list")).click_and_hold() \
            .move_by_offset(20, 4).move_by_offset(0, 60).perform()
        wait(d, lambda d: len(js(d, "return window.__refused")) > before, message="a drag while down was not refused")
        assert js(d, "return window.__refused").pop().startswith("Not connected: a move needs the connection")
        assert js(d, "return !window.__board.drags.session && !document.querySelector('.drag-ghost, .lifted')"), "a card was lifted while down"
        assert "Offline reading list" not in (js(d, "return document.getElementById('announcer').textContent") or ""), "said as picked up"
        ActionChains(d).release().perform()
    finally:
        d.quit()


def test_a_drop_the_server_never_answers_loses_its_placeholder_when_the_connection_goes(server):
    """A drop sent to a server that stops answering (stopped, then killed): once the
    page sees the connection go, the drop's placeholder leaves and the person is told
    that the collection will show whether it was done (before, "Adding …" stayed)."""
    d = open_board(server)
    try:
        js(d, "window.__refused = []; for (const v of window.__board.views) v.addEventListener('refused', e => window.__refused.push(e.detail.message))")
        ActionChains(d, duration=60).move_to_element(card(d, "backlog", "Keyboard shortcuts sheet")).click_and_hold().move_by_offset(20, 4) \
            .move_to_element_with_offset(card(d, "sprint", "Insertion indicator"), 0, -12).perform()
        wait(d, lambda d: js(d, f"return {column('sprint')}.view.indicator && !{column('sprint')}.view.indicator.hidden"),
             message="no insertion indicator")
        os.kill(server.proc.pid, signal.SIGSTOP)
        try:
            ActionChains(d).release().perform()
            wait(d, lambda d: js(d, "return document.querySelectorAll('.drop-placeholder').length") == 1, message="no placeholder")
        finally:
            os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait()
        wait(d, lambda d: js(d, "return document.querySelectorAll('.drop-placeholder').length") == 0, message="the placeholder stayed")
        said = js(d, "return window.__refused")
        assert any(m.startswith("Not connected: whether") and "was dropped shows once the connection is back" in m for m in said), said
    finally:
        d.quit()


def test_on_a_phone_a_card_held_at_a_columns_bottom_edge_scrolls_it_and_lands_below(server):
    """A phone's board shows a few cards of a column at a time: a card dragged to the
    column's bottom edge (a held touch, real touch events) scrolls the column, and
    lands past what was shown when the drag began (before, the column stood still and
    a card could only go where the column already showed)."""
    from chromium import PHONE, chromium
    from test_touch import touch, drag
    d = chromium(mobile=PHONE)
    try:
        d.get(server.url + "board.html")
        wait(d, lambda d: js(d, "return window.__board.columns.every(c => c.state.me && c.view.liveCount > 0)"), message="board did not load")
        backlog = column("backlog")
        js(d, f"{backlog}.scroller.scrollIntoView({{block: 'start'}})")
        def all_titles():
            return [t for section in js(d, f"return {backlog}.state.sections.map(s => s.id)") for t in titles(d, "backlog", section)]
        first = "Dark mode for the status line"
        was = all_titles().index(first)
        r = js(d, f"const r = {backlog}.scroller.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        start = js(d, """const el = [...document.querySelectorAll("collection-view[collection=backlog] .card:not([hidden])")]
            .find(c => c.querySelector('.title')?.textContent === arguments[0]); const b = el.getBoundingClientRect();
            return [Math.round(b.x + b.width / 2), Math.round(b.y + b.height / 2)]""", first)
        touch(d, "touchStart", start)
        wait(d, lambda d: js(d, "return !!window.__board.drags.session"), message="the hold did not lift the card")
        bottom = (start[0], round(r[1] + r[3] - 8))
        drag(d, start, bottom)
        wait(d, lambda d: js(d, f"return {backlog}.scroller.scrollTop") > 200, message="the column did not scroll")
        scrolled = js(d, f"return {backlog}.scroller.scrollTop")
        drag(d, bottom, (bottom[0], bottom[1] - 20), 2)   # out of the band: the column stops
        wait(d, lambda d: js(d, "return window.__board.drags.session?.proposal?.operation") == "move", message="no proposal after scrolling")
        touch(d, "touchEnd")
        wait(d, lambda d: seqs(d)[0] == 1, message="the drop was not done")
        order = all_titles()
        assert order.index(first) >= was + 4, (scrolled, order)
    finally:
        d.quit()
