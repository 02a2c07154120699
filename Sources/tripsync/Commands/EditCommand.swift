import TripSync
import TripSyncCore

/// `tripsync edit ITEM [...]`.
enum EditCommand: Command {
    static let spec = CommandSpec(
        name: "edit",
        summary: "change fields of an item; one register write per changed field",
        forms: ["ITEM [--title] [--day] [--at] [--zone] [--end] [--end-zone] [--place] [--note] [--clear]... [--trip] [--json]"],
        about: """
            Writes each field that changes (a field given its current value is not written).
            --day/--at/--zone change the start; --clear start|end|place|note empties a field.
            An edit of a field that holds conflicting values replaces them all, and says so on
            stderr; 'tripsync resolve' keeps one of them instead.
            --json prints {"item", "changed": [FIELD], "replaced": [{"field", "value", "device"}]}.
            """,
        options: [
            OptionSpec("--title", .text("T"), "the new title"),
            OptionSpec("--day", .text("YYYY-MM-DD"), "the start's day (a whole-day item without --at)"),
            OptionSpec("--at", .text("HH:MM"), "the start's time"),
            OptionSpec("--zone", .text("ZONE"), "the start's zone"),
            OptionSpec("--end", .text("YYYY-MM-DDTHH:MM|YYYY-MM-DD"), "when it ends: a time, or a last day"),
            OptionSpec("--end-zone", .text("ZONE"), "the end's zone, where it differs"),
            OptionSpec("--place", .text("P"), "the new place"),
            OptionSpec("--note", .text("N"), "the new note"),
            OptionSpec("--clear", .text("FIELD"), "empty a field: start, end, place or note"),
            .trip,
            OptionSpec("--json", .flag, "print {\"item\", \"changed\": [FIELD], \"replaced\": [{\"field\", \"value\", \"device\"}]}"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("edit needs exactly one ITEM", command: name)
        }
        let clear = parser.value("--clear")
        if let clear, !["start", "end", "place", "note"].contains(clear) {
            throw CLIError.usage("--clear takes start, end, place or note (a title and order always have a value), got '\(clear)'", command: name)
        }
        let title = try parser.value("--title").map { try InputParser.text($0, option: "--title", rule: .title, command: name) }
        let place = try parser.value("--place").map { try InputParser.text($0, option: "--place", rule: .place, command: name) }
        let note = try parser.value("--note").map { try InputParser.text($0, option: "--note", rule: .note, command: name) }
        let zoneOption = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
        let endZoneOption = try parser.value("--end-zone").map { try InputParser.zone($0, option: "--end-zone", command: name) }
        let day = try parser.value("--day").map { try InputParser.date($0, option: "--day", command: name) }
        let at = try parser.value("--at").map { try InputParser.time($0, option: "--at", command: name) }
        let endChange = try parser.value("--end").map { try Self.end($0, zone: endZoneOption) }
        let report: EditReport = try Session.edit(global, trip: parser.value("--trip"), needs: QuickEdit.Needs(items: [selector])) { trip in
            let id = try trip.item(selector)
            guard let item = trip.document.items[id] else { throw CLIError.refused("no item \(selector)") }
            // The library's one edit value, as the page's Save builds it; what the person saw is
            // the item as it is now (`.current`), so an edit replaces the conflicts it names.
            var edit = ItemEdit(item: id)
            if let title { edit.set(.title, to: title) }
            if let place { edit.set(.place, to: place) }
            if let note { edit.set(.note, to: note) }
            if day != nil || at != nil || zoneOption != nil {
                if day == nil, item.start?.value == nil { throw CLIError.usage("the item has no day yet: give --day", command: name) }
                edit.set(.start, to: .parts(day: day, time: at.map { .at(hour: $0.hour, minute: $0.minute) }, zone: zoneOption))
            }
            if let endChange {
                edit.set(.end, to: endChange)
            } else if let zone = endZoneOption {
                guard case .local? = item.end?.value ?? nil else { throw CLIError.usage("--end-zone needs a timed end (give --end)", command: name) }
                edit.set(.end, to: .parts(day: nil, time: nil, zone: zone))
            }
            switch clear {
            case "start"?: edit.set(.start, to: .whole(nil))
            case "end"?: edit.set(.end, to: .whole(nil))
            case "place"?: edit.set(.place, to: nil)
            case "note"?: edit.set(.note, to: nil)
            default: break
            }
            guard !edit.isEmpty else { throw CLIError.usage("nothing to change: give at least one field option", command: name) }
            if edit.seen(.start) != nil || edit.seen(.end) != nil {
                let (start, end) = try edit.times(of: item, suggestedZone: trip.suggestedZone)
                try InputParser.order(start: start, end: end, hint: "give a later --end, or --clear end", command: name)
            }
            let before = trip.document
            return EditReport(item: id, outcome: try trip.apply(edit), namesFrom: before)
        }
        for (field, values) in report.replacedByField {
            Console.warning(
                "\(field.rawValue): this edit replaces the conflicting values \(listed(values.map { "\"\($0.text)\" (\($0.deviceName))" })); 'tripsync resolve' chooses one instead")
        }
        if parser.has("--json") {
            try Console.json(report)
            return
        }
        let changed = report.changed
        Console.out(changed.isEmpty ? "nothing changed" : "saved: " + changed.map(\.rawValue).joined(separator: ", "))
    }

    /// `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
    static func listed(_ parts: [String]) -> String {
        guard let last = parts.last else { return "" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }

    /// `--end` as a change of the end: a time (its zone `--end-zone`, else the end's own, else
    /// the start's, by the library's rule) or a last day.
    static func end(_ text: String, zone: String?) throws -> ItemEdit.TimeChange {
        if let local = LocalDateParsing.dateTime(text) { return .parts(day: local.date, time: .at(hour: local.hour, minute: local.minute), zone: zone) }
        if let date = LocalDateParsing.date(text) { return .whole(.date(date)) }
        throw CLIError.usage("--end expects YYYY-MM-DDTHH:MM or YYYY-MM-DD, got '\(text)'", command: name)
    }
}
