#!/usr/bin/env python3
"""`tripsync open` asked with raw HTTP (http.client, nothing that follows redirects or keeps
cookies by itself), as a hostile page or a rebinding DNS name would ask it (issue 28, DESIGN.md
section 8 "Who may ask").

One laptop's home (a trip with items, hostile titles and HTML/SVG/JPEG attachments) served on a
random port. Checked:
- the one printed line is a loopback URL; the port is not reachable on another address;
- no cookie → 401/403 and no trip data; a wrong token, a used token, a wrong cookie → the same;
- the token becomes an HttpOnly, SameSite=Strict cookie that opens the pages;
- a foreign Host header (evil.example:PORT, another port) is refused with no trip data;
- every page: a Content-Security-Policy whose scripts exclude 'unsafe-inline', nosniff,
  frame-ancestors 'none' or X-Frame-Options, Referrer-Policy: no-referrer, no
  Access-Control-Allow-Origin (also not for a cross-site Origin), no inline script or
  on* attribute; hostile titles come back escaped;
- the Add form posted without the cookie, from another Origin, without Origin, without or with a
  wrong anti-forgery token, with a foreign Host: each refused and the trip's fingerprint
  unchanged; then the same form posted whole is accepted (303), which proves the refused ones
  would otherwise have written;
- HTML and SVG attachments are not served as text/html, image/svg+xml or XML; the JPEG is an image;
- the attacks of issue 42 on one machine (local.py): the private sign-in page, a second `open`,
  a fake browser recording every command line, a second local user, 64 half-open connections;
- SIGTERM ends the server within 10 s with status 0, having printed one line.

Exit 0 when every check passes, 1 with the failures listed.
"""

import argparse
import html
import http.client
import os
import re
import socket
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Failures, Laptop  # noqa: E402
from forms import Page, encode  # noqa: E402
import local  # noqa: E402

TRIP_NAME = "Porto & Lisbon, June"
HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>']


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name):
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        return values[0] if values else None

    def all(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]

    def text(self):
        return self.body.decode("utf-8", errors="replace")


def request(server, method, path, headers=(), body=None, host=None, cookie=None):
    connection = http.client.HTTPConnection(server.address, server.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host if host is not None else server.host_header)
        if cookie:
            connection.putheader("Cookie", cookie)
        for name, value in headers:
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return Response(response.status, response.getheaders(), response.read())
    finally:
        connection.close()


def cookie_pair(set_cookie):
    """'name=value' of a Set-Cookie header."""
    return set_cookie.split(";", 1)[0].strip()


def has_trip_data(response, secrets):
    text = response.text()
    return [s for s in secrets if s in text or s in html.unescape(text)]


