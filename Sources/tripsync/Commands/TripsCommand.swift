import TripSync

/// `tripsync trips [--json]`.
enum TripsCommand: Command {
    static let name = "trips"
    static let summary = "list the trips in this home"
    static let help = """
        usage: tripsync trips [--json]

        Lists the trips of this home: id, name, items, deleted items, conflicts.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, flags: ["--json"])
        try parser.parse(arguments)
        let home = HomeAccess.home(global)
        _ = try HomeAccess.identity(global)
        let trips: [LoadedTrip]
        do { trips = try home.trips() } catch let error as TripFileError { throw CLIError.file(error) }
        let rows = trips.map(\.document).sorted { $0.trip.name.value < $1.trip.name.value }
        if parser.has("--json") {
            Console.out(
                JSONValue.array(
                    rows.map { document in
                        [
                            "tripId": .string(document.tripID.description), "name": .string(document.trip.name.value),
                            "items": .int(Int64(document.items.count)), "tombstones": .int(Int64(document.tombstones.count)),
                            "conflicts": .int(Int64(document.visibleConflictCount)),
                        ]
                    }
                ).text)
            return
        }
        if rows.isEmpty {
            Console.out("no trips yet; create one with: tripsync new \"Lisbon 2027\"")
            return
        }
        for document in rows {
            Console.out(
                "\(document.tripID)  \(document.trip.name.value)  (\(plural(document.items.count, "item")), "
                    + "\(plural(document.tombstones.count, "deleted item")), \(plural(document.visibleConflictCount, "conflict")))")
        }
    }
}
