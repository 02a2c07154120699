#!/usr/bin/env python3
"""Two laptops plan one trip in two real browsers (issue 28, DESIGN.md section 8).

Each home runs its own `tripsync open --no-browser --port N`; headless Chromium, driven by
Selenium through Debian's chromedriver, opens the printed URL and from then on only clicks,
types and reads what a person sees. Controls are found by their visible labels and names (the
contract: fields Title, Day, Time, Ends, Zone, Place, Note; buttons Add, Edit, Save, Delete,
Restore, Keep this, Sync now). What the page did is checked against the CLI in the same home
(`show --json`, `fingerprint`).

1. Alex adds an item by typing: Title, Day "10 Jun", Time "9:30", a Zone chosen by a place name.
2. Sync now on both: Sam's page shows it.
3. Both change its title at once (Edit, Save), Sync now: the conflict shows both values, who
   wrote each; Keep this on Sam's value; Sync now on both: one fingerprint in both homes.
4. Delete an item, then Restore it.
5. `tripsync add` in Alex's home shows on the open page without a reload within 2 s (+ margin).
6. A photo with a location uploaded with "remove the location": shown as an image; the stored
   copy has no GPS tag.
7. Members page: each laptop with its role.
8. Hostile titles show as text; no alert, no element made by them.
9. The Add form filled and submitted with the keyboard only (Tab, typing, Enter).
10. axe-core on the trips, itinerary, item, conflicts, members and attachments pages: no serious
    or critical finding. Screenshots of the itinerary and conflicts at 390 and 1280 px; no
    sideways scrolling at 320 px.

Exit 0 when every check passes, 1 with the failures listed.
"""

import argparse
import base64
import json
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Failures, Laptop, free_port  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
    from axe_selenium_python import Axe
except ImportError as error:
    print(f"webapp browser test: {error} (python3 -m pip install selenium axe-selenium-python)", file=sys.stderr)
    sys.exit(3)

TRIP_NAME = "Porto & Lisbon, June"
HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>']
LIVE_LIMIT = 2.0 + 1.5  # the contract's "about two seconds", and a margin for a loaded CI machine

# The control a visible label names: HTMLLabelElement.control (for= or wrapped), matched on the
# label's own text (the text of a wrapped select's options left out).
FIND_FIELD = """
const [name, scope] = arguments;
const root = scope || document;
function own(label) {
  let text = '';
  for (const node of label.childNodes) {
    if (node.nodeType === 3) text += node.textContent;
    else if (node.nodeType === 1 && !node.matches('input,select,textarea,datalist,button')) text += node.textContent;
  }
  return text.replace(/\\s+/g, ' ').trim();
}
const labels = [...root.querySelectorAll('label')].filter(l => l.control && l.offsetParent !== null);
return (labels.find(l => own(l) === name) || labels.find(l => own(l).startsWith(name + ' ')) || {}).control || null;
"""

# A button (or submit input, or link) whose visible name is exactly `name`.
FIND_CONTROLS = """
const [name, scope] = arguments;
const root = scope || document;
const text = e => (e.tagName === 'INPUT' ? e.value : e.textContent).replace(/\\s+/g, ' ').trim();
return [...root.querySelectorAll('button, input[type=submit], input[type=button], a[href]')]
  .filter(e => text(e) === name && e.getClientRects().length > 0);
"""


