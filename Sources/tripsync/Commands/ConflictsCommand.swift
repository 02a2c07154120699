import TripSync
import TripSyncCore

/// `tripsync conflicts [--json]`.
enum ConflictsCommand: Command {
    static let spec = CommandSpec(
        name: "conflicts",
        summary: "every field with conflicts (items, the trip's name, captions) and every item edited while deleted",
        forms: ["[--json] [--trip]"],
        about: """
            Lists every field two people changed at once (the value shown now and the others, with
            who wrote each) and every deleted item that was edited while deleted. Settle a field
            with 'tripsync resolve ITEM FIELD --keep mine|current|N'; bring an item back with
            'tripsync restore ITEM'. The trip's name (renamed on two laptops at once) and
            attachment captions are listed too, and settled the same way.
            """,
        options: [
            OptionSpec("--json", .flag, "one JSON value on stdout"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let (loaded, identity) = try Session.read(global, trip: parser.value("--trip"))
        let document = loaded.document
        let report = ConflictReport(document)
        if parser.has("--json") {
            try Console.json(report)
            return
        }
        let list = report.list
        if list.fields.isEmpty && list.deletedWhileEdited.isEmpty && list.registers.isEmpty {
            Console.out("no conflicts")
            return
        }
        let me = identity.deviceID
        Console.out("\(list.summary):")
        for conflict in list.fields {
            let title = document.items[conflict.item]?.title?.value ?? ""
            let short = conflict.item.description.prefix(8)
            Console.out("\(title) (\(short)) \(conflict.field.rawValue):")
            Console.out("  current: \"\(conflict.current.text)\" by \(who(conflict.current.device, me, document))")
            for (index, alternative) in conflict.alternatives.enumerated() {
                Console.out("  [\(index + 1)] \(who(alternative.device, me, document)) changed the \(conflict.field.rawValue) to \"\(alternative.text)\"")
            }
            let mine = ([conflict.current] + conflict.alternatives).contains { $0.device == me }
            Console.out(
                "  keep one: tripsync resolve \(short) \(conflict.field.rawValue) "
                    + (mine ? "--keep mine | " : "") + "--keep current | --keep N")
        }
        for entry in list.deletedWhileEdited {
            let short = entry.item.description.prefix(8)
            Console.out("\(entry.title ?? "(deleted item)") (\(short)) was deleted by \(entry.deletedBy.map { who($0, me, document) }.joined(separator: " and ")) while edited:")
            for (field, edit) in zip(entry.fields, entry.edits) {
                Console.out("  \(who(edit.device, me, document)) changed the \(field.rawValue) to \"\(edit.text)\"")
            }
            Console.out("  restore it with everything: tripsync restore \(short) (or drop the edits: tripsync delete \(short))")
        }
        for conflict in list.registers {
            let field: String
            let command: String
            switch conflict.subject {
            case .tripName:
                Console.out("The trip's name:")
                (field, command) = ("name", "tripsync resolve trip name")
            case .tripZone:
                Console.out("The trip's zone:")
                (field, command) = ("zone", "tripsync resolve trip zone")
            case .caption(let id, let item):
                let short = id.description.prefix(8)
                let title = document.items[item]?.title?.value ?? ""
                Console.out("Caption of \(document.attachments[id]?.name?.value ?? "an attachment") (\(short)) on \"\(title)\":")
                (field, command) = ("caption", "tripsync resolve \(short) caption")
            }
            Console.out("  current: \"\(conflict.current.text)\" by \(who(conflict.current.device, me, document))")
            for (index, alternative) in conflict.alternatives.enumerated() {
                Console.out("  [\(index + 1)] \(who(alternative.device, me, document)) changed the \(field) to \"\(alternative.text)\"")
            }
            let mine = conflict.versions.contains { $0.device == me }
            Console.out("  keep one: \(command) " + (mine ? "--keep mine | " : "") + "--keep current | --keep N")
        }
    }

    static func who(_ device: DeviceID, _ me: DeviceID, _ document: TripDocument) -> String {
        device == me ? "you (\(document.deviceName(device)))" : document.deviceName(device)
    }
}
