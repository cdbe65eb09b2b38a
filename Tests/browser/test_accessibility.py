"""axe-core (4.12, shipped in the axe-playwright-python wheel, installed without its
dependencies by the Makefile) on every example page once its cells are in, at
desktop size (1280×800) and as a phone (390×844): no violation of any impact (the
photos page's collection once was its main landmark, a moderate finding; a collection
whose cells hold controls, the ticket board's → or the retro's votes, is a grid of
rows, since a listbox's options may hold none), and no page wider than its screen. A
failure lists each rule with its nodes. Then a ticket's controls by keyboard: no Tab
stops of their own, named with their ticket, reached by Tab from the focused cell."""
import importlib.util
import json
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from chromium import chromium
from server_fixture import Server
from test_two_viewers import js, wait

AXE = Path(importlib.util.find_spec("axe_playwright_python").submodule_search_locations[0]) / "axe.min.js"
PAGES = ["", "tickets.html?name=Ana", "board.html", "together.html", "store.html", "settings.html", "retro.html", "signin.html"]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "small", "--ticket-interval", "0")
    yield s
    s.stop()


@pytest.fixture(scope="module", params=list(SIZES))
def driver(request):
    width, height = SIZES[request.param]
    if request.param == "phone":
        d = chromium(mobile={"width": width, "height": height, "pixelRatio": 2, "touch": True})
    else:
        d = chromium(width, height)
    yield d
    d.quit()


def loaded(d):
    """Every collection on the page connected and showing cells (the sign-in page has none)."""
    return js(d, """const views = [...document.querySelectorAll('collection-view')];
        const page = document.body.dataset.status;
        if (!views.length) return page === undefined || page === 'connected' ? document.readyState === 'complete' : false;
        return views.every(v => v.dataset.status === 'connected' && v.querySelector('[data-item]:not([hidden])'));""")


@pytest.mark.parametrize("page", PAGES)
def test_no_serious_or_critical_violations(server, driver, page):
    driver.get(server.url + page)
    wait(driver, loaded, timeout=15, message=f"{page or 'index'} did not load")
    js(driver, AXE.read_text())
    result = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(0, 2).join(' '))}))),
          e => done({error: String(e)}))""")
    assert not isinstance(result, dict), result
    assert not result, json.dumps(result, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("page", PAGES)
def test_no_page_is_wider_than_its_screen(server, driver, page):
    """Nothing reaches past the screen's width (the photos page's hidden labels in its
    sideways-scrolling toolbar once made it 506 px wide on a 390 px phone, and its
    offline banner, centred on that width, fell off the screen)."""
    driver.get(server.url + page)
    wait(driver, loaded, timeout=15, message=f"{page or 'index'} did not load")
    screen, page_width = js(driver, "return [document.documentElement.clientWidth, document.documentElement.scrollWidth]")
    assert page_width <= screen, f"{page or 'index'} is {page_width} px wide on a {screen} px screen"


def test_a_tickets_controls_are_named_with_it_and_reached_from_its_cell(server, driver):
    driver.get(server.url + "tickets.html?name=Ana")
    wait(driver, loaded, timeout=15)
    item = js(driver, "return window.__tickets.state.order[0][0]")
    title = js(driver, "return window.__tickets.state.elements.get('i:' + arguments[0]).content.title", item)
    button = f"#tickets [data-item='{item}'] button[data-action='advance']"
    # Cells with controls: rows of a grid, their content a gridcell.
    assert js(driver, "return document.querySelector('#tickets .cv-scroller').getAttribute('role')") == "grid"
    assert js(driver, f"return document.querySelector(\"#tickets [data-item='{item}']\").getAttribute('role')") == "row"
    assert js(driver, f"return document.querySelector(\"{button}\").closest('[role=gridcell]') !== null")
    # Not a Tab stop of its own, and named with its ticket.
    assert js(driver, f"return document.querySelector(\"{button}\").tabIndex") == -1
    assert js(driver, f"return document.querySelector(\"{button}\").getAttribute('aria-label')") == f"Move to the next column, {title}"
    js(driver, "window.__tickets.live.interaction.focus(arguments[0], true); document.querySelector('#tickets .cv-scroller').focus()", item)
    js(driver, "window.__results = []; document.getElementById('tickets').addEventListener('actionresult', e => window.__results.push(e.detail))")
    column = js(driver, "const s = window.__tickets.state; return s.order.findIndex(c => c.includes(arguments[0]))", item)
    # Tab: into the ticket's button; Escape: back to the ticket.
    ActionChains(driver).send_keys(Keys.TAB).perform()
    assert js(driver, "return document.activeElement.matches(arguments[0])", button)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    assert js(driver, "return document.activeElement.classList.contains('cv-scroller')")
    # Tab, then Enter: the action is done, for that ticket.
    ActionChains(driver).send_keys(Keys.TAB, Keys.ENTER).perform()
    wait(driver, lambda d: len(js(d, "return window.__results")) == 1, message="the button's action was not sent")
    assert js(driver, "return window.__results[0]")["item"] == item
    wait(driver, lambda d: js(d, "const s = window.__tickets.state; return s.order.findIndex(c => c.includes(arguments[0]))", item) == column + 1)
    # M picks her own ticket up: it looks picked up (a dashed outline), not merely
    # focused; Escape puts it down.
    mine = js(driver, "return document.querySelector(\"#tickets .ticket[data-owner='Ana']:not([hidden])\").dataset.item")
    cell = f"#tickets [data-item='{mine}']"
    js(driver, "window.__tickets.live.interaction.focus(arguments[0], true); document.querySelector('#tickets .cv-scroller').focus()", mine)
    assert js(driver, "return getComputedStyle(document.querySelector(arguments[0])).outlineStyle", cell) != "dashed"
    ring = js(driver, "return getComputedStyle(document.querySelector(arguments[0])).boxShadow", cell)
    ActionChains(driver).send_keys("m").perform()
    wait(driver, lambda d: js(d, "return document.querySelector(arguments[0]).classList.contains('picked')", cell), message="not marked picked up")
    assert js(driver, "return getComputedStyle(document.querySelector(arguments[0])).outlineStyle", cell) == "dashed"
    # The focus ring gives way: drawn where the outline is, in its colour, it hid the dashes.
    assert js(driver, "return getComputedStyle(document.querySelector(arguments[0])).boxShadow", cell) != ring
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait(driver, lambda d: not js(d, "return document.querySelector(arguments[0]).classList.contains('picked')", cell), message="still picked up")