def chrome(width=1280, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--lang=en-GB", "--no-first-run"):
        options.add_argument(argument)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    return driver


class Browser:
    """One laptop's browser on its own server."""

    def __init__(self, laptop, out):
        self.laptop, self.out = laptop, out
        self.driver = chrome()
        self.itinerary_url = None

    def field(self, label, scope=None):
        element = self.driver.execute_script(FIND_FIELD, label, scope)
        if element is None:
            raise LookupError(f"{self.laptop.name}: no field labelled {label!r} on {self.driver.current_url}")
        return element

    def controls(self, name, scope=None):
        return self.driver.execute_script(FIND_CONTROLS, name, scope)

    def control(self, name, scope=None):
        found = self.controls(name, scope)
        if not found:
            raise LookupError(f"{self.laptop.name}: no visible button or link named {name!r} on {self.driver.current_url}")
        return found[0]

    def wait_loaded(self, old_html, what, timeout=20):
        def gone(_):
            # The old page's <html> is stale once the next page loaded; Chromium sometimes says so
            # as "Node ... does not belong to the document" instead of a stale element.
            try:
                old_html.is_enabled()
                return False
            except StaleElementReferenceException:
                return True
            except WebDriverException as error:
                if "does not belong to the document" in str(error):
                    return True
                raise
        try:
            WebDriverWait(self.driver, timeout).until(gone)
        except TimeoutException:
            raise TimeoutError(f"{self.laptop.name}: {what} led to no new page within {timeout} s") from None
        WebDriverWait(self.driver, timeout).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def retrying(self, action, tries=5):
        """Runs `action` again when the page's live update replaced the element it held."""
        for attempt in range(tries):
            try:
                return action()
            except WebDriverException as error:
                replaced = isinstance(error, StaleElementReferenceException) or "does not belong to the document" in str(error)
                if not replaced or attempt == tries - 1:
                    raise
                time.sleep(0.2)

    def press(self, name, scope=None, find=None):
        """Clicks the control named `name` (or the one `find` returns, found again should a live
        update replace it) and waits for the page it leads to (POST, 303, GET)."""
        def click():
            element = find() if find else self.control(name, scope)
            if element is None:
                raise LookupError(f"{self.laptop.name}: no {name!r} to press on {self.driver.current_url}")
            old = self.driver.find_element(By.TAG_NAME, "html")
            element.click()
            return old
        old = self.retrying(click)
        self.accept_confirm()
        self.wait_loaded(old, f"pressing {name!r}")

    def accept_confirm(self):
        try:
            self.driver.switch_to.alert.accept()
        except NoAlertPresentException:
            pass

    def go(self, url):
        self.driver.get(url)
        if url.startswith("file://"):
            # The sign-in page sends the browser on to the server by itself (a meta refresh).
            WebDriverWait(self.driver, 20).until(lambda d: d.current_url.startswith("http://"))
        WebDriverWait(self.driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def follow(self, predicate, what):
        """Clicks the first visible link whose text satisfies `predicate`."""
        return self.retrying(lambda: self._follow(predicate, what))

    def _follow(self, predicate, what):
        for link in self.driver.find_elements(By.CSS_SELECTOR, "a[href]"):
            text = " ".join(link.text.split())
            if link.is_displayed() and predicate(text):
                href = link.get_attribute("href") or ""
                if "#" in href and href.split("#")[0] == self.driver.current_url.split("#")[0]:
                    link.click()  # a part of this page (conflicts or deleted items as a section)
                    return
                old = self.driver.find_element(By.TAG_NAME, "html")
                link.click()
                self.wait_loaded(old, f"the link {text!r}")
                return
        raise LookupError(f"{self.laptop.name}: no link to {what} on {self.driver.current_url}")

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def open_trip(self, url):
        self.go(url)
        if self.itinerary_url is None:
            self.follow(lambda t: TRIP_NAME in t, f"the trip {TRIP_NAME!r}")
            self.itinerary_url = self.driver.current_url
        else:
            self.go(self.itinerary_url)

    def itinerary(self):
        self.go(self.itinerary_url)

    def open_item(self, title):
        self.itinerary()
        self.follow(lambda t: t == title, f"the item {title!r}")

    def add_form(self):
        """The form holding the Add button; follows a link named Add first where the itinerary has one."""
        buttons = [b for b in self.controls("Add") if b.tag_name != "a"]
        if not buttons:
            self.press("Add")
            buttons = [b for b in self.controls("Add") if b.tag_name != "a"]
        if not buttons:
            raise LookupError(f"{self.laptop.name}: no Add button on {self.driver.current_url}")
        return buttons[0], self.driver.execute_script("return arguments[0].form", buttons[0])

    def type_into(self, element, text):
        if element.get_attribute("type") == "date":
            raise AssertionError("the Day field is a date picker only; the contract wants typed text such as '10 Jun' accepted")
        element.clear()
        element.send_keys(text)

    def choose_zone(self, form, place):
        zone = self.field("Zone", form)
        if zone.tag_name == "select":
            for option in zone.find_elements(By.TAG_NAME, "option"):
                if place in option.text:
                    option.click()
                    return option.text
            raise LookupError(f"no Zone option names {place!r}")
        zone.clear()
        zone.send_keys(place)
        return place

    def keep_this_button(self, value, other):
        """The Keep this button that sits with `value` (in the nearest element holding it that
        does not also hold `other`), or None."""
        return self.driver.execute_script("""
            const [value, other] = arguments;
            const text = e => e.textContent.replace(/\\s+/g, ' ');
            for (const button of document.querySelectorAll('button, input[type=submit]')) {
              const name = (button.tagName === 'INPUT' ? button.value : button.textContent).replace(/\\s+/g, ' ').trim();
              if (name !== 'Keep this') continue;
              for (let e = button.parentElement; e; e = e.parentElement) {
                if (text(e).includes(other)) break;
                if (text(e).includes(value)) return button;
              }
            }
            return null;""", value, other)

    def sync_now(self):
        self.press("Sync now")

    def wait_for_text(self, text, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.text():
                return True
            time.sleep(0.1)
        return text in self.text()

    def screenshot(self, path, width, section=None):
        """The whole page at `width` CSS pixels (or only the element `section` names, a part of it)."""
        driver = self.driver
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
        time.sleep(0.3)
        height = driver.execute_script("return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": min(int(height), 6000), "deviceScaleFactor": 1, "mobile": width < 600})
        time.sleep(0.3)
        options = {"format": "png", "captureBeyondViewport": True}
        if section:
            box = driver.execute_script(
                "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};", section)
            pad = 8
            options["clip"] = {"x": max(0, box["x"] - pad), "y": max(0, box["y"] - pad),
                               "width": box["width"] + 2 * pad, "height": box["height"] + 2 * pad, "scale": 1}
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", options)
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))
        sideways = driver.execute_script("return document.documentElement.scrollWidth")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return sideways

    def overflow_at(self, width):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
        time.sleep(0.3)
        wide = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return wide

    def quit(self):
        self.driver.quit()


