#!/usr/bin/env python3
"""Parse an iCalendar file with Python's `icalendar` package and print a JSON summary.

    python3 scripts/check-ics.py FILE.ics

Needs the `icalendar` package and never installs it: when it is missing the script says so and
exits 3 (`.ci/run` installs it with `python3 -m pip install icalendar`). Prints one JSON object:

    {"calendar": {"version", "prodid", "calscale", "name"},
     "events": [{"uid", "summary", "location", "description", "allDay",
                 "dtstart", "dtstartTzid", "dtstartUtc", "dtstartUtcByVtimezone",
                 "dtend", "dtendTzid", "dtendUtc", "dtendUtcByVtimezone", "status", "durationSeconds",
                 "lengthSeconds", "lengthDays"}],
     "timezones": [{"tzid", "observances": [{"kind", "dtstart", "offsetFrom", "offsetTo", "tzname"}]}],
     "problems": ["..."]}

`dtstart`/`dtend` are ISO 8601 as parsed (with the offset for zoned times, naive for floating
ones, a date for all-day events); `...Utc` is the instant through the tz database icalendar
uses, `...UtcByVtimezone` the instant through the file's own VTIMEZONE definition. `status` is
STATUS (null when absent), `durationSeconds` DURATION's length; `lengthSeconds` is how long a
timed event lasts by icalendar's reading (DTEND or DURATION; 0 when it has neither) and
`lengthDays` how many days an all-day event covers. `problems`
lists what breaks RFC 5545's framing (line endings, lines longer than 75 octets, invalid
UTF-8, a TZID without a VTIMEZONE). Exit status: 0 when the file parses and `problems` is empty,
1 when there are problems, 2 when the file cannot be read or parsed, 3 when `icalendar` is not
installed.
"""

import datetime
import json
import sys


def import_icalendar():
    try:
        import icalendar
    except ImportError:
        print(
            "check-ics: the Python package 'icalendar' is not installed; this script never installs "
            "anything (.ci/run installs it with 'python3 -m pip install icalendar')",
            file=sys.stderr,
        )
        sys.exit(3)
    return icalendar


