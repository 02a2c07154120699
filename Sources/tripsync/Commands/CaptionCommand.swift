import TripSync

/// `tripsync caption ATTACHMENT (TEXT | --clear)`.
enum CaptionCommand: Command {
    static let spec = CommandSpec(
        name: "caption",
        summary: "write or clear an attachment's caption",
        forms: ["ATTACHMENT TEXT [--trip]", "ATTACHMENT --clear [--trip]"],
        about: """
            Writes the caption of the attachment (its id or a prefix of at least 4 characters, as
            'tripsync attachments' lists it), or clears it. A staged attachment's caption changes
            here before it is shared; a shared one's is a write merged like any field: two laptops
            captioning at once keep one caption and show the other as a conflict
            (tripsync conflicts; settle with tripsync resolve ATTACHMENT caption --keep ...).
            """,
        options: [
            .trip,
            OptionSpec("--clear", .flag, "clear the caption instead of writing one"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let clear = parser.has("--clear")
        guard let selector = parser.positionals.first, parser.positionals.count == (clear ? 1 : 2) else {
            throw CLIError.usage(clear ? "caption --clear takes only ATTACHMENT" : "caption needs ATTACHMENT and TEXT (or --clear)", command: name)
        }
        let caption = clear ? nil : parser.positionals[1]
        let store = try Session.store(global, trip: parser.value("--trip"))
        try Session.attachmentWork(nothing: "nothing was changed") {
            let entry = try store.attachment(selector)
            guard !entry.isDetached else { throw CLIError.refused("\(entry.name) is detached (bring it back first: tripsync reattach \(selector))") }
            let changed = try store.setCaption(entry.id, to: caption)
            let short = entry.id.description.prefix(8)
            if !changed {
                Console.out("\(entry.name) (\(short)) already has that caption; nothing was changed")
            } else if let caption {
                Console.out("saved: \(entry.name) (\(short)) — " + (caption.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""))
            } else {
                Console.out("saved: \(entry.name) (\(short)) has no caption")
            }
        }
    }
}
