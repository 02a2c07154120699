import TripSync
import TripSyncCore

/// `tripsync fingerprint [FILE]`.
enum FingerprintCommand: Command {
    static let spec = CommandSpec(
        name: "fingerprint",
        summary: "a digest of the replicated state: equal exactly when two replicas hold the same trip",
        forms: ["[FILE] [--trip]"],
        about: """
            Prints a SHA-256 hex digest of the replicated state of FILE (or of this home's trip):
            everything but the writer's deviceId and acks, which differ between replicas of one
            state. Two replicas print the same value exactly when they hold the same trip.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count <= 1 else { throw CLIError.usage("fingerprint takes at most one FILE", command: name) }
        let document: TripDocument
        if let file = parser.positionals.first {
            let home = HomeAccess.home(global)
            document = try TripFile.read(file, home: home.exists ? home : nil).document
        } else {
            document = try Session.read(global, trip: parser.value("--trip")).trip.document
        }
        Console.out(document.fingerprint)
    }
}