class Refusals:
    def __init__(self, laptop, out):
        self.laptop, self.out = laptop, out
        self.c = Failures()
        self.cookie = None
        self.pages = {}

    # -- setup -------------------------------------------------------------------------------

    def prepare(self):
        lap = self.laptop
        self.secrets = [TRIP_NAME, "Livraria Lello at opening"]
        item = lap.cli("add", "Livraria Lello at opening", "--day", "2027-06-10", "--at", "09:30", "--place", "Rua das Carmelitas 144").strip()
        for number, title in enumerate(HOSTILE):
            lap.cli("add", title, "--day", "2027-06-11", "--at", f"1{number}:00", "--note", HOSTILE[1 - number])
        work = os.path.join(self.out, "refusal-files")
        os.makedirs(work, exist_ok=True)
        files = {
            "page.html": b"<!doctype html><html><body><script>document.title='pwned'</script>hello</body></html>\n",
            "drawing.svg": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(3)"><script>alert(4)</script></svg>\n',
            "photo.jpg": bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9"),
        }
        for name, data in files.items():
            with open(os.path.join(work, name), "wb") as handle:
                handle.write(data)
            lap.cli("attach", item, os.path.join(work, name))
        self.item_id = item

    # -- the checks --------------------------------------------------------------------------

    def start(self):
        url = self.laptop.open()  # no --port: a random one
        self.server = self.laptop.server
        print(f"  served at {self.server.url} (port {self.server.port}), sign-in page {url}")
        c = self.c
        c.expect(self.server.host.endswith(".localhost"), f"the URL names the home's own .localhost name, not {self.server.host}")
        token = max(re.findall(r"[A-Za-z0-9_\-]{16,}", self.server.path) or [""], key=len)
        c.expect(len(token) >= 22, f"the URL holds a token of at least 128 bits (found {token!r} in {self.server.path!r})")
        self.token = token
        # Reachable only on loopback: the machine's other addresses must not answer on that port.
        for address in other_addresses():
            try:
                with socket.create_connection((address, self.server.port), timeout=2):
                    c.expect(False, f"the server answers on {address}:{self.server.port}, not only on loopback")
            except OSError:
                c.expect(True, "")

    def no_cookie(self):
        c = self.c
        for path in ["/", "/trips", self.server.path.split("?")[0] if "?" in self.server.path else "/index.html"]:
            r = request(self.server, "GET", path)
            c.expect(r.status in (401, 403), f"GET {path} without the cookie answered {r.status}, not 401/403")
            c.expect(not has_trip_data(r, self.secrets), f"GET {path} without the cookie showed trip data {has_trip_data(r, self.secrets)}")

    def wrong_token(self):
        c = self.c
        wrong = "".join("A" if ch != "A" else "B" for ch in self.token)
        path = self.server.path.replace(self.token, wrong)
        r = request(self.server, "GET", path)
        c.expect(r.status in (401, 403), f"a wrong token (GET {path[:40]}...) answered {r.status}, not 401/403")
        c.expect(not has_trip_data(r, self.secrets), "a wrong token showed trip data")
        for set_cookie in r.all("Set-Cookie"):
            r2 = request(self.server, "GET", "/", cookie=cookie_pair(set_cookie))
            c.expect(r2.status in (401, 403), f"a cookie given for a wrong token opens / ({r2.status})")

    def token_exchange(self):
        c = self.c
        r = local.private_sign_in(c, self.server, request)
        c.expect(r.status in (200, 302, 303, 307), f"the printed URL answered {r.status}")
        cookies = r.all("Set-Cookie")
        if not c.expect(cookies, "the printed URL set no cookie"):
            raise RuntimeError("no cookie: nothing behind the token can be checked")
        session = cookies[0]
        attributes = [a.strip().lower() for a in session.split(";")[1:]]
        c.expect("httponly" in attributes, f"the cookie is HttpOnly ({session!r})")
        c.expect("samesite=strict" in attributes, f"the cookie is SameSite=Strict ({session!r})")
        c.expect(not any(a.startswith("domain=") for a in attributes), f"the cookie names no Domain ({session!r})")
        self.cookie = cookie_pair(session)
        name, value = self.cookie.split("=", 1)
        for made_up in (name + "=" + "0" * len(value), name + "=", name + "=" + value[:-1]):
            r = request(self.server, "GET", "/", cookie=made_up)
            c.expect(r.status in (401, 403) and not has_trip_data(r, self.secrets), f"a made-up cookie {made_up[:24]}... answered {r.status}")
        if r.status in (302, 303, 307):
            location = r.header("Location") or ""
            c.expect(self.token not in location, "the redirect after the token drops the token from the address")
        r = request(self.server, "GET", "/", cookie=self.cookie)
        if r.status in (302, 303):
            r = request(self.server, "GET", r.header("Location"), cookie=self.cookie)
        c.expect(r.status == 200 and TRIP_NAME in Page(r.text()).text(), f"with the cookie, / answered {r.status} and lists the trip")
        self.pages["trips"] = ("/", r)
        # One-time: the same URL again gives nothing.
        again = request(self.server, "GET", self.server.path)
        opened = False
        for set_cookie in again.all("Set-Cookie"):
            if request(self.server, "GET", "/", cookie=cookie_pair(set_cookie)).status == 200:
                opened = True
        c.expect(not opened, "the token is one-time: the printed URL used again gives no working cookie")
        c.expect(not has_trip_data(again, self.secrets), "the used token again shows no trip data")

    def foreign_host(self):
        c = self.c
        for host in [f"evil.example:{self.server.port}", "evil.example", f"127.0.0.1:{self.server.port + 1}", f"127.0.0.1.nip.io:{self.server.port}",
                     # the bare loopback address, whose cookies every local port would share, and a look-alike name
                     f"127.0.0.1:{self.server.port}", f"[::1]:{self.server.port}", f"localhost:{self.server.port}",
                     f"{self.server.host}:{self.server.port + 1}", f"x.{self.server.host}:{self.server.port}"]:
            r = request(self.server, "GET", "/", host=host, cookie=self.cookie)
            c.expect(r.status in (400, 403, 421), f"Host: {host} answered {r.status}, not 400/403/421")
            c.expect(not has_trip_data(r, self.secrets), f"Host: {host} showed trip data")

    def get(self, path):
        r = request(self.server, "GET", path, cookie=self.cookie)
        hops = 0
        while r.status in (301, 302, 303, 307) and hops < 5:
            path = urllib.parse.urljoin(path, r.header("Location"))
            r = request(self.server, "GET", path, cookie=self.cookie)
            hops += 1
        return path, r

    def crawl(self):
        """Finds the pages by their links, as a person would: the trip, an item, conflicts, members, attachments."""
        c = self.c
        trips = Page(self.pages["trips"][1].text())
        href = trips.link_named(lambda t: TRIP_NAME in t)
        if not c.expect(href, "the trips page links the trip by its name"):
            raise RuntimeError("no link to the trip")
        path, r = self.get(href)
        self.pages["itinerary"] = (path, r)
        itinerary = Page(r.text())
        href = itinerary.link_named(lambda t: t == "Livraria Lello at opening" or t.startswith("Livraria Lello at opening"))
        if c.expect(href, "the itinerary links an item by its title"):
            self.pages["item"] = self.get(urllib.parse.urljoin(path, href))
        # Conflicts, deleted items, members: a page of their own, or a section of the itinerary
        # (a link to #conflicts); attachments: a page of their own or the item's.
        self.sections = []
        for name in ("conflicts", "members", "attachments", "deleted", "status"):
            href = itinerary.link_named(lambda t: name in t.lower())
            if not href:
                continue
            target = urllib.parse.urldefrag(urllib.parse.urljoin(path, href))[0]
            if target == urllib.parse.urldefrag(urllib.parse.urljoin(path, path))[0]:
                self.sections.append(name)
                c.expect(f'id="{urllib.parse.urldefrag(href)[1]}"' in r.text(), f"the itinerary's {name} link leads to a part of it")
            else:
                self.pages[name] = self.get(target)
        for name in ("conflicts", "members"):
            c.expect(name in self.pages or name in self.sections, f"the itinerary links {name} (a page or a section, by a link naming it)")

    def headers(self):
        c = self.c
        for name, (path, r) in self.pages.items():
            where = f"{name} page ({path})"
            c.expect(r.status == 200, f"{where} answered {r.status}")
            csp = r.header("Content-Security-Policy") or ""
            directives = {d.strip().split(" ")[0].lower(): d.strip() for d in csp.split(";") if d.strip()}
            script = directives.get("script-src") or directives.get("default-src")
            c.expect(script is not None, f"{where}: a Content-Security-Policy with script-src or default-src ({csp!r})")
            if script:
                c.expect("'unsafe-inline'" not in script and "'unsafe-eval'" not in script and "*" not in script.split(),
                         f"{where}: scripts limited without 'unsafe-inline'/'unsafe-eval'/* ({script!r})")
            c.expect("frame-ancestors 'none'" in csp or (r.header("X-Frame-Options") or "").upper() == "DENY",
                     f"{where}: framing refused (frame-ancestors 'none' or X-Frame-Options: DENY)")
            c.expect((r.header("X-Content-Type-Options") or "").lower() == "nosniff", f"{where}: X-Content-Type-Options: nosniff")
            c.expect((r.header("Referrer-Policy") or "").lower() == "no-referrer", f"{where}: Referrer-Policy: no-referrer")
            c.expect(r.header("Access-Control-Allow-Origin") is None, f"{where}: no Access-Control-Allow-Origin")
            c.expect((r.header("Content-Type") or "").startswith("text/html"), f"{where}: served as text/html")
            page = Page(r.text())
            inline = [s for s in page.scripts if not s.get("src")]
            c.expect(not inline, f"{where}: no inline script element")
            handlers = sorted({k for _, attrs in page.elements for k in attrs if k.startswith("on")})
            c.expect(not handlers, f"{where}: no on* attribute ({handlers})")
            external = [a.get("src") or a.get("href") for t, a in page.elements
                        if t in ("script", "img", "link", "iframe") and re.match(r"^(https?:)?//", (a.get("src") or a.get("href") or ""))]
            c.expect(not external, f"{where}: nothing fetched from the network ({external})")
        # A cross-site page asking with CORS gets no permission either.
        path, _ = self.pages["trips"]
        r = request(self.server, "GET", path, headers=[("Origin", "http://evil.example")], cookie=self.cookie)
        c.expect(r.header("Access-Control-Allow-Origin") is None, "a cross-site Origin gets no Access-Control-Allow-Origin")
        r = request(self.server, "OPTIONS", path, headers=[("Origin", "http://evil.example"), ("Access-Control-Request-Method", "POST")], cookie=self.cookie)
        c.expect(r.header("Access-Control-Allow-Origin") is None and r.header("Access-Control-Allow-Methods") is None,
                 "a CORS preflight gets no Access-Control-Allow-* header")

    def hostile_titles(self):
        c = self.c
        raw = self.pages["itinerary"][1].text()
        page = Page(raw)
        for title in HOSTILE:
            c.expect(title not in raw, f"the itinerary's HTML holds {title!r} unescaped")
            c.expect(title in page.text(), f"the itinerary shows {title!r} as text")
        c.expect(not any(t == "img" and a.get("src") == "x" for t, a in page.elements), "no <img src=x> made by a title")

    def writes(self):
        c = self.c
        path, r = self.pages["itinerary"]
        page = Page(r.text())
        form = page.form_with_submit("Add")
        form_path = path
        if form is None:
            href = page.link_named(lambda t: t == "Add" or t.startswith("Add "))
            if href:
                form_path, r = self.get(urllib.parse.urljoin(path, href))
                form = Page(r.text()).form_with_submit("Add")
        if not c.expect(form is not None, "the itinerary has a form with an Add button (or links one)"):
            raise RuntimeError("no Add form")
        c.expect(form.method == "post", f"the Add form posts ({form.method})")
        action = urllib.parse.urljoin(form_path, form.action or form_path)
        hidden = form.hidden()
        guard = [h for h in hidden if re.search(r"csrf|token|forgery|nonce|xsrf", h["name"], re.I)] or hidden[:1]
        if not c.expect(guard, f"the Add form carries an anti-forgery token in a hidden field (hidden fields: {[h['name'] for h in hidden]})"):
            raise RuntimeError("no anti-forgery field")
        guard_name = guard[0]["name"]
        labelled = {}
        for label in ("Title", "Day", "Time", "Ends", "Zone", "Place", "Note"):
            control = form.control(label)
            c.expect(control is not None and control["name"], f"the Add form has a named field labelled {label}")
            if control:
                labelled[label] = control["name"]

        def body(title, drop=(), replace=()):
            values = [(k, v) for k, v in form.defaults() if k not in drop]
            values = [(k, dict(replace).get(k, v)) for k, v in values]
            wanted = {labelled.get("Title"): title, labelled.get("Day"): "10 Jun", labelled.get("Time"): "9:30"}
            values = [(k, wanted.get(k, v)) for k, v in values if k is not None]
            for name, value in wanted.items():
                if name and name not in dict(values):
                    values.append((name, value))
            if "Add" in form.submit_names():
                button = next(s for s in form.submits() if (s["text"] if s["tag"] == "button" else s["value"]).strip() == "Add")
                if button["name"]:
                    values.append((button["name"], button["value"]))
            return encode(values)

        origin = self.server.origin
        form_type = [("Content-Type", "application/x-www-form-urlencoded")]
        attempts = [
            ("no cookie", dict(headers=form_type + [("Origin", origin)], cookie=None)),
            ("a cross-site Origin", dict(headers=form_type + [("Origin", "http://evil.example")], cookie=self.cookie)),
            ("Origin: null", dict(headers=form_type + [("Origin", "null")], cookie=self.cookie)),
            ("Origin: null from another site (Sec-Fetch-Site: cross-site)",
             dict(headers=form_type + [("Origin", "null"), ("Sec-Fetch-Site", "cross-site")], cookie=self.cookie)),
            ("Origin: null from another port of this host (Sec-Fetch-Site: same-site)",
             dict(headers=form_type + [("Origin", "null"), ("Sec-Fetch-Site", "same-site")], cookie=self.cookie)),
            ("an Origin naming another port of this host",
             dict(headers=form_type + [("Origin", f"http://127.0.0.1:{self.server.port + 1}")], cookie=self.cookie)),
            ("no Origin (a write must name its origin)", dict(headers=form_type, cookie=self.cookie)),
            ("a foreign Host", dict(headers=form_type + [("Origin", f"http://evil.example:{self.server.port}")], cookie=self.cookie,
                                    host=f"evil.example:{self.server.port}")),
            ("no anti-forgery token", dict(headers=form_type + [("Origin", origin)], cookie=self.cookie, drop=(guard_name,))),
            ("a wrong anti-forgery token", dict(headers=form_type + [("Origin", origin)], cookie=self.cookie,
                                                replace=((guard_name, "A" * max(16, len(guard[0]["value"]))),))),
            ("an empty anti-forgery token", dict(headers=form_type + [("Origin", origin)], cookie=self.cookie, replace=((guard_name, ""),))),
        ]
        before = self.laptop.fingerprint()
        for number, (what, options) in enumerate(attempts):
            title = f"Refused write {number}"
            data = body(title, options.pop("drop", ()), options.pop("replace", ()))
            r = request(self.server, "POST", urllib.parse.urlsplit(action).path + ("?" + urllib.parse.urlsplit(action).query if urllib.parse.urlsplit(action).query else ""),
                        body=data, **options)
            c.expect(r.status in (400, 401, 403, 421), f"a POST to Add with {what} answered {r.status}, not 400/401/403/421")
            after = self.laptop.fingerprint()
            c.expect(after == before and title not in self.laptop.titles(), f"a POST to Add with {what} changed the trip")
            c.expect(r.header("Access-Control-Allow-Origin") is None, f"the refusal of {what} grants no CORS")
        # The control: the whole form, as the page sends it, is accepted.
        data = body("Accepted write")
        r = request(self.server, "POST", urllib.parse.urlsplit(action).path, body=data, cookie=self.cookie,
                    headers=form_type + [("Origin", origin)])
        c.expect(r.status == 303, f"the whole Add form posted answered {r.status}, not 303 (the control for the refusals above)")
        location = r.header("Location") or ""
        c.expect(location.startswith("/") or location.startswith(origin), f"the 303 leads to this server ({location!r})")
        item = self.laptop.item("Accepted write")
        if c.expect(item is not None and self.laptop.fingerprint() != before, "the accepted POST added the item"):
            start = (item.get("start") or {}).get("local", "")
            c.expect(start.endswith("-06-10T09:30"), f"'10 Jun' and '9:30' became 06-10 09:30 ({start!r})")

    def attachments(self):
        c = self.c
        where = "attachments" if "attachments" in self.pages else "item"
        if where not in self.pages:
            raise RuntimeError("neither an attachments page nor the item page was found")
        path, r = self.pages[where]
        page = Page(r.text())
        # What names each attachment: a link's text, or an image's alt text.
        named = [(href, " ".join(text.split())) for href, text in page.links if href]
        named += [(a.get("src"), a.get("alt") or "") for t, a in page.elements if t == "img" and a.get("src")]
        for name, forbidden in (("page.html", True), ("drawing.svg", True), ("photo.jpg", False)):
            href = next((h for h, label in named if name in label), None)
            if not c.expect(href, f"the {where} page links or shows {name}"):
                continue
            _, got = self.get(urllib.parse.urljoin(path, href))
            kind = (got.header("Content-Type") or "").split(";")[0].strip().lower()
            c.expect(got.status == 200, f"{name} answered {got.status}")
            c.expect((got.header("X-Content-Type-Options") or "").lower() == "nosniff", f"{name} served with nosniff")
            c.expect(got.header("Access-Control-Allow-Origin") is None, f"{name} served without CORS")
            if forbidden:
                c.expect(kind not in ("text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/xml", "")
                         and not kind.startswith("text/"), f"{name} is not served inline as a page or SVG (Content-Type {kind!r})")
                c.expect((got.header("Content-Disposition") or "").lower().startswith("attachment"),
                         f"{name} downloads (Content-Disposition: attachment, got {got.header('Content-Disposition')!r})")
            else:
                c.expect(kind == "image/jpeg", f"{name} is served as image/jpeg ({kind!r})")
            without = request(self.server, "GET", urllib.parse.urlsplit(urllib.parse.urljoin(path, href)).path)
            c.expect(without.status in (401, 403) and without.body[:4] != b"\xff\xd8\xff\xe0",
                     f"{name} without the cookie answered {without.status}")

    def stop(self):
        c = self.c
        code, seconds, stdout = self.laptop.close()
        c.expect(code == 0, f"SIGTERM ends `tripsync open` with status 0 (got {code})")
        c.expect(seconds < 10, f"SIGTERM ends it within 10 s ({seconds:.1f} s)")
        lines = [line for line in stdout.splitlines() if line.strip()]
        c.expect(len(lines) == 1, f"`tripsync open` printed one line on stdout (printed {len(lines)}: {lines[:3]})")

    def run(self):
        c = self.c
        c.step("setup: items, hostile titles, attachments by the CLI", self.prepare)
        c.step("start: one loopback URL, random port, loopback only", self.start)
        if self.laptop.server is None:
            return c.finish("raw HTTP refusals")
        c.step("no cookie: 401/403, no trip data", self.no_cookie)
        c.step("a wrong token or cookie", self.wrong_token)
        c.step("the token becomes an HttpOnly SameSite=Strict cookie, once", self.token_exchange)
        if self.cookie:
            c.step("a foreign Host header", self.foreign_host)
            c.step("pages found by their links", self.crawl)
            c.step("headers on every page", self.headers)
            c.step("hostile titles escaped", self.hostile_titles)
            c.step("writes refused (trip unchanged), then the whole form accepted", self.writes)
            c.step("attachments: HTML and SVG never inline, images as images", self.attachments)
            c.step("a second `open` signs in to the running server; no token in any argument",
                   local.second_open, c, self.laptop, self.server, request, self.cookie)
            c.step("a second local user cannot read the sign-in page or sign in", local.other_user, c, self.laptop, self.server, request)
            c.step("64 half-open connections do not stop the page", local.slow_clients, c, self.server, self.cookie, request)
        c.step("SIGTERM stops it cleanly", self.stop)
        return c.finish("raw HTTP refusals")


def other_addresses():
    addresses = set()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # no packet is sent; this only picks the outgoing address
            addresses.add(sock.getsockname()[0])
    except OSError:
        pass
    return sorted(a for a in addresses if not a.startswith("127."))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tripsync", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    laptop = Laptop("refusals", args.tripsync, args.home)
    try:
        return Refusals(laptop, args.out).run()
    finally:
        if laptop.server:
            laptop.close()


if __name__ == "__main__":
    sys.exit(main())
