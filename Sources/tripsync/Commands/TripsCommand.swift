import TripSync
import TripSyncCore

/// `tripsync trips [--json]`.
enum TripsCommand: Command {
    static let spec = CommandSpec(
        name: "trips",
        summary: "list the trips in this home",
        forms: ["[--json]"],
        about: """
            Lists the trips of this home: id, name, items, deleted items, conflicts (fields and
            items edited while deleted). A trip file that cannot be read is named on stderr and
            skipped; the other trips are listed.
            """,
        options: [
            OptionSpec("--json", .flag, "one JSON value on stdout"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let home = HomeAccess.home(global)
        _ = try HomeAccess.existingIdentity(global)
        let listing = try HomeAccess.listing(home)
        HomeAccess.warnAll(listing)
        let rows = listing.trips.map(\.document).sorted { $0.trip.name.value < $1.trip.name.value }
        if parser.has("--json") {
            try Console.json(rows.map(TripSummary.init))
            return
        }
        if rows.isEmpty {
            Console.out(
                listing.unreadable.isEmpty
                    ? "no trips yet; create one with: tripsync new \"Lisbon 2027\""
                    : "no readable trips (\(plural(listing.unreadable.count, "file")) skipped, see above)")
            return
        }
        for document in rows {
            Console.out(
                "\(document.tripID)  \(document.trip.name.value)  \(plural(document.items.count, "item")), "
                    + "\(plural(document.tombstones.count, "deleted item")), \(ConflictSummary(document))")
        }
    }
}

/// `{"fields": n, "editedWhileDeleted": n}`: the parts of a `"conflicts"` total in `--json` output.
