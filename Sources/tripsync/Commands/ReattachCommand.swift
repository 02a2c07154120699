import TripSync

/// `tripsync reattach ATTACHMENT`.
enum ReattachCommand: Command {
    static let spec = CommandSpec(
        name: "reattach",
        summary: "bring a detached attachment back",
        forms: ["ATTACHMENT [--trip]"],
        about: """
            Brings a detached attachment back with everything it held (a caption written while it
            was detached included). 'tripsync attachments --detached' lists detached ones.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("reattach needs exactly one ATTACHMENT", command: name)
        }
        let store = try Session.store(global, trip: parser.value("--trip"))
        try Session.attachmentWork(nothing: "nothing was changed") {
            let entry = try store.attachment(selector)
            try store.edit { trip in try trip.restoreAttachment(entry.id) }
            Console.out("restored \(entry.name)")
        }
    }
}
