import TripSync

/// `tripsync add TITLE [...]`.
enum AddCommand: Command {
    static let name = "add"
    static let summary = "add an item; prints its id"
    static let help = """
        usage: tripsync add TITLE [--day YYYY-MM-DD] [--at HH:MM] [--zone ZONE]
                                  [--end YYYY-MM-DDTHH:MM|YYYY-MM-DD] [--end-zone ZONE]
                                  [--place P] [--note N] [--after ID | --before ID] [--trip T]

        Adds an item and prints its id. --day alone makes a whole-day item; --day with --at a
        timed one in --zone (default: the trip's zone from 'new --zone'). A flight lands in
        another zone: --end 2027-06-10T13:00 --end-zone America/New_York. Without --after or
        --before the item goes last among items of the same time.
        """

    static let values: Set<String> = ["--day", "--at", "--zone", "--end", "--end-zone", "--place", "--note", "--after", "--before", "--trip"]

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: values)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let rawTitle = parser.positionals.first else {
            throw CLIError.usage("add needs exactly one TITLE (quote it if it has spaces)", command: name)
        }
        if parser.value("--after") != nil && parser.value("--before") != nil {
            throw CLIError.usage("give --after or --before, not both", command: name)
        }
        let title = try InputParser.text(rawTitle, option: "TITLE", rule: .title, command: name)
        let place = try parser.value("--place").map { try InputParser.text($0, option: "--place", rule: .place, command: name) }
        let note = try parser.value("--note").map { try InputParser.text($0, option: "--note", rule: .note, command: name) }
        let id = Identifier.random()
        try Session.edit(global, trip: parser.value("--trip")) { replica in
            let typedZone = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
            let zone = typedZone ?? HomeAccess.defaultZone(replica.home, for: replica.document.tripID) ?? Placement.mostUsedZone(in: replica.document)
            let start = try StartInput.parse(day: parser.value("--day"), at: parser.value("--at"), zone: zone, command: name)
            let endZone = try parser.value("--end-zone").map { try InputParser.zone($0, option: "--end-zone", command: name) } ?? start?.zone ?? zone
            let end = try parser.value("--end").map { try InputParser.endValue($0, zone: endZone, option: "--end", command: name) }
            try InputParser.order(start: start, end: end, hint: "give a later --end", command: name)
            let sortKey = try Placement.key(after: parser.value("--after"), before: parser.value("--before"), last: true, in: replica.document, moving: nil)
            let now = Session.now
            try Session.attempt {
                try replica.registerDevice(now: now)
                try replica.document.addItem(
                    id, NewItem(title: title, sortKey: sortKey, start: start, end: end, place: place, note: note), hlc: &replica.clock, now: now)
            }
            return (true, ())
        }
        Console.out(id.description)
    }
}

/// Builds a start from `--day`, `--at` and a zone.
enum StartInput {
    static func parse(day: String?, at: String?, zone: String?, command: String) throws -> TripTime? {
        guard let day else {
            if at != nil { throw CLIError.usage("--at needs --day", command: command) }
            return nil
        }
        let date = try InputParser.date(day, option: "--day", command: command)
        guard let at else { return .date(date) }
        let (hour, minute) = try InputParser.time(at, option: "--at", command: command)
        guard let zone else {
            throw CLIError.usage("a time needs a zone: give --zone (or set the trip's zone with 'new --zone')", command: command)
        }
        guard let local = LocalDateTime(date: date, hour: hour, minute: minute) else {
            throw CLIError.usage("--at expects HH:MM", command: command)
        }
        return .local(local, zone: zone)
    }
}

/// Chooses order keys for `--after`, `--before`, `--first`, `--last`.
enum Placement {
    /// The zone most items start in (ties: the id that sorts first): the default for a home that
    /// joined a trip and so has no zone of its own set.
    static func mostUsedZone(in document: TripDocument) -> String? {
        var counts: [String: Int] = [:]
        for item in document.items.values { if let zone = item.start?.value?.zone { counts[zone, default: 0] += 1 } }
        return counts.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key
    }

    static func key(after: String?, before: String?, last: Bool, in document: TripDocument, moving: ItemID?) throws -> String {
        let ordered = document.items.filter { $0.key != moving }
            .compactMap { entry in entry.value.sortKey.map { (id: entry.key, key: $0.value) } }
            .sorted { $0.key == $1.key ? $0.id < $1.id : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        var lower: String?
        var upper: String?
        if let after {
            let id = try ItemSelector.resolve(after, in: document)
            guard let index = ordered.firstIndex(where: { $0.id == id }) else { throw CLIError.refused("cannot place an item after itself") }
            lower = ordered[index].key
            upper = ordered[(index + 1)...].first(where: { $0.key != lower })?.key
        } else if let before {
            let id = try ItemSelector.resolve(before, in: document)
            guard let index = ordered.firstIndex(where: { $0.id == id }) else { throw CLIError.refused("cannot place an item before itself") }
            upper = ordered[index].key
            lower = ordered[..<index].last(where: { $0.key != upper })?.key
        } else if last {
            lower = ordered.last?.key
        } else {
            upper = ordered.first?.key
        }
        guard let key = SortKey.between(lower, upper) else {
            throw CLIError.refused("no order key fits there (a neighbour's key is invalid); move a neighbour first")
        }
        return key
    }
}
