import TripSync
import TripSyncHome

/// `tripsync init [--device-name NAME]`.
enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        summary: "create the home and this installation's device id (done on first use anyway)",
        forms: ["[--device-name]"],
        about: """
            Creates the home (--home, $TRIPSYNC_HOME or ~/.tripsync) and this installation's device
            identity. With --device-name, names (or renames) this device, e.g. "Sam's laptop".
            """,
        options: [
            OptionSpec("--device-name", .text("NAME"), "this device's name, as companions see it"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.isEmpty else { throw CLIError.usage("init takes no arguments", command: name) }
        let home = HomeAccess.home(global)
        let lock = try HomeLockAccess.take(home)
        var identity = try HomeAccess.identity(global)
        if let deviceName = parser.value("--device-name") {
            identity.name = try InputParser.text(deviceName, option: "--device-name", rule: .name, command: name)
            try Failure.during(.saving(home.path)) { try home.save(identity) }
        }
        withExtendedLifetime(lock) {}
        Console.out("home \(home.path)")
        Console.out("device \(identity.deviceID) (\(identity.name))")
    }
}

/// Takes a home's lock for commands that do not open a trip.
enum HomeLockAccess {
    static func take(_ home: Home) throws -> HomeLock {
        try HomeLock(home: home)
    }
}
