import TripSync
import TripSyncCore

/// `tripsync find TEXT [--json] [--trip T]`.
enum FindCommand: Command {
    static let spec = CommandSpec(
        name: "find",
        summary: "the items whose title, place or note contain TEXT",
        forms: ["TEXT [--json] [--trip]"],
        about: """
            Lists the live items whose title, place or note contain TEXT, as 'show' prints them
            (short id first). Case, accents and letter width are ignored: "sintra" finds "Sintra",
            "jeronimos" finds "Jerónimos". --json prints the matches as 'show --json' does.
            Deleted items are not searched ('tripsync show --deleted' lists them).
            """,
        options: [
            OptionSpec("--json", .flag, "print the matches as 'show --json' does"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let text = parser.positionals.first, !VisibleText.isBlank(text) else {
            throw CLIError.usage("find needs exactly one TEXT to look for (quote it if it has spaces)", command: name)
        }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        let zones = ZoneRules()
        let found = Itinerary(document, zones: zones).matching(text)
        if parser.has("--json") {
            try Console.json(ItineraryReport(document, found))
            return
        }
        if found.isEmpty {
            Console.out(
                "no item's title, place or note contains \"\(text)\""
                    + (document.tombstones.isEmpty ? "" : " (deleted items are not searched: tripsync show --deleted)"))
            return
        }
        Console.out(lines: ShowCommand.header(document, viewer: nil) + ItineraryText(viewer: nil, zones: zones, attachments: document.shownAttachmentCounts).lines(found))
    }
}
