"""<collection-view> as a page author uses it: several to a page with the page's own
templates, its events (select, move, action), its methods (scrollToItem, selectItem),
and app actions (a cell's data-action button) reaching the server's delegate, which
moves the ticket for everyone."""
from selenium.webdriver.common.by import By

from server_fixture import artifacts_dir
from test_two_viewers import browser, js, wait


RECORD = """window.__events = [];
for (const view of document.querySelectorAll('collection-view'))
  for (const type of ['select', 'move', 'action', 'actionresult'])
    view.addEventListener(type, (e) => window.__events.push({type, collection: view.getAttribute('collection'), ...e.detail}));"""


def open_tickets(server, name):
    d = browser(900, 900)
    d.get(server.url + f"tickets.html?name={name}")
    wait(d, lambda d: js(d, "const v = document.getElementById('tickets'); return v.dataset.status === 'connected' && v.state?.seq >= 1 && !!document.querySelector('#tickets [data-item=\"1\"]')"),
         message="tickets did not load")
    js(d, RECORD)
    return d


def section_of(d, item):
    """The section the page holds the item in (from the order the component mirrors)."""
    return js(d, "const s = document.getElementById('tickets').state; return s.order.findIndex(ids => ids.includes(arguments[0]))", item)


def test_an_action_button_reaches_the_app_which_moves_the_ticket_for_everyone(server):
    ana, ben = open_tickets(server, "Ana"), open_tickets(server, "Ben")
    try:
        assert section_of(ana, "1") == 0 and section_of(ben, "1") == 0
        ben.find_element(By.CSS_SELECTOR, "#tickets [data-item='1'] button[data-action='advance']").click()
        # The server's delegate moves ticket 1 from "To do" to "Doing": both pages follow.
        wait(ana, lambda d: section_of(d, "1") == 1, message="ticket 1 did not move on Ana's page")
        wait(ben, lambda d: section_of(d, "1") == 1, message="ticket 1 did not move on Ben's page")
        # The click was the button's: it did not select the ticket.
        assert "selected" not in ben.find_element(By.CSS_SELECTOR, "#tickets [data-item='1']").get_attribute("class")
        actions = [e for e in js(ben, "return window.__events") if e["type"] == "action"]
        assert [(a["name"], a["item"]) for a in actions] == [("advance", "1")]
        # Everyone hears the move as a `move` event, made by the server.
        wait(ana, lambda d: any(e["type"] == "move" for e in js(d, "return window.__events")))
        move = next(e for e in js(ana, "return window.__events") if e["type"] == "move")
        assert move["by"] == "server" and move["mine"] is False and move["moves"][0]["item"] == "1"
        ana.save_screenshot(str(artifacts_dir() / "tickets-after-action.png"))
    finally:
        ana.quit()
        ben.quit()


def test_an_action_is_answered_and_a_refusal_is_said(server):
    ana = open_tickets(server, "Ana")
    try:
        # Ticket 5 is done: advancing it is refused, and the page says why.
        ana.find_element(By.CSS_SELECTOR, "#tickets [data-item='5'] button[data-action='advance']").click()
        wait(ana, lambda d: any(e["type"] == "actionresult" for e in js(d, "return window.__events")), message="no answer")
        answer = next(e for e in js(ana, "return window.__events") if e["type"] == "actionresult")
        assert answer["name"] == "advance" and answer["item"] == "5" and answer["status"] == "refused", answer
        assert answer["message"] == "“Ship 2.3” is done already"
        # Said by the element's notice (role status), once.
        wait(ana, lambda d: js(d, "const n = document.querySelector('#tickets .cv-notice'); return !n.hidden && n.getAttribute('role') === 'status' && n.textContent")
             == "Not done: “Ship 2.3” is done already", message="the refusal was not said")
        assert "Ship 2.3" not in js(ana, "return document.querySelector('#tickets .cv-announcer').textContent")
        # Ticket 3 advances: done, with the column it went to.
        ana.find_element(By.CSS_SELECTOR, "#tickets [data-item='3'] button[data-action='advance']").click()
        wait(ana, lambda d: len([e for e in js(d, "return window.__events") if e["type"] == "actionresult"]) == 2)
        done = [e for e in js(ana, "return window.__events") if e["type"] == "actionresult"][1]
        assert done["status"] == "done" and done["value"] == {"status": "Done"}, done
        wait(ana, lambda d: section_of(d, "3") == 2, message="ticket 3 did not move")
    finally:
        ana.quit()


