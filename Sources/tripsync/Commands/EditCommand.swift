import TripSync

/// `tripsync edit ITEM [...]`.
enum EditCommand: Command {
    static let name = "edit"
    static let summary = "change fields of an item; one register write per changed field"
    static let help = """
        usage: tripsync edit ITEM [--title T] [--day YYYY-MM-DD] [--at HH:MM] [--zone ZONE]
                                  [--end YYYY-MM-DDTHH:MM|YYYY-MM-DD] [--end-zone ZONE]
                                  [--place P] [--note N] [--clear FIELD]... [--trip T]

        Writes each field that changes (a field given its current value is not written).
        --day/--at/--zone change the start; --clear start|end|place|note empties a field.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--title", "--day", "--at", "--zone", "--end", "--end-zone", "--place", "--note", "--clear", "--trip"])
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
        let changed: [ItemField] = try Session.edit(global, trip: parser.value("--trip")) { replica in
            let id = try ItemSelector.resolve(selector, in: replica.document)
            guard let item = replica.document.items[id] else { throw CLIError.refused("no item \(selector)") }
            var writes: [(ItemField, FieldValue)] = []
            if let title { writes.append((.title, .text(title))) }
            if let place { writes.append((.place, .text(place))) }
            if let note { writes.append((.note, .text(note))) }
            // Start: combine what was given with the current value.
            let day = parser.value("--day")
            let at = parser.value("--at")
            let zoneOption = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
            let current = item.start?.value ?? nil
            if day != nil || at != nil || zoneOption != nil {
                let currentLocal: LocalDateTime? = { if case .local(let local, _)? = current { return local } else { return nil } }()
                let dayText = day ?? current?.localDate.description
                let atText = at ?? currentLocal.map { pad2($0.hour) + ":" + pad2($0.minute) }
                let zone = zoneOption ?? current?.zone ?? replica.home.defaultZone(for: replica.document.tripID) ?? Placement.mostUsedZone(in: replica.document)
                guard dayText != nil else { throw CLIError.usage("the item has no day yet: give --day", command: name) }
                writes.append((.start, .time(try StartInput.parse(day: dayText, at: atText, zone: zone, command: name))))
            }
            if let endText = parser.value("--end") {
                let endZone = try parser.value("--end-zone").map { try InputParser.zone($0, option: "--end-zone", command: name) }
                    ?? (item.end?.value ?? nil)?.zone ?? current?.zone ?? zoneOption
                writes.append((.end, .time(try InputParser.endValue(endText, zone: endZone, option: "--end", command: name))))
            } else if let endZone = parser.value("--end-zone") {
                let zone = try InputParser.zone(endZone, option: "--end-zone", command: name)
                guard case .local(let local, _)? = item.end?.value ?? nil else { throw CLIError.usage("--end-zone needs a timed end (give --end)", command: name) }
                writes.append((.end, .time(.local(local, zone: zone))))
            }
            if let clear {
                switch clear {
                case "start": writes.append((.start, .time(nil)))
                case "end": writes.append((.end, .time(nil)))
                case "place": writes.append((.place, .text(nil)))
                default: writes.append((.note, .text(nil)))
                }
            }
            guard !writes.isEmpty else { throw CLIError.usage("nothing to change: give at least one field option", command: name) }
            let now = Session.now
            var changed: [ItemField] = []
            try Session.attempt {
                for (field, value) in writes where try replica.document.set(field, of: id, to: value, hlc: &replica.clock, now: now) {
                    changed.append(field)
                }
                if !changed.isEmpty { try replica.registerDevice(now: now) }
            }
            return (!changed.isEmpty, changed)
        }
        Console.out(changed.isEmpty ? "nothing changed" : "saved: " + changed.map(\.rawValue).joined(separator: ", "))
    }

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
