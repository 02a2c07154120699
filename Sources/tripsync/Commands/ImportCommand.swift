import TripSync

/// `tripsync import FILE [--merge | --replace] [--yes]`.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "show what a trip file holds, then merge it in or replace the local copy"
    static let help = """
        usage: tripsync import FILE [--merge | --replace] [--yes]

        Reads FILE as untrusted input and shows what it holds (schema, trip, items, deleted
        items, conflicts, devices, newest change). On a terminal it then asks; elsewhere give
        --merge or --replace with --yes. --merge merges it into this home's copy of the trip
        (or adds the trip); --replace makes it the local copy. This installation's device id
        never changes. A backup older than the tombstone retention is named as such.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, flags: ["--merge", "--replace", "--yes"])
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let file = parser.positionals.first else {
            throw CLIError.usage("import needs exactly one FILE", command: name)
        }
        if parser.has("--merge") && parser.has("--replace") { throw CLIError.usage("give --merge or --replace, not both", command: name) }
        let loaded: LoadedTrip
        do { loaded = try TripFileReader().read(path: file) } catch { throw CLIError.file(error) }
        for warning in loaded.warnings { Console.warning("\(file): \(warning)") }
        let incoming = loaded.document
        let now = Session.now
        if let (device, skew) = ClockGuard.futureDevice(in: incoming, nowMilliseconds: now) {
            throw CLIError.refused("\(file): " + ClockGuard.describe(device: device, skewMilliseconds: skew))
        }
        let home = HomeAccess.home(global)
        let lock = try HomeLockAccess.take(home)
        let identity = try HomeAccess.identity(global)
        let existing = (try? home.trips())?.first { $0.document.tripID == incoming.tripID }
        describe(loaded, file: file, existing: existing?.document, now: now)
        var mode = parser.has("--merge") ? "merge" : parser.has("--replace") ? "replace" : nil
        if Console.stdinIsTerminal && !parser.has("--yes") {
            Console.err("merge it in (m), replace the local copy (r), or cancel (c)? ", newline: false)
            switch readLine()?.lowercased().first {
            case "m": mode = "merge"
            case "r": mode = "replace"
            default:
                Console.out("cancelled: nothing was changed")
                return
            }
        } else if mode == nil || !parser.has("--yes") {
            throw CLIError.usage("not on a terminal: give --merge or --replace together with --yes (nothing was changed)", command: name)
        }
        var document = incoming
        if let existing, mode == "merge" {
            do {
                document = try DocumentMerger.merge(existing.document, incoming, writer: identity.deviceID)
            } catch {
                throw CLIError.refused("\(file): \(error)")
            }
        } else if let existing {
            let status = DeliveryStatus(existing.document, me: identity.deviceID, now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)))
            if status.unpublished > 0 {
                Console.warning("replacing discards \(plural(status.unpublished, "change")) of this device that were never published")
            }
        }
        var replica = LocalReplica(home: home, identity: identity, document: document)
        for notice in replica.notices { Console.warning(notice) }
        do {
            try Session.attempt { try replica.registerDevice(now: now) }
            try replica.save()
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.refused("\(replica.path): cannot save: \(error)")
        }
        withExtendedLifetime(lock) {}
        Console.out("saved: \(mode == "replace" || existing == nil ? "the trip now holds" : "merged; the trip now holds") "
            + "\(plural(replica.document.items.count, "item")), \(plural(replica.document.tombstones.count, "deleted item")), "
            + "\(plural(replica.document.visibleConflictCount, "conflict"))")
    }

    static func describe(_ loaded: LoadedTrip, file: String, existing: TripDocument?, now: UInt64) {
        let document = loaded.document
        let newest = document.clock.maxCounter
        Console.out("\(file): schema \(loaded.sourceSchemaVersion)\(loaded.sourceSchemaVersion < TripDocument.currentSchemaVersion ? " (migrated in memory)" : "")")
        Console.out("  trip \"\(document.trip.name.value)\" (\(document.tripID))")
        Console.out("  \(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item")), \(plural(document.visibleConflictCount, "conflict"))")
        Console.out("  devices: " + (document.devices.isEmpty ? "none named" : document.devices.keys.sorted().map { document.deviceName($0) }.joined(separator: ", ")))
        Console.out("  newest change: about \(UTCTimestamp(secondsSinceEpoch: Int64(newest / 1000)))")
        guard let existing else {
            Console.out("  this home does not hold this trip yet")
            return
        }
        // A backup older than the retention: the items it holds that are deleted here.
        let age = Int64(now / 1000) - Int64(newest / 1000)
        if age > RetentionPolicy.standard.retentionSeconds {
            let revived = document.items.keys.filter { existing.tombstones[$0] != nil }
            Console.warning(
                "\(file) is older than the 90-day tombstone retention (\(age / 86_400) days); it holds \(plural(revived.count, "item")) deleted here"
                    + (revived.isEmpty ? "" : " (" + revived.prefix(5).compactMap { existing.tombstones[$0]?.item.title?.value ?? document.items[$0]?.title?.value }.joined(separator: ", ") + "), which stay deleted"))
        }
    }
}
