import TripSync

/// `tripsync new NAME [--zone ZONE]`.
enum NewCommand: Command {
    static let name = "new"
    static let summary = "create a trip; prints its id"
    static let help = """
        usage: tripsync new NAME [--zone ZONE]

        Creates a trip in this home and prints its id. --zone sets the zone that 'add' uses when
        none is given (a local setting of this home, e.g. Europe/Lisbon).
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--zone"])
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let tripName = parser.positionals.first else {
            throw CLIError.usage("new needs exactly one NAME (quote it if it has spaces)", command: name)
        }
        let title = try InputParser.text(tripName, option: "NAME", rule: .name, command: name)
        let zone = try parser.value("--zone").map { try InputParser.zone($0, option: "--zone", command: name) }
        let home = HomeAccess.home(global)
        let lock = try HomeLockAccess.take(home)
        var identity = try HomeAccess.identity(global)
        let tripID = Identifier.random()
        var clock = HybridLogicalClock(highWater: identity.highWater)
        let now = Session.now
        guard let counter = clock.next(nowMilliseconds: now) else { throw CLIError.refused("this device's clock is too far ahead") }
        let rev = Rev(counter: counter, device: identity.deviceID)
        var document = TripDocument(
            tripID: tripID, deviceID: identity.deviceID, clock: VersionVector([identity.deviceID: counter]),
            trip: TripInfo(name: Register(value: title, rev: rev)))
        document.clock.include(rev)
        identity.highWater = max(identity.highWater, counter)
        var replica = LocalReplica(home: home, identity: identity, document: document)
        replica.clock = clock
        try Session.attempt { try replica.registerDevice(now: now) }
        do {
            try replica.save()
            if let zone { try home.setDefaultZone(zone, for: tripID) }
        } catch {
            throw CLIError.refused("\(home.path): cannot save: \(error)")
        }
        withExtendedLifetime(lock) {}
        Console.out(tripID.description)
    }
}
