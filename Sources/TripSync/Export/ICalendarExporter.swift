import Foundation
import TripSyncCore

/// Writes a trip as an RFC 5545 calendar (`.ics`), the form `tripsync export --ics` saves.
///
/// The output is deterministic: the same document gives the same bytes on every machine with
/// the same tz data, whatever the process's `TZ`, locale or clock.
///
/// - The calendar: `VERSION:2.0`, `PRODID:-//TripSync//TripSync//EN`, `CALSCALE:GREGORIAN`,
///   `X-WR-CALNAME` (the trip's name), then one VTIMEZONE per zone the events refer to (sorted
///   by id), then the events ordered by start instant, then item id. Lines end in CRLF, TEXT
///   values are escaped and lines longer than 75 octets are folded (`ICalendarText`).
/// - One VEVENT per live item with a start; unscheduled items and deleted items are left out.
///   `UID` is `<item id>@tripsync`, stable across exports and devices. SUMMARY is the title,
///   LOCATION the place, DESCRIPTION the note (plus TripSync's remarks, below).
/// - `DTSTAMP` is the item's newest rev counter read as milliseconds since 1970 (the hybrid
///   logical clock stamps writes with wall-clock milliseconds), so it says when the item was last
///   changed and never depends on when the export ran.
/// - A timed item: `DTSTART;TZID=Europe/Lisbon:20270610T100000`. A timed end is written in its
///   own zone (`DTEND;TZID=America/New_York:20270610T130000` for a flight). An end that is a day
///   becomes midnight after that day in the start's zone. With no end (or one not after the
///   start) the event gets `DURATION:PT1H` and DESCRIPTION says the hour is a default: a dinner
///   is not a zero-length event.
///   A local time in a DST overlap is written as stored: RFC 5545 reads it as the first
///   occurrence, as `ZoneRules` does. A local time in a DST gap (which RFC 5545 reads with the
///   offset before the gap, as `ZoneRules` does) is written as the existing local time of that
///   instant, moved forward by the gap, so readers that skip RFC 5545's gap rule agree, and
///   DESCRIPTION says so.
/// - A date-only item is an all-day event: `DTSTART;VALUE=DATE:20270610`. A later day as its end
///   is a stay counted in nights (June 7 to June 10 is 3 nights): `DTEND;VALUE=DATE:20270610`,
///   the checkout day, exclusive. With no end, or the start's day: the day after the start.
///   A timed end's day is included.
/// - A start, end, title or place holding conflicting values (`FieldConflict`): SUMMARY begins
///   with "⚠ conflict: ", `STATUS:TENTATIVE`, and DESCRIPTION lists every value with the device
///   that wrote it and the `resolve` command. The event is placed by the value shown.
/// - A zone unknown to this machine: no VTIMEZONE can be written for it, so the event's DTSTART
///   and DTEND are floating local times (no TZID; RFC 5545 requires both in the same form) and
///   DESCRIPTION names the zone and the times as stored.
/// - An end that is not after the start (a validation warning) is left out of DTEND, as RFC 5545
///   requires, and DESCRIPTION shows it.
/// - VTIMEZONE blocks come from this machine's tz data (`VTimeZoneBuilder`): every offset change
///   from January 1 of the year before the zone's first event to the end of the year after its
///   last, as STANDARD and DAYLIGHT sub-components; a zone without changes gets one STANDARD.
package struct ICalendarExporter: Sendable {
    /// The PRODID of every exported calendar.
    package static let productID = "-//TripSync//TripSync//EN"

    /// The zone rules used to place times and write VTIMEZONE blocks.
    package let zones: ZoneRules

    /// Creates an exporter using the given zone rules (this machine's tz data by default).
    package init(zones: ZoneRules = ZoneRules()) {
        self.zones = zones
    }

    /// The calendar text of a document: RFC 5545, CRLF line endings, folded lines, ending with
    /// a CRLF after `END:VCALENDAR`.
    package func export(_ document: TripDocument) -> String {
        calendar(document).text
    }

    /// What an export holds: the calendar text, how many events, and the live items left out
    /// because they have no date (unscheduled), by sortKey then id, to be told to the person.
    package struct Calendar: Sendable {
        /// The `.ics` text.
        package var text: String
        /// How many VEVENTs it holds.
        package var events: Int
        /// The live items with no start: a calendar event needs a date.
        package var leftOut: [ItemID]
    }

    /// The calendar of a document, with what it left out (`export` is its text).
    package func calendar(_ document: TripDocument) -> Calendar {
        var leftOut: [ItemID] = []
        var events: [ICalendarEvent] = []
        for (id, fields) in document.items {
            if let event = ICalendarEvent(id: id, fields: fields, zones: zones, deviceName: document.deviceName) { events.append(event) } else { leftOut.append(id) }
        }
        events.sort { ($0.sortSeconds, $0.id) < ($1.sortSeconds, $1.id) }
        leftOut.sort { (document.items[$0]?.sortKey?.value ?? "", $0) < (document.items[$1]?.sortKey?.value ?? "", $1) }

        var spans: [String: (first: Int64, last: Int64)] = [:]
        for event in events {
            for use in event.zoneUses {
                let span = spans[use.zone] ?? (use.instant, use.instant)
                spans[use.zone] = (min(span.first, use.instant), max(span.last, use.instant))
            }
        }

        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:" + Self.productID,
            "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:" + ICalendarText.escape(document.trip.name.value),
        ]
        for zoneID in spans.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let zone = zones.timeZone(zoneID), let span = spans[zoneID] else { continue }
            lines += VTimeZoneBuilder(id: zoneID, zone: zone).lines(from: span.first, through: span.last)
        }
        for event in events { lines += event.lines }
        lines.append("END:VCALENDAR")

        var text = ""
        for line in lines {
            text += ICalendarText.fold(line)
            text += "\r\n"
        }
        return Calendar(text: text, events: events.count, leftOut: leftOut)
    }
}
