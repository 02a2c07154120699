import TripSync

/// `tripsync move ITEM (--after ID | --before ID | --first | --last)`.
enum MoveCommand: Command {
    static let spec = CommandSpec(
        name: "move",
        summary: "give an item a new order key between its neighbours",
        forms: ["ITEM (--after | --before | --first | --last) [--trip]"],
        about: """
            Writes a new sortKey between the neighbours, so the item sorts there among items of the
            same day and time. A day lists whole-day items first, then timed items by their time, so
            the order only settles items that tie on it: moving an item next to one of another day
            or time, or --first/--last when no other item shares its time, is refused (exit 1,
            naming both times; nothing is changed). Change the item's time with 'tripsync edit'.
            """,
        options: [
            OptionSpec("--after", .text("ID"), "right after the item ID"),
            OptionSpec("--before", .text("ID"), "right before the item ID"),
            OptionSpec("--first", .flag, "first among items of the same day and time"),
            OptionSpec("--last", .flag, "last among items of the same day and time"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("move needs exactly one ITEM", command: name)
        }
        let choices = [parser.value("--after") != nil, parser.value("--before") != nil, parser.has("--first"), parser.has("--last")]
        guard choices.filter({ $0 }).count == 1 else {
            throw CLIError.usage("move needs exactly one of --after ID, --before ID, --first, --last", command: name)
        }
        let changed = try Session.edit(global, trip: parser.value("--trip")) { trip in
            let id = try trip.item(selector)
            let position: ItemPosition
            if let after = parser.value("--after") {
                position = .after(try trip.item(after))
            } else if let before = parser.value("--before") {
                position = .before(try trip.item(before))
            } else {
                position = parser.has("--last") ? .last : .first
            }
            return try trip.move(id, to: position)
        }
        Console.out(changed ? "saved" : "the item is already there; nothing changed")
    }
}
