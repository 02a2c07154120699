import TripSync

/// `tripsync resolve ITEM FIELD (--keep mine | --keep current | --keep N)`.
enum ResolveCommand: Command {
    static let name = "resolve"
    static let summary = "settle a conflict with a new write"
    static let help = """
        usage: tripsync resolve ITEM FIELD --keep mine|current|N [--trip T]

        Keeps one of a field's values with a new write that has seen them all, so the conflict
        disappears on every replica. mine: the value this device wrote; current: the value shown
        now; N: the alternative numbered N by 'tripsync conflicts'.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--keep", "--trip"])
        try parser.parse(arguments)
        guard parser.positionals.count == 2, let selector = parser.positionals.first, let fieldName = parser.positionals.last else {
            throw CLIError.usage("resolve needs ITEM and FIELD", command: name)
        }
        guard let field = ItemField(rawValue: fieldName) else {
            throw CLIError.usage("FIELD is one of title, start, end, place, note, sortKey; got '\(fieldName)'", command: name)
        }
        guard let keep = parser.value("--keep") else { throw CLIError.usage("resolve needs --keep mine|current|N", command: name) }
        let kept: String = try Session.edit(global, trip: parser.value("--trip")) { replica in
            let id = try ItemSelector.resolve(selector, in: replica.document)
            guard let item = replica.document.items[id] else { throw CLIError.refused("no item \(selector)") }
            let versions = ConflictList.versions(item, field)
            guard let current = versions.first else { throw CLIError.refused("the item has no \(field.rawValue)") }
            let alternatives = versions.dropFirst().filter { $0.value != current.value }
            guard !alternatives.isEmpty else { throw CLIError.refused("\(field.rawValue) of this item has no conflict") }
            let chosen: FieldConflict.Version
            switch keep {
            case "current": chosen = current
            case "mine":
                guard let mine = versions.first(where: { $0.device == replica.identity.deviceID }) else {
                    throw CLIError.refused("this device wrote none of the values; use --keep current or --keep N")
                }
                chosen = mine
            default:
                guard let number = Int(keep), number >= 1, number <= alternatives.count else {
                    throw CLIError.usage("--keep takes mine, current or a number 1…\(alternatives.count), got '\(keep)'", command: name)
                }
                chosen = Array(alternatives)[number - 1]
            }
            let now = Session.now
            try Session.attempt {
                try replica.document.set(field, of: id, to: chosen.value, force: true, hlc: &replica.clock, now: now)
                try replica.registerDevice(now: now)
            }
            return (true, chosen.text)
        }
        Console.out("saved: kept \"\(kept)\"")
    }
}
