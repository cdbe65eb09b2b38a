"""Headless Chromium for the browser tests, kept for the next test.

Starting Chromium takes about half a second, and the suite asked for a hundred of them:
a third of its time. A browser a test quits goes back to a pool instead, for the next
test that asks for the same options, unless something it did could reach that test:
anything done through the DevTools protocol (emulated media, scripts added to every
document, touches), a window resized or opened, an alert left open. Before it is handed
out again it shows `about:blank` (the last page unloads and closes its sockets), has no
cookies (they are per host, not per port, and every test's server is 127.0.0.1) and no
cache, and no key or button held. (The last page may wait in the back-forward cache,
frozen: the client closes its socket when a page is hidden, test_leaving.py.)"""
import atexit
import json

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains

ARGUMENTS = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]

# A phone's screen with touch (ChromeDriver's deviceMetrics), for `chromium(mobile=PHONE)`.
PHONE = {"width": 390, "height": 844, "pixelRatio": 2, "touch": True}

_pool: dict[str, list["PooledChrome"]] = {}


class PooledChrome(webdriver.Chrome):
    """A Chromium whose `quit()` hands it back to the pool when nothing it did outlives the test."""

    _key = ""
    _reusable = True
    _pooled = False

    def execute_cdp_cmd(self, cmd, cmd_args):
        self._reusable = False
        return super().execute_cdp_cmd(cmd, cmd_args)

    def set_window_size(self, *args, **kwargs):
        self._reusable = False
        return super().set_window_size(*args, **kwargs)

    def set_window_rect(self, *args, **kwargs):
        self._reusable = False
        return super().set_window_rect(*args, **kwargs)

    def quit(self):
        if self._pooled:
            return
        if self._reusable and self._reset():
            self._pooled = True
            _pool.setdefault(self._key, []).append(self)
            return
        super().quit()

    def _reset(self):
        try:
            if len(self.window_handles) != 1:
                return False
            ActionChains(self).reset_actions()
            self.get("about:blank")   # fails while an alert is open
            webdriver.Chrome.execute_cdp_cmd(self, "Network.clearBrowserCookies", {})
            webdriver.Chrome.execute_cdp_cmd(self, "Network.clearBrowserCache", {})
            return self.execute_script("return location.href") == "about:blank"
        except Exception:
            return False


def chromium(width=None, height=None, mobile=None, init_script=None):
    """A headless Chromium: a window of `width` × `height`, or a phone's screen
    (`mobile`: ChromeDriver's `deviceMetrics`); `init_script` runs in every document."""
    key = json.dumps([width, height, mobile, init_script])
    if _pool.get(key):
        driver = _pool[key].pop()
        driver._pooled = False
        return driver
    options = webdriver.ChromeOptions()
    for argument in ARGUMENTS:
        options.add_argument(argument)
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": mobile})
    else:
        options.add_argument(f"--window-size={width},{height}")
    driver = PooledChrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver._key = key
    if init_script:
        webdriver.Chrome.execute_cdp_cmd(driver, "Page.addScriptToEvaluateOnNewDocument", {"source": init_script})
    return driver


@atexit.register
def _quit_pooled():
    for drivers in _pool.values():
        for driver in drivers:
            try:
                webdriver.Chrome.quit(driver)
            except Exception:
                pass
    _pool.clear()
