"""Self-sizing in the list layout: the page measures each configured row's text
and reports it; the server lays out again and sends the shifts; the row at the
top of the viewport stays put (scroll anchoring); nothing is reported twice."""
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from server_fixture import Server, artifacts_dir
from test_two_viewers import browser, js, wait

# Counts `measure` messages and records, for every window that moves the scroll
# position, where the top row was on screen before and after.
HOOKS = """
const {state, connection} = window.__collection;
window.__measures = 0;
const send = connection.send.bind(connection);
connection.send = (m) => { if (m.type === 'measure') window.__measures++; return send(m); };
window.__anchors = [];
const apply = state.apply.bind(state);
state.apply = (m) => {
  if (m.type !== 'window' || !m.offset) return apply(m);
  const scroller = document.getElementById('scroller');
  const top = scroller.scrollTop;
  const rows = [...state.elements.values()].filter(e => e.kind === 'cell' && e.frame[1] + e.frame[3] > top)
    .sort((a, b) => a.frame[1] - b.frame[1]);
  const anchor = rows[0];
  const before = anchor.frame[1] - top;
  const change = apply(m);
  const after = state.elements.get(anchor.key).frame[1] - m.offset.y;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const node = document.querySelector(`[data-key='${anchor.key}']`);
    const onScreen = node.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    window.__anchors.push({key: anchor.key, before, after, onScreen, moved: m.offset.y - top});
  }));
  return change;
};
"""


@pytest.fixture
def page():
    server = Server("--demo", "photos")
    driver = browser(420, 800)
    try:
        driver.get(server.url)
        wait(driver, lambda d: js(d, "return document.body.dataset.status") == "connected", message="page did not connect")
        js(driver, HOOKS)
        yield driver
    finally:
        driver.quit()
        server.stop()


def rows(driver):
    return js(driver, """return [...window.__collection.state.elements.values()].filter(e => e.kind === 'cell')
        .sort((a, b) => a.section - b.section || a.item - b.item).map(e => ({key: e.key, frame: e.frame, note: e.content.note || ''}))""")


def test_rows_size_to_their_text_and_the_top_row_stays_put(page):
    d = page
    # (At a phone's width the layout menu is the one layout control.)
    Select(d.find_element(By.ID, "layout-mode")).select_by_value("list")
    # p5 has a caption two lines long at this width: its row grows from the 64-point estimate.
    wait(d, lambda d: next(r for r in rows(d) if r["key"] == "i:p5")["frame"][3] > 64, message="p5 was not sized to its text")
    # Settled: every row drawn at the height its frame says, each caption inside its
    # row (the measures the client sends, and their answers, come one batch after
    # another; on a busy machine later than any fixed pause).
    drawn = """return arguments[0].every(r => {
        const n = document.querySelector(`[data-key='${r.key}']`), box = n.getBoundingClientRect();
        return Math.abs(box.height - r.frame[3]) < 0.5 && (!r.note || n.querySelector('.note').getBoundingClientRect().bottom <= box.bottom + 0.5);
    })"""
    wait(d, lambda d: js(d, drawn, rows(d)), message="the rows were not drawn at their frames' heights, their captions inside")
    settled = rows(d)
    for r in settled:
        node_height = js(d, "return document.querySelector(`[data-key='${arguments[0]}']`).getBoundingClientRect().height", r["key"])
        assert abs(node_height - r["frame"][3]) < 0.5, (r, node_height)
        if r["note"]:
            # The whole caption is inside the row.
            inside = js(d, """const n = document.querySelector(`[data-key='${arguments[0]}']`);
                return n.querySelector('.note').getBoundingClientRect().bottom <= n.getBoundingClientRect().bottom + 0.5""", r["key"])
            assert inside, r
        else:
            assert r["frame"][3] == 64, r
    # Rows follow each other without overlapping (in item order, one per line).
    for a, b in zip(settled, settled[1:]):
        if b["frame"][1] > a["frame"][1]:
            assert b["frame"][1] >= a["frame"][1] + a["frame"][3], (a, b)
    assert any(r["note"] and r["frame"][3] > 64 for r in settled)

    # No invalidation loop: once settled, nothing more is reported.
    sent = js(d, "return window.__measures")
    assert sent >= 1
    time.sleep(1.0)
    assert js(d, "return window.__measures") == sent
    assert rows(d) == settled

    # Scroll into rows never measured: rows above the top grow once measured, and
    # the server moves the scroll position so that the top row stays where it was.
    js(d, "document.getElementById('scroller').scrollTop = 3000")
    wait(d, lambda d: len(js(d, "return window.__anchors")) > 0, message="no window moved the scroll position")
    time.sleep(0.5)
    anchors = js(d, "return window.__anchors")
    for a in anchors:
        assert a["moved"] > 0, a
        assert abs(a["after"] - a["before"]) < 0.5, a
        assert abs(a["onScreen"] - a["before"]) <= 1, a
    d.save_screenshot(str(artifacts_dir() / "self-sizing-list.png"))
