#!/usr/bin/env python3
"""Checks the itinerary page (`tripsync export --html`) in headless Chromium.

Standard library only. Given the page, `show --json` and `conflicts --json` of the same trip:

1. Loads the page with `chromium --headless --dump-dom` and checks the rendered DOM: no script
   element and no marker the hostile titles would set if they ran; every hostile text shown as
   text; every day a section with a heading; every item under its own day, in the itinerary's
   order, with its title and `<time datetime>` of its instant; flights (start and end in
   different zones) drawn as a route with their duration; whole-day and multi-day items as bands
   continuing on their later days; the unscheduled items listed; every conflict with every value
   and the name of the device that wrote it; items edited while deleted flagged; nothing that
   loads anything (no src, no external href, a Content-Security-Policy of default-src 'none').
2. For the default choice and each zone of the viewer-zone switch, loads a copy with that radio
   button checked and a probe script (the copy drops the page's policy so the probe may run;
   the page itself has none) that reports what is visible (`innerText`): each time must read as
   that instant in its own zone and, with a zone chosen, that zone's reading beside it where it
   reads differently ("10:00 WEST · 05:00 EDT yours"; Python's zoneinfo), with `+1` when it
   falls on a later date than its day, and the items must stay under their own dates.
3. Takes screenshots at phone (390 px) and desktop (1280 px) width, and with New York chosen at
   1280, 390 and 320 px, and prints the page to PDF.

Exit 0 when every check passes, 1 with the failures listed otherwise, 3 when Chromium is missing.
"""

import argparse
import base64
import datetime as dt
import hashlib
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import zoneinfo

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HOSTILE_MARKER = "data-pwned"


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.walk()

    def find_all(self, tag=None, cls=None, **attrs):
        for node in self.walk():
            if tag and node.tag != tag:
                continue
            if cls and cls not in node.classes():
                continue
            if any(node.attrs.get(k.replace("_", "-")) != v for k, v in attrs.items()):
                continue
            yield node

    def find(self, *args, **kwargs):
        return next(self.find_all(*args, **kwargs), None)


class TreeBuilder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(text):
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def squash(text):
    return re.sub(r"\s+", " ", text).strip()


def duration_text(minutes):
    """LocalTimeFormat.duration: `8 h`, `6 h 5 min`, `45 min`."""
    parts = []
    if minutes // 60:
        parts.append(f"{minutes // 60} h")
    if minutes % 60 or not parts:
        parts.append(f"{minutes % 60} min")
    return " ".join(parts)


