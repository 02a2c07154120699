import TripSync

/// `tripsync restore ITEM`.
enum RestoreCommand: Command {
    static let spec = CommandSpec(
        name: "restore",
        summary: "bring a deleted item back with everything it held",
        forms: ["ITEM [--trip]"],
        about: """
            Brings a deleted item back: every field is written anew (edits made while it was deleted
            included), so it returns whole on every replica.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("restore needs exactly one ITEM", command: name)
        }
        let title: String = try Session.edit(global, trip: parser.value("--trip")) { trip in
            let id = try trip.item(selector, in: .deleted)
            try trip.restore(id)
            return trip.document.items[id]?.title?.value ?? ""
        }
        Console.out("restored \"\(title)\"")
    }
}
