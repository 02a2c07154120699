import TripSync
import TripSyncCore

/// `tripsync zone [ZONE] [--trip T]`.
enum ZoneCommand: Command {
    static let spec = CommandSpec(
        name: "zone",
        summary: "show or set the trip's zone (merged like any field)",
        forms: ["[ZONE] [--trip]"],
        about: """
            Without ZONE prints the trip's zone. With ZONE (an IANA id such as Europe/Madrid) sets it:
            one write of the trip's zone, shared with every laptop of the trip and merged like any
            field (two laptops setting it at once keep one zone and show the other as a conflict:
            tripsync conflicts, tripsync resolve trip zone). 'add' without --zone stores times in the
            trip's zone. A well-formed zone this machine's time zone database does not know is set
            with a warning (another laptop may know it); a fixed offset such as +01:00 is refused.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count <= 1 else {
            throw CLIError.usage("zone takes at most one ZONE", command: name)
        }
        guard let typed = parser.positionals.first else {
            let document = try Session.read(global, trip: parser.value("--trip")).trip.document
            let trip = "\"\(document.trip.name.value)\""
            if let zone = document.trip.zone?.value ?? nil {
                Console.out(zone)
            } else {
                Console.err("\(trip) has no zone yet ('add' uses this machine's zone); set one with: tripsync zone ZONE")
            }
            return
        }
        guard ZoneID.isWellFormed(typed) else {
            throw CLIError.usage("ZONE expects an IANA time zone such as Europe/Madrid (never a fixed offset like +01:00), got '\(typed)'", command: name)
        }
        if !ZoneDatabase.isTypeable(typed) {
            Console.warning(
                "zone '\(typed)' is unknown to this machine's time zone database (check the spelling, e.g. America/New_York); set anyway, since another laptop of the trip may know it")
        }
        let (old, changed): (String?, Bool) = try Session.edit(global, trip: parser.value("--trip")) { trip in
            let old = trip.tripZone
            return (old, try trip.setZone(typed))
        }
        if !changed {
            Console.out("the trip's zone is already \(typed); nothing was written")
        } else if let old, old != typed {
            Console.out("the trip's zone is now \(typed) (was \(old))")
        } else {
            Console.out("the trip's zone is now \(typed)")
        }
    }
}
