import Foundation
import TripSync

/// `tripsync show [--in ZONE] [--json]`.
enum ShowCommand: Command {
    static let name = "show"
    static let summary = "the itinerary by day, each item in its own zone (or --in the viewer's)"
    static let help = """
        usage: tripsync show [--in ZONE] [--json] [--trip T]

        Prints the itinerary grouped by each item's own local date, each time in its own zone
        with the zone's abbreviation; items with an end show its time and the duration (by
        instants: Lisbon 10:00 to New York 13:00 is 8 h). --in ZONE shows times in the viewer's
        zone while items stay under their own dates. Conflicts and DST notes are marked.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--in", "--trip"], flags: ["--json"])
        try parser.parse(arguments)
        guard parser.positionals.isEmpty else { throw CLIError.usage("show takes no arguments", command: name) }
        let viewer = try parser.value("--in").map { try InputParser.zone($0, option: "--in", command: name) }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        let zones = ZoneRules()
        let itinerary = Itinerary(document, zones: zones)
        if parser.has("--json") {
            try Console.json(ItineraryReport(document, itinerary))
        } else {
            Console.out(human(document, itinerary, viewer: viewer.flatMap { zones.timeZone($0) }, zones: zones))
        }
    }

    static func human(_ document: TripDocument, _ itinerary: Itinerary, viewer: TimeZone?, zones: ZoneRules) -> String {
        var lines: [String] = [document.trip.name.value + (document.trip.name.hasVisibleConflict ? "  [conflict: see tripsync conflicts]" : "")]
        if let viewer { lines.append("(times in \(viewer.identifier))") }
        func clock(_ shown: ShownTime) -> String {
            if case .date = shown.time { return "all day" }
            if shown.zoneUnknown, case .local(_, let zone) = shown.time {
                return LocalTimeFormat.hhmm(shown.time) + " (\(zone), unknown here)"
            }
            if let viewer, let instant = shown.instant, let (local, offset) = LocalTimeFormat.local(instant.secondsSinceEpoch, in: viewer) {
                let abbreviation = LocalTimeFormat.abbreviation(viewer, Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch)), offset: offset)
                let dayNote = local.date == shown.time.localDate ? "" : " (\(local.date))"
                return LocalTimeFormat.hhmm(.local(local, zone: viewer.identifier)) + " " + abbreviation + dayNote
            }
            if let instant = shown.instant, case .gap = instant.resolution, case .local(_, let zone) = shown.time,
                let timeZone = zones.timeZone(zone), let (local, _) = LocalTimeFormat.local(instant.secondsSinceEpoch, in: timeZone)
            {
                // A time in a DST gap is shown where it lands.
                return LocalTimeFormat.hhmm(.local(local, zone: zone)) + (shown.abbreviation.map { " " + $0 } ?? "")
            }
            return LocalTimeFormat.hhmm(shown.time) + (shown.abbreviation.map { " " + $0 } ?? "")
        }
        func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        func line(_ entry: ItineraryEntry) -> [String] {
            let title = entry.fields.title?.value ?? "(untitled)"
            var text = "  " + padded(entry.start.map(clock) ?? "--:--", 13) + " " + title
            if let end = entry.end {
                text += "  → " + clock(end)
                if end.time.localDate != entry.start?.time.localDate, case .local = end.time { text += " on \(end.time.localDate)" }
                if let duration = entry.durationSeconds { text += " (\(LocalTimeFormat.duration(seconds: duration)))" }
            }
            if let place = entry.fields.place?.value ?? nil, !place.isEmpty { text += "  @ " + place }
            var result = [text]
            if !entry.conflictedFields.isEmpty {
                result.append("      ⚠ conflict in " + entry.conflictedFields.map(\.rawValue).joined(separator: ", ") + ": tripsync conflicts")
            }
            for note in [entry.start?.note, entry.end?.note].compactMap({ $0 }) { result.append("      note: " + note) }
            if let duration = entry.durationSeconds, duration < 0 { result.append("      ⚠ the end is before the start") }
            result.append("      id \(entry.id.description.prefix(8))")
            return result
        }
        for day in itinerary.days {
            lines.append("")
            lines.append("\(LocalTimeFormat.weekday(day.date)) \(day.date)")
            for entry in day.entries { lines += line(entry) }
        }
        if !itinerary.unscheduled.isEmpty {
            lines.append("")
            lines.append("Unscheduled")
            for entry in itinerary.unscheduled { lines += line(entry) }
        }
        if itinerary.days.isEmpty && itinerary.unscheduled.isEmpty { lines.append("(no items yet: tripsync add TITLE --day YYYY-MM-DD --at HH:MM)") }
        let deleted = ConflictList(document).deletedWhileEdited
        if !deleted.isEmpty {
            lines.append("")
            lines.append("⚠ \(plural(deleted.count, "deleted item was", "deleted items were")) edited while deleted: tripsync conflicts")
        }
        return lines.joined(separator: "\n")
    }
}
