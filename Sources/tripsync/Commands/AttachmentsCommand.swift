import TripSync

/// `tripsync attachments [ITEM] [--json] [--detached]`.
enum AttachmentsCommand: Command {
    static let spec = CommandSpec(
        name: "attachments",
        summary: "list attachments and where their bytes are",
        forms: ["[ITEM] [--detached] [--json] [--trip]"],
        about: """
            Lists the trip's attachments (or ITEM's) with their state:
              staged       attached here, not yet shared (the next sync shares it)
              shared       in the trip, its bytes on this laptop
              arriving     in the trip, its bytes not here yet (a later sync fetches them)
              quarantined  bytes arrived that do not match their SHA-256: never used, fetched again
            Attachments of a deleted item are hidden until it is restored; --detached lists
            detached ones too (tripsync reattach brings one back).
            """,
        options: [
            OptionSpec("--detached", .flag, "list detached attachments too"),
            OptionSpec("--json", .flag, "one JSON value on stdout"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        try HomeAccess.requireExisting(global)
        guard parser.positionals.count <= 1 else { throw CLIError.usage("attachments takes at most one ITEM", command: name) }
        let store = try Session.store(global, trip: parser.value("--trip"))
        let list = try Session.attachmentWork(nothing: "nothing was changed") {
            let item = try parser.positionals.first.map { selector in try store.edit { trip in try trip.item(selector) } }
            return try store.attachments(of: item, detached: parser.has("--detached"))
        }
        if parser.has("--json") {
            try Console.json(list.map(AttachmentReport.init))
            return
        }
        if list.isEmpty {
            Console.out("no attachments")
            return
        }
        let document = store.document
        for entry in list {
            let title = document.items[entry.item]?.title?.value ?? document.tombstones[entry.item]?.item.title?.value ?? "?"
            var line = "\(entry.id.description.prefix(8))  \(entry.state.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0))  \(entry.name)  (\(entry.blob.type), \(ByteCount.text(entry.blob.size)))  on \"\(title)\""
            if let caption = entry.caption { line += "  — \(caption.split(separator: "\n").first.map(String.init) ?? "")" }
            if entry.hasConflict { line += "  [conflict]" }
            if entry.isDetached { line += "  [detached]" }
            Console.out(line)
        }
    }
}
