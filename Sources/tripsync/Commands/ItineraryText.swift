import Foundation
import TripSync
import TripSyncCore

/// The itinerary as `show` and `find` print it: a heading per day, a line per item that starts
/// with its short id, then its conflict, its note's first line and its DST notes.
struct ItineraryText {
    /// The viewer's zone (`--in`, else this machine's): every time is shown in its own zone, and
    /// also in this one where it reads differently ("10:00 WEST (09:00 UTC your time)").
    var viewer: ViewerZone?
    var zones: ZoneRules
    /// How many attachments each item shows (`TripDocument.shownAttachmentCounts`).
    var attachments: [ItemID: Int] = [:]

    func lines(_ itinerary: Itinerary) -> [String] {
        var lines: [String] = []
        for day in itinerary.days {
            lines.append("")
            lines.append("\(LocalTimeFormat.weekday(day.date)) \(day.date)")
            for entry in day.entries { lines += self.entry(entry) }
        }
        if !itinerary.unscheduled.isEmpty {
            lines.append("")
            lines.append("Unscheduled")
            for entry in itinerary.unscheduled { lines += self.entry(entry) }
        }
        return lines
    }

    /// `Wed 2027-06-09`.
    static func shortDay(_ date: LocalDate) -> String {
        String(LocalTimeFormat.weekday(date).prefix(3)) + " \(date)"
    }

    /// The viewer's reading of a time, when it differs from the time's own: `(09:00 UTC your
    /// time)`, with the viewer's weekday when the date differs too (`(23:00 EDT Wed, your time)`).
    static func yours(_ shown: ShownTime, viewer: ViewerZone?, zones: ZoneRules) -> String? {
        guard let viewer, let instant = shown.instant, !shown.zoneUnknown, case .local(_, let zone) = shown.time,
            let reading = viewer.read(instant.secondsSinceEpoch),
            let own = ViewerZone(zone, rules: zones)?.read(instant.secondsSinceEpoch),
            reading.clock != own.clock || reading.abbreviation != own.abbreviation || reading.date != own.date
        else { return nil }
        let day = reading.date == own.date ? " " : " " + String(LocalTimeFormat.weekday(reading.date).prefix(3)) + ", "
        return "(" + reading.clock + " " + reading.abbreviation + day + "your time)"
    }

    /// A time as the line shows it, in its own zone (then the viewer's reading where it differs),
    /// and its local date there.
    func clock(_ shown: ShownTime) -> (text: String, date: LocalDate) {
        let own = ownClock(shown)
        guard let yours = Self.yours(shown, viewer: viewer, zones: zones) else { return own }
        return (own.text + " " + yours, own.date)
    }

    /// A time in its own zone and its local date there.
    func ownClock(_ shown: ShownTime) -> (text: String, date: LocalDate) {
        if case .date(let date) = shown.time { return ("all day", date) }
        if shown.zoneUnknown, case .local(_, let zone) = shown.time {
            return (LocalTimeFormat.hhmm(shown.time) + " (\(zone), unknown here)", shown.time.localDate)
        }
        if let instant = shown.instant, case .gap = instant.resolution, case .local(_, let zone) = shown.time,
            let timeZone = zones.timeZone(zone), let (local, _) = LocalTimeFormat.local(instant.secondsSinceEpoch, in: timeZone)
        {
            // A time in a DST gap is shown where it lands.
            return (LocalTimeFormat.hhmm(.local(local, zone: zone)) + (shown.abbreviation.map { " " + $0 } ?? ""), local.date)
        }
        return (LocalTimeFormat.hhmm(shown.time) + (shown.abbreviation.map { " " + $0 } ?? ""), shown.time.localDate)
    }

    func entry(_ entry: ItineraryEntry) -> [String] {
        let title = entry.fields.title?.value ?? "(untitled)"
        let start = entry.start.map(clock)
        var startText = start?.text ?? "--:--"
        if let start, let date = entry.start?.time.localDate, start.date != date { startText += " (\(start.date))" }
        var text = "  \(entry.id.description.prefix(8))  " + padded(startText, 13) + " " + title
        if let end = entry.end {
            // A stay (a later date in the same zone, or whole days) counts nights, not hours.
            let nights = entry.start.flatMap { StayNights.count(start: $0.time, end: end.time) }
            if case .date(let last) = end.time {
                // A multi-day item: its last day (nothing more when it ends the day it starts).
                if last != entry.start?.time.localDate { text += "  → " + Self.shortDay(last) + (nights.map { " (\(StayNights.text($0)))" } ?? "") }
            } else {
                let shown = clock(end)
                text += "  → " + shown.text
                if let start, shown.date != start.date { text += " on \(Self.shortDay(shown.date))" }
                if let nights, (entry.durationSeconds ?? 0) >= 0 {
                    text += " (\(StayNights.text(nights)))"
                } else if let duration = entry.durationSeconds {
                    text += " (\(LocalTimeFormat.duration(seconds: duration)))"
                }
            }
        }
        if let place = entry.fields.place?.value ?? nil, !place.isEmpty { text += "  @ " + place }
        if let count = attachments[entry.id], count > 0 { text += "  [\(plural(count, "attachment"))]" }
        var result = [text]
        if !entry.conflictedFields.isEmpty {
            result.append("      ⚠ conflict in " + entry.conflictedFields.map(\.rawValue).joined(separator: ", ") + ": tripsync conflicts")
        }
        if let note = entry.fields.note?.value ?? nil, !VisibleText.isBlank(note) {
            let lines = note.split(whereSeparator: \.isNewline).map(String.init).filter { !VisibleText.isBlank($0) }
            let more = lines.count > 1 ? " (+\(plural(lines.count - 1, "line")): tripsync show \(entry.id.description.prefix(8)))" : ""
            result.append("      note: " + (lines.first ?? "") + more)
        }
        for note in [entry.start?.note, entry.end?.note].compactMap({ $0 }) { result.append("      time: " + note) }
        if let duration = entry.durationSeconds, duration < 0 { result.append("      ⚠ the end is before the start") }
        return result
    }

    func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
