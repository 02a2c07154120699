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
        let report: EditReport = try Session.edit(global, trip: parser.value("--trip"), needs: QuickEdit.Needs(items: [selector])) { trip in
            let id = try trip.item(selector)
            guard let item = trip.document.items[id] else { throw CLIError.refused("no item \(selector)") }
            var writes: [FieldWrite] = []
            if let title { writes.append(FieldWrite(.title, .text(title))) }
            if let place { writes.append(FieldWrite(.place, .text(place))) }
            if let note { writes.append(FieldWrite(.note, .text(note))) }
            // Start: combine what was given with the current value.
            let day = parser.value("--day")
            let at = parser.value("--at")
            let current = item.start?.value ?? nil
            var start = current
            var end = item.end?.value ?? nil
            var timesTyped = false
            if day != nil || at != nil || zoneOption != nil {
                let currentLocal: LocalDateTime? = { if case .local(let local, _)? = current { return local } else { return nil } }()
                let dayText = day ?? current?.localDate.description
                let atText = at ?? currentLocal.map { pad2($0.hour) + ":" + pad2($0.minute) }
                let zone = zoneOption ?? current?.zone ?? trip.suggestedZone
                guard dayText != nil else { throw CLIError.usage("the item has no day yet: give --day", command: name) }
                start = try StartInput.parse(day: dayText, at: atText, zone: zone, command: name)
                writes.append(FieldWrite(.start, .time(start)))
                timesTyped = true
            }
            if let endText = parser.value("--end") {
                let endZone = endZoneOption ?? (item.end?.value ?? nil)?.zone ?? current?.zone ?? zoneOption
                end = try InputParser.endValue(endText, zone: endZone, option: "--end", command: name)
                writes.append(FieldWrite(.end, .time(end)))
                timesTyped = true
            } else if let zone = endZoneOption {
                guard case .local(let local, _)? = item.end?.value ?? nil else { throw CLIError.usage("--end-zone needs a timed end (give --end)", command: name) }
                end = .local(local, zone: zone)
                writes.append(FieldWrite(.end, .time(end)))
                timesTyped = true
            }
            if let clear {
                switch clear {
                case "start": writes.append(FieldWrite(.start, .time(nil))); start = nil
                case "end": writes.append(FieldWrite(.end, .time(nil))); end = nil
                case "place": writes.append(FieldWrite(.place, .text(nil)))
                default: writes.append(FieldWrite(.note, .text(nil)))
                }
            }
            guard !writes.isEmpty else { throw CLIError.usage("nothing to change: give at least one field option", command: name) }
            if timesTyped { try InputParser.order(start: start, end: end, hint: "give a later --end, or --clear end", command: name) }
            let before = trip.document
            return EditReport(item: id, outcome: try trip.set(writes, of: id), namesFrom: before)
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

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
