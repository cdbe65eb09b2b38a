"""Context menus (UIKit's contextMenuConfigurationForItemsAt): in the photos demo a
right-click on a photo shows the server's menu at the pointer; Move to Album ›
Mountains, chosen with the keyboard, moves it for another viewer too; the menu key
opens the focused photo's menu, and Escape closes it with nothing done."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from server_fixture import artifacts_dir
from test_two_viewers import js, wait
from test_transitions import open_photos


def section_of(d, item):
    return js(d, "return window.__collection.state.elements.get('i:' + arguments[0])?.section", item)


def menu_titles(d, selector=".cv-menu-root"):
    return js(d, f"return [...document.querySelectorAll('{selector} > .cv-menu-item')].map(n => n.textContent)")


def test_a_right_click_menu_moves_a_photo_for_everyone(server):
    ana, ben = open_photos(server), open_photos(server)
    try:
        assert section_of(ana, "p2") == 0 and section_of(ben, "p2") == 0
        cell = ana.find_element(By.CSS_SELECTOR, "#content [data-item=p2]")
        ActionChains(ana).context_click(cell).perform()
        wait(ana, lambda d: menu_titles(d), message="no menu appeared")
        assert menu_titles(ana) == ["⤒Move to Top", "Move to Album", "✕Delete"]
        assert js(ana, "return document.querySelector('.cv-menu-root .cv-menu-title').textContent") == "IMG_0002"
        # The menu sits at the pointer, over the photo.
        menu = js(ana, "const r = document.querySelector('.cv-menu-root').getBoundingClientRect(); return [r.left, r.top]")
        photo = js(ana, "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", cell)
        assert photo[0] <= menu[0] <= photo[2] and photo[1] <= menu[1] <= photo[3], (menu, photo)
        # Down to Move to Album, Right into it (its own album checked), Down to Mountains, Enter.
        focused = lambda d: js(d, "return document.activeElement.textContent")
        assert focused(ana) == "⤒Move to Top"
        ActionChains(ana).send_keys(Keys.ARROW_DOWN).perform()
        assert focused(ana) == "Move to Album"
        ActionChains(ana).send_keys(Keys.ARROW_RIGHT).perform()
        wait(ana, lambda d: menu_titles(d, ".cv-menu-sub") == ["Summer in Lisbon", "Mountains", "City Nights"])
        assert js(ana, "return document.querySelector('.cv-menu-sub [aria-checked=true]').textContent") == "Summer in Lisbon"
        ana.save_screenshot(str(artifacts_dir() / "context-menu.png"))
        ActionChains(ana).send_keys(Keys.ARROW_DOWN, Keys.ENTER).perform()
        wait(ana, lambda d: not js(d, "return !!document.querySelector('.cv-menu')"), message="the menu did not close")
        wait(ben, lambda d: section_of(d, "p2") == 1, message="Ben did not see the photo move to Mountains")
        wait(ana, lambda d: section_of(d, "p2") == 1)
        # The menu key on Ben's focused photo opens its menu; Escape closes it, changing nothing.
        js(ben, "document.getElementById('scroller').focus()")
        ActionChains(ben).send_keys(Keys.ARROW_RIGHT).perform()
        wait(ben, lambda d: js(d, "return window.__collection.view.focusedKey"), message="no photo took focus")
        focused_item = js(ben, "return window.__collection.view.focusedKey").removeprefix("i:")
        ActionChains(ben).key_down(Keys.SHIFT).send_keys(Keys.F10).key_up(Keys.SHIFT).perform()
        wait(ben, lambda d: menu_titles(d), message="Shift+F10 opened no menu")
        title = js(ben, "return document.querySelector('.cv-menu-root .cv-menu-title').textContent")
        assert title == js(ben, "return window.__collection.state.elements.get('i:' + arguments[0]).content.title", focused_item)
        seq = js(ben, "return window.__collection.state.seq")
        ActionChains(ben).send_keys(Keys.ESCAPE).perform()
        wait(ben, lambda d: not js(d, "return !!document.querySelector('.cv-menu')"), message="Escape did not close the menu")
        assert js(ben, "return document.activeElement.id") == "scroller"
        assert js(ben, "return window.__collection.state.seq") == seq
    finally:
        ana.quit()
        ben.quit()
