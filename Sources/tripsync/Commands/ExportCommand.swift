import Foundation
import TripSync
import TripSyncCore

/// `tripsync export --ics FILE` / `tripsync export --html FILE`.
enum ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export",
        summary: "the itinerary as iCalendar (--ics) or as one self-contained page (--html)",
        forms: ["(--ics | --html) [--force] [--trip]"],
        about: """
            Both may be given at once. FILE '-' writes to standard output (one of the two at most).
            An existing FILE is written over only with --force, or after a yes on the terminal.
            """,
        options: [
            OptionSpec("--ics", .file("FILE"), "an RFC 5545 calendar: an event per item with a start (its own zone's TZID, VTIMEZONE blocks included), all-day events for whole-day items, stable UIDs. Items with no date cannot be events: stderr says how many were left out and which."),
            OptionSpec("--html", .file("FILE"), "one self-contained HTML page (no network, no script): the trip day by day, each item at its own local time in its own zone, flights from departure to arrival with their duration, whole-day and multi-day items as bands, a switch to see every time in one zone, conflicts with who wrote each value; readable on a phone and printable. The page says when it was made: now, or SOURCE_DATE_EPOCH (seconds) when that is set."),
            OptionSpec("--force", .flag, "write over an existing FILE without asking (else asked on a terminal, refused without one)"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let ics = parser.value("--ics")
        let html = parser.value("--html")
        guard ics != nil || html != nil, parser.positionals.isEmpty else {
            throw CLIError.usage("export needs --ics FILE or --html FILE", command: name)
        }
        if ics == "-" && html == "-" { throw CLIError.usage("only one of --ics and --html can write to stdout", command: name) }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        for file in [ics, html].compactMap({ $0 }) { try OutputFile.check(file, force: parser.has("--force"), command: name) }
        if let file = ics {
            let calendar = ICalendarExporter().calendar(document)
            try write(calendar.text, to: file)
            if file != "-" { Console.out("wrote \(file): \(plural(calendar.events, "event"))") }
            if !calendar.leftOut.isEmpty {
                let names = calendar.leftOut.prefix(5).map { "\($0.description.prefix(8)) \"\(document.items[$0]?.title?.value ?? "")\"" }
                let more = calendar.leftOut.count > 5 ? " and \(calendar.leftOut.count - 5) more" : ""
                Console.warning(
                    "\(file == "-" ? "the calendar" : file): left out \(plural(calendar.leftOut.count, "item")) with no date (a calendar event needs one; "
                        + "'tripsync edit ITEM --day D' gives it one): \(names.joined(separator: ", "))\(more)")
            }
        }
        if let file = html {
            let page = ItineraryPage(document, generatedAt: try madeAt())
            try write(page.html, to: file)
            let conflicts = page.conflicts.summary.total
            if file != "-" {
                Console.out(
                    "wrote \(file): \(plural(page.itemCount, "item")) on \(plural(page.dayCount, "day"))"
                        + (page.itinerary.unscheduled.isEmpty ? "" : ", \(page.itinerary.unscheduled.count) not scheduled")
                        + (conflicts == 0 ? "" : ", \(plural(conflicts, "conflict")) shown"))
            }
        }
    }

    /// Writes `text` to `file` atomically, or to stdout for `-`.
    static func write(_ text: String, to file: String) throws {
        try OutputFile.save(Array(text.utf8), to: file)
    }

    /// Now, or `SOURCE_DATE_EPOCH` (whole seconds since 1970, the reproducible-builds convention)
    /// when it is set, so a page can be made again byte for byte.
    static func madeAt() throws -> UTCTimestamp {
        guard let text = ProcessEnvironment.process["SOURCE_DATE_EPOCH"], !text.isEmpty else { return .now }
        guard let seconds = Int64(text), seconds >= 0, seconds < 253_402_300_800 else {
            throw CLIError.usage("SOURCE_DATE_EPOCH must be whole seconds since 1970, got \"\(text)\"", command: name)
        }
        return UTCTimestamp(secondsSinceEpoch: seconds)
    }
}