def framing_problems(raw):
    problems = []
    if not raw.endswith(b"\r\n"):
        problems.append("the file does not end with CRLF")
    lines = raw.split(b"\r\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if b"\n" in line or b"\r" in line:
            problems.append(f"line {number}: a bare LF or CR (lines must end with CRLF)")
        if len(line) > 75:
            problems.append(f"line {number}: {len(line)} octets, more than 75")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            problems.append(f"line {number}: not valid UTF-8 on its own (a folded UTF-8 sequence?)")
    return problems


def ical_text(prop):
    value = prop.to_ical()
    return value.decode() if isinstance(value, bytes) else str(value)


def iso(value):
    return value.isoformat() if value is not None else None


def utc(value):
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return None


def localize(naive, tz):
    if hasattr(tz, "localize"):
        return tz.localize(naive)
    return naive.replace(tzinfo=tz)


def main(argv):
    try:
        return summarize(argv)
    except SystemExit:
        raise
    except Exception as error:  # a crash is not a verdict on the file: say so, exit 2
        import traceback

        traceback.print_exc()
        print(f"check-ics: internal error: {error}", file=sys.stderr)
        return 2


def summarize(argv):
    if len(argv) != 2:
        print("usage: check-ics.py FILE.ics", file=sys.stderr)
        return 2
    icalendar = import_icalendar()
    try:
        with open(argv[1], "rb") as handle:
            raw = handle.read()
        calendar = icalendar.Calendar.from_ical(raw)
    except Exception as error:  # any parse failure is the answer
        print(f"check-ics: cannot parse {argv[1]}: {error}", file=sys.stderr)
        return 2

    problems = framing_problems(raw)
    own_zones = {}
    timezones = []
    for zone in calendar.walk("VTIMEZONE"):
        tzid = str(zone.get("TZID"))
        observances = []
        for sub in zone.subcomponents:
            observances.append(
                {
                    "kind": sub.name,
                    "dtstart": iso(sub.decoded("DTSTART")),
                    "offsetFrom": ical_text(sub["TZOFFSETFROM"]),
                    "offsetTo": ical_text(sub["TZOFFSETTO"]),
                    "tzname": str(sub["TZNAME"]) if "TZNAME" in sub else None,
                }
            )
        timezones.append({"tzid": tzid, "observances": observances})
        try:
            own_zones[tzid] = zone.to_tz(lookup_tzid=False)
        except Exception as error:
            problems.append(f"VTIMEZONE {tzid}: icalendar cannot build it: {error}")

    def moment(event, name):
        if name not in event:
            return None, None, None, None
        prop = event[name]
        value = event.decoded(name)
        tzid = prop.params.get("TZID")
        by_own = None
        if tzid is not None:
            if tzid not in own_zones:
                problems.append(f"{event.get('UID')}: {name} TZID {tzid} has no VTIMEZONE")
            elif isinstance(value, datetime.datetime):
                by_own = utc(localize(value.replace(tzinfo=None), own_zones[tzid]))
        return iso(value), (str(tzid) if tzid is not None else None), utc(value), by_own

    events = []
    for event in calendar.walk("VEVENT"):
        start, start_tzid, start_utc, start_own = moment(event, "DTSTART")
        end, end_tzid, end_utc, end_own = moment(event, "DTEND")
        for required in ("UID", "DTSTAMP", "DTSTART"):
            if required not in event:
                problems.append(f"{event.get('UID')}: no {required}")
        start_value = event.decoded("DTSTART") if "DTSTART" in event else None
        end_value = event.decoded("DTEND") if "DTEND" in event else None
        duration = event.decoded("DURATION") if "DURATION" in event else None
        if "DTEND" in event and "DURATION" in event:
            problems.append(f"{event.get('UID')}: both DTEND and DURATION")
        length_seconds = length_days = None
        if isinstance(start_value, datetime.datetime):
            if end_value is not None:
                if start_value.tzinfo is not None and end_value.tzinfo is not None:
                    length_seconds = int((end_value - start_value).total_seconds())
                else:
                    length_seconds = int((end_value.replace(tzinfo=None) - start_value.replace(tzinfo=None)).total_seconds())
            elif duration is not None:
                length_seconds = int(duration.total_seconds())
            else:
                length_seconds = 0
        elif isinstance(start_value, datetime.date):
            if end_value is not None:
                length_days = (end_value - start_value).days
            elif duration is not None:
                length_days = duration.days
            else:
                length_days = 1
        events.append(
            {
                "uid": str(event.get("UID")),
                "summary": str(event["SUMMARY"]) if "SUMMARY" in event else None,
                "location": str(event["LOCATION"]) if "LOCATION" in event else None,
                "description": str(event["DESCRIPTION"]) if "DESCRIPTION" in event else None,
                "allDay": isinstance(start_value, datetime.date) and not isinstance(start_value, datetime.datetime),
                "dtstart": start,
                "dtstartTzid": start_tzid,
                "dtstartUtc": start_utc,
                "dtstartUtcByVtimezone": start_own,
                "dtend": end,
                "dtendTzid": end_tzid,
                "dtendUtc": end_utc,
                "dtendUtcByVtimezone": end_own,
                "status": str(event["STATUS"]) if "STATUS" in event else None,
                "durationSeconds": int(duration.total_seconds()) if duration is not None else None,
                "lengthSeconds": length_seconds,
                "lengthDays": length_days,
            }
        )

    summary = {
        "calendar": {
            "version": str(calendar.get("VERSION")),
            "prodid": str(calendar.get("PRODID")),
            "calscale": str(calendar.get("CALSCALE")),
            "name": str(calendar["X-WR-CALNAME"]) if "X-WR-CALNAME" in calendar else None,
        },
        "events": events,
        "timezones": timezones,
        "problems": problems,
    }
    json.dump(summary, sys.stdout, ensure_ascii=False, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
