"""The settings page: a sidebar list with outlines (UIKit's sidebar appearance and
section snapshots). One viewer opens E-mail with its disclosure and switches Offers on;
the other sees the rows open and the checkmark, and the page names the chosen row."""
from selenium.webdriver.common.by import By

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait


def open_settings(server):
    d = browser(900, 760)
    d.get(server.url + "settings.html")
    wait(d, lambda d: js(d, "return !!document.querySelector('#settings [data-item=email]')"), message="the sidebar did not load")
    return d


def accessories(d, item):
    return js(d, "return window.__settings.state.elements.get('i:' + arguments[0])?.content.accessories ?? ''", item)


def test_a_setting_chosen_in_one_sidebar_shows_in_another(server):
    ana, ben = open_settings(server), open_settings(server)
    try:
        ana.find_element(By.CSS_SELECTOR, "#settings [data-item=email] [data-outline]").click()
        wait(ben, lambda d: js(d, "return !!document.querySelector('#settings [data-item=email-offers]')"),
             message="Ben's sidebar did not open E-mail")
        assert accessories(ben, "email-offers") == "" and accessories(ben, "email-orders") == "checkmark"
        wait(ana, lambda d: js(d, "return !!document.querySelector('#settings [data-item=email-offers]')"))
        ana.find_element(By.CSS_SELECTOR, "#settings [data-item=email-offers]").click()
        wait(ben, lambda d: accessories(d, "email-offers") == "checkmark", message="Ben did not see Offers switch on")
        wait(ana, lambda d: js(d, "return document.getElementById('detail-title').textContent") == "Offers")
        wait(ana, lambda d: js(d, "return document.getElementById('detail-text').textContent") == "On.")
        # The sidebar draws it: a header row per group, the entries' rows indented, a checkmark on.
        header = js(ana, "return getComputedStyle(document.querySelector('#settings [data-item=notifications]')).fontWeight")
        assert int(header) >= 600
        # Each level is indented further: a leaf's text starts right of its entry's disclosure.
        edge = js(ana, """const row = (id) => document.querySelector(`#settings [data-item=${id}]`);
                            return [row('email-offers').querySelector('.cv-list-primary').getBoundingClientRect().left,
                                    row('email').querySelector('[data-outline]').getBoundingClientRect().right,
                                    row('email').querySelector('.cv-list-leading').getBoundingClientRect().left,
                                    row('notifications').querySelector('.cv-list-leading').getBoundingClientRect().left]""")
        assert edge[0] > edge[1] and edge[2] - edge[3] == 20, edge
        ana.save_screenshot(str(artifacts_dir() / "settings.png"))
    finally:
        ana.quit()
        ben.quit()


def test_a_screen_reader_hears_the_outline_as_a_tree_with_its_states(server):
    """The outline is a tree: each row a treeitem with its level, whether it is open,
    its place among its siblings; a disclosure names its row; a chosen row is checked.
    E-mail, then Push, opened at once: both stay open."""
    d = open_settings(server)
    row = lambda item, name: js(d, "return document.querySelector(`#settings [data-item='${arguments[0]}']`)?.getAttribute(arguments[1])", item, name)
    try:
        assert js(d, "return document.querySelector('#settings .cv-scroller').getAttribute('role')") == "tree"
        assert [row("email", a) for a in ("role", "aria-level", "aria-expanded", "aria-posinset", "aria-setsize")] == ["treeitem", "2", "false", "1", "2"]
        assert [row("notifications", a) for a in ("aria-level", "aria-expanded")] == ["1", "true"]
        assert js(d, "return document.querySelector('#settings [data-item=push] [data-outline]').getAttribute('aria-label')") == "Expand Push"
        js(d, """const l = window.__settings.live;
                 l.send({type: 'outline', item: 'email', expanded: true}); l.send({type: 'outline', item: 'push', expanded: true});""")
        wait(d, lambda d: row("push-reminders", "aria-level") == "3" and row("email-news", "aria-level") == "3", message="both did not open")
        assert row("email", "aria-expanded") == "true" and row("push", "aria-expanded") == "true"
        assert [row("email-offers", a) for a in ("aria-posinset", "aria-setsize")] == ["2", "3"]
        # The chosen row is checked; the others say nothing of it.
        assert row("email-orders", "aria-checked") == "true" and row("email-offers", "aria-checked") is None
        assert js(d, "return document.querySelector('#settings [data-item=email] [data-outline]').getAttribute('aria-label')") == "Collapse E-mail"
    finally:
        d.quit()


def test_a_value_row_shows_its_value_at_the_trailing_edge_of_its_line(server):
    """UIKit's value cell: the Laptop row's value sits on the title's line, at the
    row's trailing edge; a subtitle row (Profile) keeps its detail under its title;
    images (the rows' symbols) are drawn."""
    d = open_settings(server)
    try:
        d.find_element(By.CSS_SELECTOR, "#settings [data-item=devices] [data-outline]").click()
        wait(d, lambda d: js(d, "return !!document.querySelector('#settings [data-item=device-laptop]')"), message="Devices did not open")
        boxes = js(d, """const box = (id, part) => document.querySelector(`#settings [data-item=${id}] ${part}`).getBoundingClientRect();
                         const row = document.querySelector('#settings [data-item=device-laptop]').getBoundingClientRect();
                         const p = box('device-laptop', '.cv-list-primary'), s = box('device-laptop', '.cv-list-secondary');
                         const pp = box('profile', '.cv-list-primary'), ps = box('profile', '.cv-list-secondary');
                         return {rowRight: row.right, p: [p.top, p.bottom, p.right], s: [s.top, s.bottom, s.left, s.right],
                                 profile: [pp.bottom, ps.top],
                                 image: document.querySelector('#settings [data-item=profile] .cv-list-image').textContent,
                                 style: document.querySelector('#settings [data-item=device-laptop]').dataset.listStyle}""")
        assert boxes["style"] == "value"
        # On the same line: the value's box overlaps the title's vertically, and starts after it.
        assert boxes["s"][0] < boxes["p"][1] and boxes["p"][0] < boxes["s"][1], boxes
        assert boxes["s"][2] >= boxes["p"][2] - 1, boxes
        # At the trailing edge (within the row's padding and accessories).
        assert boxes["rowRight"] - boxes["s"][3] < 40, boxes
        # A subtitle row's detail is under its title.
        assert boxes["profile"][1] >= boxes["profile"][0] - 1, boxes
        assert boxes["image"] == "👤"
        wait(d, lambda d: js(d, "return document.getAnimations().length === 0"), message="the rows kept animating")
        d.save_screenshot(str(artifacts_dir() / "settings-value-row.png"))
    finally:
        d.quit()