def test_attributes_bound_to_fields_and_a_handler_refused(server):
    ana = open_tickets(server, "Ana")
    try:
        # The ticket template binds data-owner to the owner field.
        wait(ana, lambda d: d.find_element(By.CSS_SELECTOR, "#tickets [data-item='1']").get_attribute("data-owner") == "Ana")
        assert ana.find_element(By.CSS_SELECTOR, "#tickets [data-item='2']").get_attribute("data-owner") == "Ben"
        # A handler or a URL is never bound; title and a class are.
        result = ana.execute_async_script("""const done = arguments[arguments.length - 1];
          import('/collection-view/v1/bind.js').then(({ applyBindings }) => {
            const el = document.createElement('div');
            el.className = 'card';
            el.dataset.bind = 'onclick:code href:url title:title class:state';
            applyBindings(el, { code: 'alert(1)', url: 'javascript:alert(1)', title: 'Hi', state: 'done urgent' });
            done({ onclick: el.getAttribute('onclick'), href: el.getAttribute('href'), title: el.title, classes: el.className });
          });""")
        assert result == {"onclick": None, "href": None, "title": "Hi", "classes": "card done urgent"}, result
    finally:
        ana.quit()


def test_select_events_and_select_item(server):
    ana, ben = open_tickets(server, "Ana"), open_tickets(server, "Ben")
    try:
        ana.find_element(By.CSS_SELECTOR, "#tickets [data-item='3'] .title").click()
        wait(ben, lambda d: any(e["type"] == "select" for e in js(d, "return window.__events")), message="no select event")
        event = next(e for e in js(ben, "return window.__events") if e["type"] == "select")
        ana_id = js(ana, "return document.getElementById('tickets').viewer.id")
        assert event["items"] == ["3"] and event["selected"] is True and event["viewer"] == ana_id and event["mine"] is False
        wait(ana, lambda d: any(e["type"] == "select" and e["mine"] for e in js(d, "return window.__events")))
        # selectItem: Ben selects ticket 4 from script; Ana's page shows it as someone else's.
        js(ben, "document.getElementById('tickets').selectItem('4')")
        wait(ana, lambda d: "remote-selected" in d.find_element(By.CSS_SELECTOR, "#tickets [data-item='4']").get_attribute("class"))
        assert "selected" in ben.find_element(By.CSS_SELECTOR, "#tickets [data-item='4']").get_attribute("class").split()
    finally:
        ana.quit()
        ben.quit()


def test_two_components_on_one_page_and_scroll_to_item(server):
    d = browser(1000, 700)
    try:
        d.get(server.url + "together.html")
        wait(d, lambda d: js(d, "return [...document.querySelectorAll('collection-view')].every(v => v.dataset.status === 'connected' && v.state.seq >= 0 && v.live.view.liveCount > 0)"),
             message="the two collections did not load")
        # Each draws its own cells from the page's templates.
        assert js(d, "return document.querySelectorAll('#photos .photo:not([hidden])').length") > 0
        assert js(d, "return document.querySelectorAll('#tickets .ticket:not([hidden])').length") == 5
        assert js(d, "return document.querySelectorAll('#photos .ticket, #tickets .photo').length") == 0
        # The small demo: 3 albums of 12. The last photo is not drawn until scrolled to.
        assert js(d, "return !!document.querySelector('#photos [data-item=\"p36\"]:not([hidden])')") is False
        js(d, "document.getElementById('photos').scrollToItem('p36', 'bottom')")
        wait(d, lambda d: js(d, "return !!document.querySelector('#photos [data-item=\"p36\"]:not([hidden])')"), message="p36 not drawn")
        wait(d, lambda d: js(d, """const s = document.querySelector('#photos .cv-scroller'); const n = document.querySelector('#photos [data-item="p36"]');
            const a = s.getBoundingClientRect(), b = n.getBoundingClientRect(); return b.bottom <= a.bottom + 1 && b.top >= a.top - 1"""),
             message="p36 is not in view")
        assert js(d, "return document.querySelector('#tickets .cv-scroller').scrollTop") == 0
        d.save_screenshot(str(artifacts_dir() / "together.png"))
    finally:
        d.quit()
