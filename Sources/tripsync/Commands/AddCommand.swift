import TripSync
import TripSyncCore

/// `tripsync add TITLE [...]`.
enum AddCommand: Command {
    static let spec = CommandSpec(
        name: "add",
        summary: "add an item; prints its id",
        forms: ["TITLE [--day] [--at] [--zone] [--end] [--end-zone] [--place] [--note] [--after | --before] [--trip]"],
        about: """
            Adds an item, prints its id, and says on stderr what it stored (day, time, zone). --day
            alone makes a whole-day item; --day with --at a timed one in --zone (default: the trip's
            zone, 'tripsync zone'; a trip without one uses this machine's zone and says so). A
            flight lands in another zone: --end 2027-06-10T13:00 --end-zone America/New_York.
            Without --after or --before the item goes last among items of the same time.
            """,
        options: [
            OptionSpec("--day", .text("YYYY-MM-DD"), "the item's day; alone, a whole-day item"),
            OptionSpec("--at", .text("HH:MM"), "the start time on --day, in --zone"),
            OptionSpec("--zone", .text("ZONE"), "the start's zone (default: the trip's zone)"),
            OptionSpec("--end", .text("YYYY-MM-DDTHH:MM|YYYY-MM-DD"), "when it ends: a time, or a last day"),
            OptionSpec("--end-zone", .text("ZONE"), "the end's zone, where it differs (a flight's arrival)"),
            OptionSpec("--place", .text("P"), "where it happens"),
            OptionSpec("--note", .text("N"), "a note (several lines allowed)"),
            OptionSpec("--after", .text("ID"), "put it right after the item ID among items of the same time"),
            OptionSpec("--before", .text("ID"), "put it right before the item ID among items of the same time"),
            .trip,
        ])


    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
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
        let typedZone = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
        let typedEndZone = try parser.value("--end-zone").map { try InputParser.zone($0, option: "--end-zone", command: name) }
        var machineZoneUsed: String?
        // What the edit reads besides the trip's small parts: the neighbours of its place.
        let placement: QuickEdit.Placement = parser.value("--after").map { .after($0) } ?? parser.value("--before").map { .before($0) } ?? .last
        let (id, stored): (ItemID, TripTime?) = try Session.edit(global, trip: parser.value("--trip"), needs: QuickEdit.Needs(placement: placement)) { trip in
            machineZoneUsed = nil
            var zone = typedZone ?? trip.suggestedZone
            if zone == nil, parser.value("--at") != nil, let machine = ViewerZone.machine()?.id, ZoneDatabase.isTypeable(machine) {
                zone = machine
                machineZoneUsed = machine
            }
            let start = try StartInput.parse(day: parser.value("--day"), at: parser.value("--at"), zone: zone, command: name)
            let endZone = typedEndZone ?? start?.zone ?? zone
            let end = try parser.value("--end").map { try InputParser.endValue($0, zone: endZone, option: "--end", command: name) }
            try InputParser.order(start: start, end: end, hint: "give a later --end", command: name)
            let position: ItemPosition
            if let after = parser.value("--after") {
                position = .after(try trip.item(after))
            } else if let before = parser.value("--before") {
                position = .before(try trip.item(before))
            } else {
                position = .last
            }
            return (try trip.addItem(NewItem(title: title, start: start, end: end, place: place, note: note), at: position), start)
        }
        if let machineZoneUsed, typedZone == nil {
            Console.err("the trip has no zone: used this machine's zone \(machineZoneUsed) (set the trip's: tripsync zone ZONE)")
        }
        Console.err("added \"\(title)\"" + StoredTime.describe(stored))
        Console.out(id.description)
    }
}

/// What `add` says it stored: ` on Thu 10 Jun 2027 at 21:00 Europe/Madrid`, ` on Thu 10 Jun
/// 2027 (whole day)`, or ` with no day`.
enum StoredTime {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func day(_ date: LocalDate) -> String {
        String(LocalTimeFormat.weekday(date).prefix(3)) + " \(date.day) \(months[date.month - 1]) \(date.year)"
    }

    static func describe(_ time: TripTime?) -> String {
        switch time {
        case nil: return " with no day"
        case .date(let date)?: return " on \(day(date)) (whole day)"
        case .local(let local, let zone)?:
            return " on \(day(local.date)) at " + String(local.description.suffix(5)) + " \(zone)"
        }
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