class Suite:
    def __init__(self, alex, sam, out, screenshots):
        self.alex, self.sam, self.out, self.shots = alex, sam, out, screenshots
        self.c = Failures()
        self.a = self.b = None
        self.jo = self.jb = None
        self.axe_pages = {}
        self.added = "Ribeira boat tour"
        self.alex_title, self.sam_title = "Ribeira boat tour at ten", "Ribeira cruise, six bridges"

    # -- 0: servers and browsers ---------------------------------------------------------------

    def start(self):
        self.a_url = self.alex.open(free_port())
        self.b_url = self.sam.open(free_port())
        self.a, self.b = Browser(self.alex, self.out), Browser(self.sam, self.out)
        self.a.open_trip(self.a_url)
        self.b.open_trip(self.b_url)
        for browser in (self.a, self.b):
            cookies = browser.driver.get_cookies()
            self.c.expect(cookies and all(c.get("httpOnly") for c in cookies),
                          f"{browser.laptop.name}: the session cookie is HttpOnly ({cookies})")
            self.c.expect(cookies and all(c.get("sameSite") == "Strict" for c in cookies),
                          f"{browser.laptop.name}: the session cookie is SameSite=Strict")
            # Host-only on the home's own name: no other port of 127.0.0.1, no other home, gets it.
            server = browser.laptop.server
            self.c.expect(cookies and all(c.get("domain") == server.host for c in cookies),
                          f"{browser.laptop.name}: the session cookie belongs to {server.host} alone ({[c.get('domain') for c in cookies]})")
            self.c.expect(browser.driver.current_url.startswith(server.url),
                          f"{browser.laptop.name}: the sign-in page led to {server.url} ({browser.driver.current_url})")
        self.c.expect(self.alex.server.host != self.sam.server.host, "each home has a host name of its own")
        self.axe_pages["trips"] = self.alex.server.url  # the printed address leads to the trips (checked in axe step via a fresh load)
        self.axe_pages["itinerary"] = self.a.itinerary_url

    def cookie_stays_home(self):
        """A page on another port of 127.0.0.1 (a dev server, another user's server) gets no
        TripSync cookie: the cookie belongs to the home's own LABEL.localhost (issue 42)."""
        import http.server
        seen = []

        class Recorder(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append(self.headers.get("Cookie") or "")
                body = b"<!DOCTYPE html><title>another local page</title><p>another local page</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            port = other.server_address[1]
            for url in (f"http://127.0.0.1:{port}/", f"http://localhost:{port}/"):
                self.a.go(url)
            self.c.expect(len(seen) >= 2, f"the other local page was visited ({len(seen)} requests)")
            self.c.expect(not any("tripsync" in cookie for cookie in seen),
                          f"a page on another port of 127.0.0.1 received no TripSync cookie ({seen})")
        finally:
            other.shutdown()
            other.server_close()

    # -- 1: add by typing ----------------------------------------------------------------------

    def add_by_typing(self):
        a, c = self.a, self.c
        a.itinerary()
        button, form = a.add_form()
        for label in ("Title", "Day", "Time", "Ends", "Zone", "Place", "Note"):
            try:
                a.field(label, form)
                c.expect(True, "")
            except LookupError:
                c.expect(False, f"the Add form has a field labelled {label}")
        a.field("Title", form).send_keys(self.added)
        day = a.field("Day", form)
        a.type_into(day, "10 Jun")
        a.type_into(a.field("Time", form), "9:30")
        chosen = a.choose_zone(form, "Madrid")
        a.field("Place", form).send_keys("Cais da Ribeira")
        a.press("Add", find=lambda: a.add_form()[0])
        item = self.alex.item(self.added)
        if c.expect(item is not None, f"Add made the item {self.added!r} in Alex's home"):
            start = item.get("start") or {}
            c.expect(start.get("local", "").endswith("-06-10T09:30"), f"'10 Jun' '9:30' became June 10, 09:30 ({start})")
            c.expect(start.get("zone") == "Europe/Madrid", f"the zone chosen by 'Madrid' ({chosen!r}) is Europe/Madrid ({start.get('zone')})")
            c.expect(item.get("place") == "Cais da Ribeira", f"Place saved ({item.get('place')!r})")
        a.itinerary()
        c.expect(self.added in a.text(), "the itinerary shows the added item")

    # -- 2: sync between laptops ---------------------------------------------------------------

    def sync_across(self):
        a, b, c = self.a, self.b, self.c
        a.itinerary()
        a.sync_now()
        b.itinerary()
        b.sync_now()
        c.expect(b.wait_for_text(self.added, 5), "after Sync now on both, Sam's page shows Alex's item")
        c.expect(self.sam.item(self.added) is not None, "Sam's home holds the item")

    # -- 3: a conflict, kept, converged -------------------------------------------------------

    def conflict(self):
        a, b, c = self.a, self.b, self.c
        forms = []
        for browser, title in ((a, self.alex_title), (b, self.sam_title)):
            browser.open_item(self.added)
            self.axe_pages.setdefault("item", browser.driver.current_url)
            browser.press("Edit") if browser.controls("Edit") else None
            field = browser.field("Title")
            field.clear()
            field.send_keys(title)
            forms.append((browser, lambda browser=browser: browser.control("Save")))
        # Both Save at once, so neither laptop's automatic sync brings the other's title first.
        errors = []

        def save(browser, find):
            try:
                browser.press("Save", find=find)
            except Exception as error:  # reported below
                errors.append(error)
        threads = [threading.Thread(target=save, args=pair) for pair in forms]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        for browser in (a, b, a):
            browser.itinerary()
            browser.sync_now()
        conflicts = json.loads(self.alex.cli("conflicts", "--json"))
        c.expect(self.alex_title in json.dumps(conflicts) and self.sam_title in json.dumps(conflicts),
                 "the CLI sees the title conflict (both values)")
        a.itinerary()
        self.shot(a, "itinerary")
        a.follow(lambda t: "conflict" in t.lower(), "the conflicts page")
        self.axe_pages["conflicts"] = a.driver.current_url
        text = a.text()
        for value in (self.alex_title, self.sam_title, "Alex's laptop", "Sam's laptop"):
            c.expect(value in text, f"the conflicts page shows {value!r}")
        for value, device in ((self.alex_title, "Alex's laptop"), (self.sam_title, "Sam's laptop")):
            line = next((l for l in text.splitlines() if value in l and device in l), "")
            c.expect(re.search(r"\d{1,2}:\d{2}", line), f"the conflicts page says when {device} wrote {value!r} ({line!r})")
        self.run_axe(a, "conflicts")
        fragment = a.driver.current_url.partition("#")[2]
        self.shot(a, "conflicts", f"#{fragment}" if fragment else None)
        def keep():
            return a.keep_this_button(self.sam_title, self.alex_title)
        if not c.expect(keep() is not None, "a Keep this button sits with Sam's value (and not with Alex's)"):
            raise LookupError("no Keep this for the value")
        a.press("Keep this", find=keep)
        for browser in (a, b, a, b):
            browser.itinerary()
            browser.sync_now()
        fa, fb = self.alex.fingerprint(), self.sam.fingerprint()
        c.expect(fa == fb, f"after Keep this and Sync now on both, one fingerprint ({fa[:12]} / {fb[:12]})")
        c.expect(self.alex.item(self.sam_title) is not None and self.sam.item(self.sam_title) is not None,
                 "both homes hold the kept title")
        c.expect(json.loads(self.sam.cli("conflicts", "--json")) in ([], {}) or self.sam_title not in self.sam.cli("conflicts"),
                 "no conflict left on Sam's laptop")
        b.itinerary()
        c.expect(b.wait_for_text(self.sam_title, 4), "Sam's page shows the kept title")

    # -- 4: delete and restore -----------------------------------------------------------------

    def delete_restore(self):
        a, c = self.a, self.c
        title = "Livraria Lello at opening"
        a.open_item(title)
        a.press("Delete")
        c.expect(self.alex.item(title) is None, "Delete removed the item from the itinerary (CLI)")
        c.expect(title in json.dumps(self.alex.deleted()), "the item is among the deleted (CLI)")
        a.itinerary()
        c.expect(title not in self.live_text(a), "the itinerary no longer shows the deleted item among the live ones")
        restore = self.restore_button(a, title)
        if restore is None:
            a.follow(lambda t: "deleted" in t.lower(), "the deleted items")
            self.axe_pages["deleted"] = a.driver.current_url
            restore = self.restore_button(a, title)
        if not c.expect(restore is not None, f"a Restore button for {title!r} (on the itinerary or the deleted items)"):
            return
        a.press("Restore", find=lambda: self.restore_button(a, title))
        c.expect(self.alex.item(title) is not None, "Restore brought the item back (CLI)")
        a.itinerary()
        c.expect(title in self.live_text(a), "the itinerary shows the restored item among the live ones")

    def live_text(self, browser):
        """The text of the itinerary's days: the section headed Itinerary (without the deleted items' part)."""
        return browser.driver.execute_script("""
            for (const h of document.querySelectorAll('h1, h2')) {
              if (h.textContent.trim() === 'Itinerary') return (h.closest('section') || h.parentElement).innerText;
            }
            return document.body.innerText;""")

    def restore_button(self, browser, title):
        return browser.driver.execute_script("""
            const title = arguments[0];
            for (const button of document.querySelectorAll('button, input[type=submit]')) {
              const name = (button.tagName === 'INPUT' ? button.value : button.textContent).replace(/\\s+/g, ' ').trim();
              if (name !== 'Restore') continue;
              for (let e = button.parentElement; e; e = e.parentElement) {
                if (e.textContent.includes(title)) return button;
              }
            }
            return null;""", title)

    # -- 3b: a form left open never writes back what others changed (issue 39) --------------

    def stale_form(self):
        a, c = self.a, self.c
        title = "Francesinha at Café Santiago"
        item = self.alex.item(title)
        if not c.expect(item is not None, f"{title!r} is in Alex's trip"):
            return
        ident = item["id"]
        # The form is open in the browser; the note changes in the terminal meanwhile.
        a.open_item(title)
        a.press("Edit")
        self.alex.cli("edit", ident, "--note", "Typed in the terminal while the form was open")
        field = a.field("Title")
        field.clear()
        field.send_keys("Francesinha at Santiago")
        a.press("Save")
        saved = self.alex.item("Francesinha at Santiago")
        c.expect(saved is not None, "Save wrote the new title (CLI)")
        c.expect(saved is not None and saved.get("note") == "Typed in the terminal while the form was open",
                 f"the note typed in the terminal while the form was open stays (got {saved and saved.get('note')!r})")
        # The same field changed in both: both values kept, Keep this on the page.
        a.press("Edit")
        self.alex.cli("edit", ident, "--note", "Closes at 23:00")
        note = a.field("Note")
        note.clear()
        note.send_keys("Booked for 20:00")
        a.press("Save")
        conflicts = self.alex.cli("conflicts", "--json")
        c.expect("Closes at 23:00" in conflicts and "Booked for 20:00" in conflicts,
                 "a note changed in the terminal and on the page while the form was open keeps both as a conflict")
        c.expect("Someone else changed Note" in a.text(), "after Save the page says someone else changed the note and both are kept")
        a.itinerary()

        def keep():
            return a.keep_this_button("Closes at 23:00", "Booked for 20:00")
        if not c.expect(keep() is not None, "the conflicts list offers Keep this on the note typed in the terminal"):
            return
        a.press("Keep this", find=keep)
        after = self.alex.item("Francesinha at Santiago")
        c.expect(after is not None and after.get("note") == "Closes at 23:00", "Keep this kept the terminal's note")
        c.expect("Booked for 20:00" not in self.alex.cli("conflicts", "--json"), "Keep this settled the note")

    # -- 5: a CLI change shows live ------------------------------------------------------------

    def live(self):
        a, c = self.a, self.c
        a.itinerary()
        a.driver.execute_script("window.__webtestNoReload = 'still here';")
        title = "Added from the terminal"
        self.alex.cli("add", title, "--day", "2027-06-12", "--at", "18:00")
        started = time.monotonic()
        seen = a.wait_for_text(title, LIVE_LIMIT + 2)
        elapsed = time.monotonic() - started
        same_page = a.driver.execute_script("return window.__webtestNoReload || null") == "still here"
        c.expect(seen, f"a `tripsync add` shows on the open itinerary (not seen within {LIVE_LIMIT + 2:.1f} s)")
        if seen:
            c.expect(elapsed <= LIVE_LIMIT, f"the CLI change showed within {LIVE_LIMIT} s (took {elapsed:.2f} s)")
            print(f"  the CLI's item appeared after {elapsed:.2f} s")
        c.expect(same_page, "it appeared without a reload (the page's own state survived)")

    # -- 6: attachment with the location removed ----------------------------------------------

    def attachment(self):
        a, c = self.a, self.c
        photo = make_photo_with_location(os.path.join(self.out, "harbour.jpg"))
        a.open_item(self.sam_title)
        upload = a.driver.find_elements(By.CSS_SELECTOR, "input[type=file]")
        if not c.expect(upload, "the item page (or its attachments) has a file field"):
            return
        form = a.driver.execute_script("return arguments[0].form", upload[0])
        # Before anything is sent, the reason is shown next to the file field (its description).
        described = a.driver.execute_script("""
            const ids = (arguments[0].getAttribute('aria-describedby') || '').split(' ');
            return ids.map(i => document.getElementById(i)).filter(e => e).map(e => e.textContent).join(' ');""", upload[0])
        c.expect("where they were taken" in described and "removes" in described,
                 f"the file field says, before the upload, that a photo's location is removed ({described!r})")
        keep = a.driver.execute_script("""
            for (const l of arguments[0].querySelectorAll('label')) {
              if (l.control && l.control.type === 'checkbox' && /keep where it was taken/i.test(l.textContent)) return l.control;
            }
            return null;""", form)
        if not c.expect(keep is not None, "the upload has a checkbox labelled 'Keep where it was taken'"):
            return
        c.expect(not keep.is_selected(), "keeping the location is not ticked by default")
        upload[0].send_keys(photo)
        a.press("Upload", find=lambda: a.driver.execute_script(
            "return document.querySelector('input[type=file]').form.querySelector('button:not([type=button]), input[type=submit]')"))
        focus_script = "const e = document.activeElement; return e ? e.className + ': ' + e.textContent : ''"
        try:  # the page goes to #attachments, which moves the focus once loaded; the script takes it back
            WebDriverWait(a.driver, 3).until(lambda d: d.execute_script(focus_script).startswith("notice"))
        except TimeoutException:
            pass
        focused = a.driver.execute_script(focus_script)
        c.expect(focused.startswith("notice") and "harbour.jpg" in focused and "location was removed" in focused,
                 f"after the upload the notice (location removed) has the keyboard focus ({focused[:160]!r})")
        listed = json.loads(self.alex.cli("attachments", "--json"))
        mine = [x for x in listed if x.get("name") == "harbour.jpg"]
        if not c.expect(mine, f"the uploaded photo is an attachment in Alex's home ({[x.get('name') for x in listed]})"):
            return
        extracted = os.path.join(self.out, "harbour-extracted.jpg")
        self.alex.cli("extract", mine[0]["id"], "-o", extracted, "--force")
        c.expect(not has_gps(extracted), "the stored photo has no location (GPS) left")
        c.expect(has_gps(photo), "(control) the photo uploaded had a location")
        # The image is shown on the item's page: an <img> that decoded.
        a.open_item(self.sam_title)
        self.axe_pages["attachments"] = a.driver.current_url  # the item's attachments, with the photo
        shown = a.driver.execute_script(
            "return [...document.images].filter(i => i.complete && i.naturalWidth > 0).length")
        c.expect(shown >= 1, "the item's page shows the photo as an image")

    # -- 12: the friend who never opens a terminal joins from the page ---------------------------

    def join_from_page(self):
        """Jo has a fresh home and no trip: on the trips page Jo pastes Alex's invite code, types
        the shared folder (a wrong path first: the field is marked), presses Join; once Alex's
        laptop syncs, the trip shows in Jo's list without a reload, and opens."""
        c = self.c
        jo = Laptop("jo", self.alex.tripsync, os.path.join(self.out, "jo"))
        jo.cli("init", "--device-name", "Jo's laptop")
        self.jo = jo
        jo.open()
        browser = Browser(jo, self.out)
        self.jb = browser
        browser.go("file://" + jo.server.login)
        code = self.alex.cli("invite", "--role", "editor").strip().splitlines()[-1]
        folder = os.path.join(self.out, "folder")
        browser.field("Invite code").send_keys(code)
        browser.field("Shared folder").send_keys(folder + "/no such folder")
        browser.press("Join")
        marked = browser.driver.execute_script(
            "return [...document.querySelectorAll('[aria-invalid=true]')].map(e => document.querySelector('label[for=\"' + e.id + '\"]').textContent)")
        c.expect(marked == ["Shared folder"], f"a folder that does not exist marks the Shared folder field alone ({marked})")
        field = browser.field("Shared folder")
        field.clear()
        field.send_keys(folder)
        c.expect(browser.field("Invite code").get_attribute("value").strip() == code, "the pasted code is kept when the form comes back")
        browser.press("Join")
        text = browser.text()
        c.expect("Asked to join" in text, f"Join says it asked to join ({text[:300]!r})")
        browser.driver.execute_script("window.__webtestNoReload = 'still here'")
        self.alex.cli("sync", folder)  # Alex's laptop admits Jo
        arrived = browser.wait_for_text(TRIP_NAME, 25)
        c.expect(arrived, f"the trip shows in Jo's trips list by itself once Alex synced ({browser.text()[:300]!r})")
        c.expect(browser.driver.execute_script("return window.__webtestNoReload || null") == "still here", "the trips list changed without a reload")
        if arrived:
            browser.follow(lambda t: TRIP_NAME in t, f"the trip {TRIP_NAME!r}")
            c.expect("Train to Porto" in browser.text(), "Jo opens the joined trip and sees its items")

    # -- 11: every wrong field at once ---------------------------------------------------------

    def wrong_fields(self):
        """An Add with three wrong fields: each marked (aria-invalid, its own message) at once, and
        the error box, which names all three, has the keyboard focus."""
        a, c = self.a, self.c
        a.itinerary()
        _, form = a.add_form()
        a.field("Title", form).send_keys("   ")  # blank to the rules; `required` lets it through
        a.field("Day", form).send_keys("31 Foo")
        a.field("Time", form).send_keys("25:99")
        a.field("Ends", form).send_keys("soon-ish")
        a.press("Add", find=lambda: a.add_form()[0])
        marked = a.driver.execute_script("""
            return [...document.querySelectorAll('#add [aria-invalid=true]')].map(e => {
              const label = document.querySelector('label[for="' + e.id + '"]');
              const said = (e.getAttribute('aria-describedby') || '').split(' ').map(i => document.getElementById(i)).filter(x => x && x.classList.contains('field-error'));
              return [label ? label.textContent : e.id, said.length ? said[0].textContent : ''];
            });""")
        names = [name for name, _ in marked]
        c.expect("Title" in names and ("Day" in names or "Time" in names),
                 f"every wrong field is marked at once, each with its message (marked: {marked})")
        c.expect(all(message for _, message in marked), f"each marked field has its own message ({marked})")
        focused = a.driver.execute_script("const e = document.activeElement; return e ? e.className + ': ' + e.textContent : ''")
        c.expect(focused.startswith("error") and "fields need a change" in focused,
                 f"the error box naming every wrong field has the keyboard focus ({focused[:200]!r})")

    # -- 7: members ----------------------------------------------------------------------------

    def members(self):
        a, c = self.a, self.c
        a.itinerary()
        a.follow(lambda t: "member" in t.lower(), "the members page")
        self.axe_pages["members"] = a.driver.current_url
        text = a.text()
        for value in ("Alex's laptop", "Sam's laptop"):
            c.expect(value in text, f"the members page names {value!r}")
        lowered = text.lower()
        c.expect("owner" in lowered and "editor" in lowered, "the members page shows the roles owner and editor")

    # -- 8: hostile titles ---------------------------------------------------------------------

    def hostile(self):
        a, c = self.a, self.c
        a.itinerary()
        text = a.text()
        for title in HOSTILE:
            c.expect(title in text, f"the hostile title {title!r} shows as text")
        try:
            alert = a.driver.switch_to.alert
            c.expect(False, f"an alert fired: {alert.text!r}")
            alert.dismiss()
        except NoAlertPresentException:
            c.expect(True, "")
        made = a.driver.execute_script("return document.querySelectorAll('img[src=\"x\"], script:not([src])').length")
        c.expect(made == 0, f"no element made by a title ({made} img[src=x] or inline script)")

    # -- 9: keyboard only ----------------------------------------------------------------------

    def keyboard(self):
        a, c = self.a, self.c
        a.itinerary()
        driver = a.driver
        title = "Typed with the keyboard"
        button, form = a.add_form()
        targets = {"Title": title, "Day": "11 Jun", "Time": "19:45", "Place": "Majestic Café"}
        fields = {label: a.field(label, form) for label in targets}
        driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        typed = set()
        for _ in range(200):
            driver.switch_to.active_element.send_keys(Keys.TAB)
            active = driver.switch_to.active_element
            for label, element in fields.items():
                if label not in typed and active == element:
                    active.send_keys(targets[label])
                    typed.add(label)
            if active == button:
                break
        c.expect(typed == set(targets), f"Tab reaches each of {sorted(targets)} (reached {sorted(typed)})")
        if not c.expect(driver.switch_to.active_element == button, "Tab reaches the Add button"):
            return
        focus = driver.execute_script("""
            const s = getComputedStyle(document.activeElement);
            return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 || s.boxShadow !== 'none';""")
        c.expect(focus, "the focused Add button shows its focus (an outline or a ring)")
        old = driver.find_element(By.TAG_NAME, "html")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        a.wait_loaded(old, "Enter on the Add button")
        item = self.alex.item(title)
        if c.expect(item is not None, "Enter on Add added the item typed with the keyboard"):
            c.expect((item.get("start") or {}).get("local", "").endswith("-06-11T19:45"), f"its day and time ({item.get('start')})")

    # -- 10: axe, screenshots, narrow screens -------------------------------------------------

    def run_axe(self, browser, name):
        axe = Axe(browser.driver)
        axe.inject()
        results = axe.run()
        bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        lines = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}" for v in bad]
        self.c.expect(not bad, f"axe on the {name} page: " + "; ".join(lines))
        minor = [f"{v['id']} ({v['impact']})" for v in results["violations"] if v not in bad]
        if minor:
            print(f"  axe on the {name} page, moderate or minor (not failing): {', '.join(minor)}")

    def axe(self):
        a = self.a
        # The trips page: the root of the server, reached by the trips link or the site root.
        a.go(a.itinerary_url)
        try:
            a.follow(lambda t: t.lower() in ("trips", "all trips", "your trips") or t.lower().startswith("trips"), "the trips page")
        except LookupError:
            a.go(a.itinerary_url.split("/", 3)[0] + "//" + a.itinerary_url.split("/", 3)[2] + "/")
        self.run_axe(a, "trips")
        for name in ("itinerary", "item", "members", "attachments", "deleted"):
            if name in self.axe_pages:
                a.go(self.axe_pages[name])
                self.run_axe(a, name)
            elif name != "deleted":
                self.c.expect(False, f"axe on the {name} page: the page was never reached")
        self.c.expect("conflicts" in self.axe_pages, "axe on the conflicts page: it was reached (checked while the conflict stood)")
        if self.jb:  # Jo's trips page with the Join form
            self.jb.go(self.jo.server.url)
            self.run_axe(self.jb, "trips and Join")

    def shot(self, browser, name, section=None):
        for width in (390, 1280):
            wide = browser.screenshot(os.path.join(self.shots, f"{name}-{width}.png"), width, section)
            self.c.expect(wide <= width + 1, f"the {name} page fits {width} px without sideways scrolling ({wide} px wide)")
        wide = browser.overflow_at(320)
        self.c.expect(wide <= 321, f"the {name} page reads at 320 px without sideways scrolling ({wide} px wide)")

    def stop(self):
        for laptop in (self.alex, self.sam):
            if laptop.server:
                code, seconds, _ = laptop.close()
                self.c.expect(code == 0, f"{laptop.name}: SIGTERM ended `tripsync open` with status 0 (got {code}, {seconds:.1f} s)")

    def run(self):
        c = self.c
        try:
            c.step("two servers, two browsers, the trip opened by its name", self.start)
            if self.a is None:
                return c.finish("browser")
            c.step("0 a page on another port of 127.0.0.1 gets no cookie", self.cookie_stays_home)
            c.step("1 add an item by typing (10 Jun, 9:30, zone by place)", self.add_by_typing)
            c.step("2 Sync now on both: the other laptop sees it", self.sync_across)
            c.step("3 the same title changed on both: conflict, Keep this, one fingerprint", self.conflict)
            c.step("3b a form left open keeps what the terminal changed; the same field keeps both", self.stale_form)
            c.step("4 delete and restore", self.delete_restore)
            c.step("5 a CLI change shows without a reload", self.live)
            c.step("6 a photo uploaded as it comes: its location removed by default, shown", self.attachment)
            c.step("7 members and roles", self.members)
            c.step("8 hostile titles stay text", self.hostile)
            c.step("9 the Add form by keyboard only", self.keyboard)
            c.step("11 every wrong field marked at once; the errors take the focus", self.wrong_fields)
            c.step("12 join from the page: paste the code, choose the folder, see the trip", self.join_from_page)
            c.step("10 axe-core on every page", self.axe)
        finally:
            for browser in (self.a, self.b, self.jb):
                if browser:
                    browser.quit()
            if self.jo and self.jo.server:
                self.jo.close()
            c.step("servers stop on SIGTERM", self.stop)
        return c.finish("browser")


def make_photo_with_location(path):
    from PIL import Image
    image = Image.new("RGB", (64, 48), (30, 110, 160))
    exif = Image.Exif()
    exif[0x010F] = "WebTest Camera"
    gps = {1: "N", 2: (41.0, 8.0, 24.0), 3: "W", 4: (8.0, 36.0, 45.0)}
    exif[0x8825] = gps
    image.save(path, "JPEG", exif=exif.tobytes())
    return path


def has_gps(path):
    from PIL import Image
    with Image.open(path) as image:
        return bool(image.getexif().get_ifd(0x8825))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tripsync", required=True)
    parser.add_argument("--alex", required=True)
    parser.add_argument("--sam", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--screenshots", required=True)
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    alex, sam = Laptop("alex", args.tripsync, args.alex), Laptop("sam", args.tripsync, args.sam)
    suite = Suite(alex, sam, args.out, args.screenshots)
    try:
        return suite.run()
    finally:
        for laptop in (alex, sam):
            if laptop.server:
                laptop.close()


if __name__ == "__main__":
    sys.exit(main())
