import TripSync
import TripSyncCore

/// `tripsync forget [--yes] [--trip T]`.
enum ForgetCommand: Command {
    static let spec = CommandSpec(
        name: "forget",
        summary: "remove a trip from this home only (asks; never touches a shared folder)",
        forms: ["[--yes] [--trip]"],
        about: """
            Removes the trip from this home: its replica and its local settings. It asks first on
            a terminal (y/N); without a terminal it needs --yes. A copy of the replica is kept in
            HOME/trips/backups/ ('tripsync import FILE --merge' brings it back), and so is this
            home's membership of the trip (and its owner key, if this home holds it). Shared
            folders are never touched: the copies there remain, and 'tripsync sync FOLDER' with one
            of them brings the trip back.
            """,
        options: [
            OptionSpec("--yes", .flag, "forget without asking (needed without a terminal)"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.isEmpty else { throw CLIError.usage("forget takes no arguments (pick the trip with --trip)", command: name) }
        if !parser.has("--yes") && !Confirm.canAsk {
            throw CLIError.usage("forget asks before it removes a trip, and there is no terminal to ask on: give --yes", command: name)
        }
        var selector = parser.value("--trip")
        if !parser.has("--yes") {
            // Asked without the home's lock (a person may take their time); the backup that
            // forget keeps is made under the lock, so nothing written meanwhile is lost.
            let (trip, me) = try Session.read(global, trip: selector)
            let document = trip.document
            let unpublished = DeliveryStatus(document, me: me.deviceID, now: .now).unpublished
            Console.out(
                "trip \"\(document.trip.name.value)\" (\(document.tripID)): \(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item"))")
            if unpublished > 0 {
                Console.out("\(plural(unpublished, "change")) of this device \(unpublished == 1 ? "is" : "are") in no shared folder yet (the backup kept here holds them)")
            }
            guard Confirm.ask("Forget it from this home (y/N)? ") else {
                Console.out("nothing was removed")
                throw CLIError.silentFailure
            }
            selector = document.tripID.description
        }
        let store = try Session.store(global, trip: selector)
        let forgotten = try Failure.during(.forgetting(store.path)) { try store.forget() }
        Console.out("forgot \"\(forgotten.name)\" (\(forgotten.tripID)) from this home:")
        for path in forgotten.removed { Console.out("  removed \(path)") }
        Console.out("  kept a copy: \(forgotten.backup) ('tripsync import FILE --merge' brings it back)")
        if forgotten.unpublished > 0 {
            // Said even after --yes: these changes are now only in that copy.
            Console.warning("\(plural(forgotten.unpublished, "change")) of this device \(forgotten.unpublished == 1 ? "was" : "were") in no shared folder; only the copy kept here holds \(forgotten.unpublished == 1 ? "it" : "them")")
        }
        if let access = forgotten.keptAccess { Console.out("  kept \(access) (this home's membership of the trip, and its owner key if it holds one)") }
        Console.out("the copies in shared folders remain; 'tripsync sync FOLDER' with one of them brings the trip back")
    }
}
