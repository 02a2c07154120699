import TripSync

/// `tripsync export --ics FILE`.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "the itinerary as iCalendar with TZID per event"
    static let help = """
        usage: tripsync export --ics FILE [--trip T]

        Writes the itinerary as an RFC 5545 calendar: an event per item with a start (its own
        zone's TZID, VTIMEZONE blocks included), all-day events for whole-day items, stable UIDs.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--ics", "--trip"])
        try parser.parse(arguments)
        guard let file = parser.value("--ics"), parser.positionals.isEmpty else {
            throw CLIError.usage("export needs --ics FILE", command: name)
        }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        let text = ICalendarExporter().export(document)
        do {
            try FileIO.writeAtomically(Array(text.utf8), to: file)
        } catch {
            throw CLIError.refused("\(file): cannot write: \(error)")
        }
        let events = text.components(separatedBy: "BEGIN:VEVENT").count - 1
        Console.out("wrote \(file): \(plural(events, "event"))")
    }
}