class Browser:
    def __init__(self, command):
        self.command = command

    def run(self, *arguments, timeout=120):
        base = [self.command, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--mute-audio"]
        result = subprocess.run(base + list(arguments), capture_output=True, text=True, timeout=timeout)
        return result

    def dump_dom(self, path):
        result = self.run("--dump-dom", "file://" + os.path.abspath(path))
        if result.returncode != 0 or "<html" not in result.stdout:
            raise RuntimeError(f"chromium --dump-dom failed ({result.returncode}): {result.stderr[-2000:]}")
        return result.stdout

    def screenshot(self, path, png, width, height):
        result = self.run(f"--screenshot={os.path.abspath(png)}", f"--window-size={width},{height}", "file://" + os.path.abspath(path))
        if result.returncode != 0 or not os.path.exists(png):
            raise RuntimeError(f"chromium --screenshot failed ({result.returncode}): {result.stderr[-2000:]}")

    def pdf(self, path, pdf):
        result = self.run(f"--print-to-pdf={os.path.abspath(pdf)}", "--no-pdf-header-footer", "file://" + os.path.abspath(path))
        if result.returncode != 0 or not os.path.exists(pdf):
            raise RuntimeError(f"chromium --print-to-pdf failed ({result.returncode}): {result.stderr[-2000:]}")


class Checker:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def expect(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failures.append(message)
        return condition


def instant_seconds(text):
    return int(dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc).timestamp())


def check_static(c, dom, raw, show, conflicts):
    """Everything the rendered DOM must hold."""
    html_node = dom.find("html")
    c.expect(html_node is not None and HOSTILE_MARKER not in html_node.attrs, "a hostile payload ran: the marker is set on <html>")
    for node in dom.walk():
        c.expect(HOSTILE_MARKER not in node.attrs, f"a hostile payload ran: <{node.tag}> carries the marker")
    c.expect(not list(dom.find_all("script")), "the page's DOM holds a <script> element")
    for tag in ("img", "svg", "iframe", "object", "embed", "link", "video", "audio", "source", "base", "form"):
        c.expect(not list(dom.find_all(tag)), f"the page's DOM holds a <{tag}> element")
    for node in dom.walk():
        for name, value in node.attrs.items():
            c.expect(not name.startswith("on"), f"<{node.tag}> has an event handler attribute {name}")
            if name in ("src", "srcset", "action", "formaction", "poster", "data", "background"):
                c.expect(False, f"<{node.tag}> loads something: {name}={value!r}")
            if name == "href":
                # Only a place's map link leaves the page, and only to an OpenStreetMap search.
                is_map = node.tag == "a" and "map" in node.classes() and re.fullmatch(
                    r"https://www\.openstreetmap\.org/search\?query=[A-Za-z0-9._~%-]*", value or "") is not None
                c.expect((value or "").startswith("#") or is_map, f"<{node.tag}> links outside the page: href={value!r}")
    policy = dom.find("meta", http_equiv="Content-Security-Policy")
    content = policy.attrs.get("content", "") if policy else ""
    c.expect("default-src 'none'" in content and "script-src 'none'" in content, f"Content-Security-Policy forbids too little: {content!r}")
    # The policy allows the page's one stylesheet by its SHA-256, and nothing else.
    style_text = raw.split("<style>", 1)[1].split("</style>", 1)[0] if "<style>" in raw else ""
    digest = base64.b64encode(hashlib.sha256(style_text.encode("utf-8")).digest()).decode()
    c.expect(f"style-src 'sha256-{digest}'" in content, "the policy's style hash is not the stylesheet's")
    styles = [s.text() for s in dom.find_all("style")]
    c.expect(len(styles) == 1 and "url(" not in styles[0] and "@import" not in styles[0], "the stylesheet loads something (url( or @import)")
    c.expect("<script" not in raw.lower().replace("&lt;script", ""), "the page's bytes hold a <script tag")

    title = dom.find("h1")
    c.expect(title is not None and squash(title.text()) == show["name"], f"h1 is not the trip name: {title and title.text()!r}")
    c.expect(dom.find("p", cls="made") is not None and dom.find("p", cls="made").find("time") is not None, "the page does not say when it was made")

    # Days: each a section with a heading, items under their own date in order.
    for day in show["days"]:
        section = dom.find("section", cls="day", data_date=day["date"])
        if not c.expect(section is not None, f"no section for {day['date']}"):
            continue
        heading = section.find("h2")
        c.expect(heading is not None and heading.find("time", datetime=day["date"]) is not None, f"{day['date']}: no h2 with <time datetime>")
        shown = [li for li in section.find_all("li", cls="item") if "data-item" in li.attrs]
        c.expect([li.attrs["data-item"] for li in shown] == [item["id"] for item in day["items"]],
                 f"{day['date']}: items {[li.attrs['data-item'][:8] for li in shown]} expected {[i['id'][:8] for i in day['items']]}")
        for li, item in zip(shown, day["items"]):
            heading = li.find("h3", cls="title")
            c.expect(heading is not None and heading.text() == item["title"], f"{item['id'][:8]}: title {heading and heading.text()!r} expected {item['title']!r}")
            check_item(c, li, item)
    dated = {day["date"] for day in show["days"]}
    for section in dom.find_all("section", cls="day"):
        date = section.attrs.get("data-date")
        if date and date not in dated:
            # A date with no item of its own: only continuations or deleted items may be there.
            c.expect(not [li for li in section.find_all("li", cls="item") if "data-item" in li.attrs], f"{date}: items under a date they do not belong to")

    unscheduled = dom.find("section", id="unscheduled")
    if show["unscheduled"]:
        listed = [li.attrs["data-item"] for li in unscheduled.find_all("li", cls="item") if "data-item" in li.attrs] if unscheduled else []
        c.expect(listed == [item["id"] for item in show["unscheduled"]], f"unscheduled items {listed} expected {[i['id'] for i in show['unscheduled']]}")
    else:
        c.expect(unscheduled is None, "an unscheduled section with nothing unscheduled")

    # Conflicts where they are, with every value and who wrote it.
    devices = {}
    for entry in conflicts:
        for version in ([entry["current"]] + entry.get("alternatives", [])) if entry.get("field") else []:
            devices[version["device"]] = version.get("deviceName", "")
    for entry in conflicts:
        kind = entry.get("kind")
        if kind in ("trip-name", "attachment-caption"):
            if kind == "trip-name":
                box = dom.find("div", cls="name-conflict")
                where = "the trip's name"
            else:
                li = dom.find("li", cls="attachment", data_attachment=entry["attachment"])
                box = li.find("div", cls="conflicts") if li else None
                where = f"the caption of {entry['name']!r}"
                card = dom.find("li", data_item=entry["item"])
                c.expect(li is not None and card is not None and any(n is li for n in card.walk()),
                         f"{where} is not shown on its item {entry['item'][:8]}")
            if c.expect(box is not None, f"the conflict of {where} is not shown"):
                check_values(c, box.text(), entry, where)
        elif entry.get("field"):
            li = dom.find("li", data_item=entry["item"])
            field = li.find("div", cls="c-field", data_field=entry["field"]) if li else None
            if c.expect(field is not None, f"conflict of {entry['item'][:8]} {entry['field']} is not shown on its item"):
                check_values(c, field.text(), entry, f"{entry['item'][:8]} {entry['field']}")
        else:
            ghost = dom.find("li", cls="ghost", data_deleted_item=entry["item"])
            if not c.expect(ghost is not None, f"item {entry['item'][:8]} edited while deleted is not flagged"):
                continue
            text = ghost.text()
            c.expect(entry.get("title") is None or entry["title"] in text, f"deleted item {entry['item'][:8]}: title not shown")
            for edit in entry["edits"]:
                if isinstance(edit["value"], str):
                    c.expect(edit["value"] in text, f"deleted item {entry['item'][:8]}: edit {edit['value']!r} not shown")
            c.expect("Deleted by" in text, f"deleted item {entry['item'][:8]}: who deleted it is not said")
    # One box per item whose fields conflict (or edited while deleted), per caption, and the name.
    expected = len({e["item"] for e in conflicts if e.get("kind") not in ("trip-name", "attachment-caption")})
    expected += sum(1 for e in conflicts if e.get("kind") in ("trip-name", "attachment-caption"))
    boxes = len(list(dom.find_all("div", cls="conflicts")))
    c.expect(boxes == expected, f"{boxes} conflict boxes, expected {expected}")
    # The header's count links to the first box, and every box number is there once.
    anchors = [n.attrs["id"] for n in dom.walk() if n.attrs.get("id", "").startswith("conflict-")]
    c.expect(not conflicts or "conflict-1" in anchors, "the header's conflict link leads nowhere (no #conflict-1)")
    c.expect(len(anchors) == len(set(anchors)), f"conflict anchors repeat: {anchors}")


def check_values(c, text, entry, where):
    """A conflict's box shows every value and names who wrote each."""
    for version in [entry["current"]] + entry["alternatives"]:
        value = version["value"] if isinstance(version["value"], str) else ""
        c.expect(value in text, f"conflict of {where}: value {value!r} not shown")
        c.expect(version["deviceName"] in text, f"conflict of {where}: {version['deviceName']!r} not named")


def check_attachments(c, dom, attachments, conflicts):
    """Each shown attachment on its item's card: name and kind as text, its caption, nothing loaded."""
    conflicted = {e["attachment"] for e in conflicts if e.get("kind") == "attachment-caption"}
    shown = [a for a in attachments if a["state"] != "staged"]
    c.expect(len(shown) >= 2, "the trip has fewer than two shared attachments to check")
    listed = [n.attrs.get("data-attachment") for n in dom.find_all("li", cls="attachment")]
    c.expect(sorted(listed) == sorted(a["id"] for a in shown), f"attachments on the page {listed} expected {[a['id'] for a in shown]}")
    for attachment in shown:
        card = dom.find("li", data_item=attachment["item"])
        li = dom.find("li", cls="attachment", data_attachment=attachment["id"])
        if not c.expect(card is not None and li is not None and any(n is li for n in card.walk()),
                        f"attachment {attachment['name']!r} is not on its item's card"):
            continue
        name = li.find("span", cls="a-name")
        c.expect(name is not None and name.text() == attachment["name"], f"attachment name {name and name.text()!r} expected {attachment['name']!r}")
        if attachment["id"] not in conflicted and attachment.get("caption"):
            caption = li.find("span", cls="a-caption")
            c.expect(caption is not None and caption.text() == attachment["caption"],
                     f"caption of {attachment['name']!r}: {caption and caption.text()!r} expected {attachment['caption']!r}")
        c.expect(f"tripsync extract {attachment['id'][:8]}" in li.text(), f"{attachment['name']!r}: no way to get it out is shown")


def check_item(c, li, item):
    start, end = item.get("start"), item.get("end")
    when = li.find("div", cls="when")
    if start and "local" in start and "instant" in start:
        times = list(when.find_all("time")) if when else []
        c.expect(any(t.attrs.get("datetime") == start["instant"] for t in times), f"{item['id'][:8]}: no <time datetime={start['instant']}>")
    if start and "date" in start:
        c.expect("allday" in li.classes(), f"{item['id'][:8]}: a whole-day item is not drawn as a band")
        if end and "date" in end and end["date"] > start["date"]:
            c.expect("multi" in li.classes(), f"{item['id'][:8]}: a multi-day item is not marked multi-day")
    minutes = item.get("durationMinutes")
    if minutes is not None:
        c.expect(li.attrs.get("data-duration-minutes") == str(minutes), f"{item['id'][:8]}: data-duration-minutes {li.attrs.get('data-duration-minutes')} expected {minutes}")
        durations = [squash(d.text()) for d in li.find_all(cls="duration")]
        # A stay (several days in one zone) says how many days; everything else its exact duration.
        c.expect(li.attrs.get("data-kind") == "stay" or any(duration_text(minutes) in d for d in durations), f"{item['id'][:8]}: duration {duration_text(minutes)!r} not shown (found {durations})")
    # A place links to its OpenStreetMap search, percent-encoded (a hostile place stays text).
    place = item.get("place")
    if place and place.strip():
        link = li.find("a", cls="map")
        expected = "https://www.openstreetmap.org/search?query=" + urllib.parse.quote(place, safe="")
        c.expect(link is not None and link.attrs.get("href") == expected, f"{item['id'][:8]}: map link {link.attrs.get('href') if link else None!r}, expected {expected!r}")
        c.expect(link is not None and squash(link.text()) == squash(place), f"{item['id'][:8]}: the map link's text is not the place")
    if start and end and start.get("zone") and end.get("zone") and start["zone"] != end["zone"]:
        route = li.find("div", cls="route")
        c.expect(route is not None, f"{item['id'][:8]}: a flight across zones is not drawn as a route")
        if route is not None and end.get("instant"):
            c.expect(any(t.attrs.get("datetime") == end["instant"] for t in route.find_all("time")), f"{item['id'][:8]}: arrival <time> missing")


def check_continuations(c, dom, show):
    for day in show["days"]:
        for item in day["items"]:
            start, end = item.get("start") or {}, item.get("end") or {}
            first = start.get("date") or (start.get("local") or "")[:10]
            last = end.get("date") or (end.get("local") or "")[:10]
            if not first or not last or last <= first:
                continue
            if end.get("local", "").endswith("T00:00"):
                continue
            d = dt.date.fromisoformat(first) + dt.timedelta(days=1)
            while d <= dt.date.fromisoformat(last):
                section = dom.find("section", cls="day", data_date=d.isoformat())
                band = section.find("li", cls="cont", data_continues=item["id"]) if section else None
                c.expect(band is not None and item["title"] in band.text(), f"{item['title']!r} does not continue on {d}")
                d += dt.timedelta(days=1)


PROBE = """<script>
(function () {
  var items = [];
  document.querySelectorAll('section.day').forEach(function (section) {
    section.querySelectorAll('li.item[data-item]').forEach(function (li) {
      items.push({date: section.getAttribute('data-date'), id: li.getAttribute('data-item'),
        times: Array.prototype.map.call(li.querySelectorAll('time.clock'), function (t) {
          return {datetime: t.getAttribute('datetime'), day: t.getAttribute('data-day'), text: t.innerText}; })});
    });
  });
  document.body.setAttribute('data-probe', JSON.stringify(items));
})();
</script>"""


def with_zone(raw, index, probe):
    page = re.sub(r'(<input type="radio" class="vz" name="viewer-zone" id="vz-\d+") checked>', r"\1>", raw)
    page = page.replace(f'id="vz-{index}">', f'id="vz-{index}" checked>', 1)
    if probe:
        page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n', "", page, count=1)
        page = page.replace("</body>", PROBE + "\n</body>", 1)
    return page


def expected_reading(instant, zone_id, day):
    local = dt.datetime.fromtimestamp(instant, dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(zone_id))
    shift = (local.date() - dt.date.fromisoformat(day)).days
    abbreviation = local.tzname()
    if not re.fullmatch(r"[A-Za-z]{2,}", abbreviation or ""):
        offset = int(local.utcoffset().total_seconds()) // 60
        sign = "-" if offset < 0 else "+"
        abbreviation = "UTC" if offset == 0 else f"UTC{sign}{abs(offset) // 60}" + (f":{abs(offset) % 60:02d}" if abs(offset) % 60 else "")
    marker = "" if shift == 0 else (f"+{shift}" if shift > 0 else f"\u2212{-shift}")
    return f"{local:%H:%M}{marker} {abbreviation}"


def visible_text(text):
    """What a person reads in a time: the separator and the case of "yours" aside (in the time
    column the chosen zone's reading sits under the local time, without the "·")."""
    return squash(text.replace("\u00b7", " ")).replace("YOURS", "yours")


def check_zones(c, browser, dom, raw, show, out):
    """Each time reads as its instant in its own zone whatever is chosen; with a zone chosen,
    that zone's reading follows it ("10:00 WEST · 05:00 EDT yours") wherever it reads differently."""
    labels = [(int(label.attrs["for"][3:]), label.attrs.get("title")) for label in dom.find_all("label") if label.attrs.get("for", "").startswith("vz-")]
    c.expect(labels and labels[0][0] == 0 and len(labels) >= 2, f"no viewer-zone switch: {labels}")
    c.expect(any(zone == "UTC" for _, zone in labels), "the switch does not offer UTC")
    # The zone each time was planned in (the start's zone for the start, the end's for the end).
    zones_of = {}
    for day in show["days"]:
        for item in day["items"]:
            for key in ("start", "end"):
                value = item.get(key) or {}
                if value.get("instant"):
                    zones_of[(item["id"], value["instant"])] = value["zone"]
    own = None
    besides = 0
    for index, zone in labels:
        path = os.path.join(out, f"probe-{index}.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(with_zone(raw, index, probe=True))
        probed = parse(browser.dump_dom(path)).find("body")
        items = json.loads(probed.attrs.get("data-probe", "[]")) if probed else []
        c.expect(bool(items), f"zone {index}: the probe saw no items")
        if index == 0:
            own = items
        for item in items:
            for time in item["times"]:
                if not time["datetime"].endswith("Z"):
                    continue  # a zone unknown here: shown as stored in every choice
                planned = zones_of.get((item["id"], time["datetime"]))
                if not c.expect(planned is not None, f"{item['id'][:8]}: time {time['datetime']} is not one of show --json's"):
                    continue
                instant, day = instant_seconds(time["datetime"]), time["day"] or item["date"]
                expected = expected_reading(instant, planned, day)
                if index > 0:
                    yours = expected_reading(instant, zone, day)
                    if yours != expected:
                        expected += f" \u00b7 {yours} yours"
                        besides += 1
                c.expect(visible_text(time["text"]) == visible_text(expected),
                         f"zone {zone or 'local'}: {item['id'][:8]} on {item['date']} shows {squash(time['text'])!r}, expected {expected!r}")
        if own is not None and index > 0:
            c.expect([(i["date"], i["id"]) for i in items] == [(i["date"], i["id"]) for i in own], f"zone {zone}: items moved between dates")
    c.expect(besides > 0, "no chosen zone ever showed a time beside a local one")
    return labels


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--page", required=True)
    parser.add_argument("--show", required=True)
    parser.add_argument("--conflicts", required=True)
    parser.add_argument("--attachments", required=True)
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if shutil.which(args.chromium) is None:
        print(f"browser check: {args.chromium} not found (apt-get install -y chromium)", file=sys.stderr)
        return 3
    with open(args.page, encoding="utf-8") as f:
        raw = f.read()
    with open(args.show, encoding="utf-8") as f:
        show = json.load(f)
    with open(args.conflicts, encoding="utf-8") as f:
        conflicts = json.load(f)
    with open(args.attachments, encoding="utf-8") as f:
        attachments = json.load(f)
    browser = Browser(args.chromium)
    c = Checker()

    dom = parse(browser.dump_dom(args.page))
    check_static(c, dom, raw, show, conflicts)
    check_continuations(c, dom, show)
    check_attachments(c, dom, attachments, conflicts)
    hostile = [item["title"] for day in show["days"] for item in day["items"] if "<" in item["title"]]
    c.expect(len(hostile) >= 2, "the trip has fewer than two hostile titles to check")
    for title in hostile:
        c.expect(any(h.text() == title for h in dom.find_all("h3", cls="title")), f"hostile title {title!r} is not shown as text")
    labels = check_zones(c, browser, dom, raw, show, args.out)

    shots = [("phone.png", args.page, 390, 2600), ("desktop.png", args.page, 1280, 2000)]
    new_york = next((index for index, zone in labels if zone == "America/New_York"), None)
    if new_york is not None:
        path = os.path.join(args.out, "in-new-york.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(with_zone(raw, new_york, probe=False))
        shots += [("desktop-new-york.png", path, 1280, 2000), ("phone-new-york.png", path, 390, 2600), ("narrow-new-york.png", path, 320, 2800)]
    for name, page, width, height in shots:
        browser.screenshot(page, os.path.join(args.out, name), width, height)
        with open(os.path.join(args.out, name), "rb") as f:
            c.expect(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG")
    pdf = os.path.join(args.out, "print.pdf")
    browser.pdf(args.page, pdf)
    with open(pdf, "rb") as f:
        data = f.read()
    c.expect(data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", data)) >= 1, "the print PDF has no page")

    if c.failures:
        print(f"browser check: {len(c.failures)} of {len(c.failures) + c.passed} checks failed", file=sys.stderr)
        for failure in c.failures:
            print("  " + failure, file=sys.stderr)
        return 1
    print(f"browser check: {c.passed} checks passed ({len(show['days'])} days, "
          f"{sum(len(d['items']) for d in show['days']) + len(show['unscheduled'])} items, {len(conflicts)} conflicts, "
          f"{len(labels)} zone choices); screenshots and print.pdf in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
