import TripSync

/// `tripsync detach ATTACHMENT`.
enum DetachCommand: Command {
    static let spec = CommandSpec(
        name: "detach",
        summary: "detach an attachment (it stays restorable)",
        forms: ["ATTACHMENT [--trip]"],
        about: """
            Detaches the attachment (its id or a prefix of at least 4 characters, as
            'tripsync attachments' lists it). A shared one stays restorable
            (tripsync reattach ATTACHMENT); a detach beats a caption a companion writes
            at the same time, which stays with it. A staged one (never shared) is simply dropped.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("detach needs exactly one ATTACHMENT", command: name)
        }
        let store = try Session.store(global, trip: parser.value("--trip"))
        try Session.attachmentWork(nothing: "nothing was changed") {
            let entry = try store.attachment(selector)
            guard !entry.isDetached else { throw CLIError.refused("\(entry.name) is already detached (restore with: tripsync reattach \(selector))") }
            try store.detach(entry.id)
            if entry.state == .staged {
                Console.out("dropped \(entry.name) (it was never shared)")
            } else {
                Console.out("detached \(entry.name) (restore with: tripsync reattach \(entry.id.description.prefix(8)))")
            }
        }
    }
}
