import TripSync
import TripSyncCore
import TripSyncPlatform

/// `tripsync new NAME [--zone ZONE] [--open]`.
enum NewCommand: Command {
    static let spec = CommandSpec(
        name: "new",
        summary: "create a trip; prints its id",
        forms: ["NAME [--zone] [--open | --owned]"],
        about: """
            Creates a trip this laptop owns in this home and prints its id: its owner key stays in
            this home, the trip id is derived from it, and other laptops join by invite (tripsync
            invite, tripsync join). --zone sets the trip's zone, which 'add' uses on every laptop when
            none is given (e.g. Europe/Lisbon; without --zone, this machine's zone, said on stderr;
            'tripsync zone ZONE' changes it). --open makes an open trip instead, as before
            members existed: any laptop that syncs the folder may write, until 'tripsync members
            claim'. (--owned, the default, is accepted too.)
            """,
        options: [
            OptionSpec("--zone", .text("ZONE"), "the trip's zone (default: this machine's)"),
            OptionSpec("--open", .flag, "an open trip: any laptop that syncs the folder may write"),
            OptionSpec("--owned", .flag, "a trip this laptop owns (the default)"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let tripName = parser.positionals.first else {
            throw CLIError.usage("new needs exactly one NAME (quote it if it has spaces)", command: name)
        }
        if parser.has("--owned") && parser.has("--open") {
            throw CLIError.usage("--owned and --open exclude each other", command: name)
        }
        let title = try InputParser.text(tripName, option: "NAME", rule: .name, command: name)
        let typedZone = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
        // Without --zone the trip takes this machine's zone, and says so.
        let machineZone = typedZone == nil ? ViewerZone.machine().map(\.id).flatMap { ZoneDatabase.isTypeable($0) ? $0 : nil } : nil
        let zone = typedZone ?? machineZone
        let home = HomeAccess.home(global)
        let store = try Failure.during(.saving(home.path), home: home) {
            try TripHome(home).create(name: title, zone: zone, owned: !parser.has("--open"))
        }
        for notice in store.notices { Console.warning(notice) }
        if typedZone == nil {
            if let machineZone {
                Console.err("the trip's zone is \(machineZone), this machine's zone (change it: tripsync zone ZONE)")
            } else {
                Console.err("this machine's zone is not a zone of its time zone database, so the trip has no zone yet (set one: tripsync zone ZONE)")
            }
        }
        let tripID = store.tripID
        Console.out(tripID.description)
    }
}
