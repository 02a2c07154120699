import Foundation
import TripSync

/// `tripsync import FILE [--merge | --replace] [--yes]`.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "show what a trip file holds, then merge it in or replace the local copy"
    static let help = """
        usage: tripsync import FILE [--merge | --replace] [--yes]

        Reads FILE as untrusted input and shows what it holds (schema, trip, items, deleted
        items, conflicts, devices, newest change). On a terminal it then asks
        "[m]erge, [r]eplace or [c]ancel (default: cancel)?" (an empty answer cancels); elsewhere
        give --merge or --replace with --yes. --merge merges it into this home's copy of the
        trip (or adds the trip); --replace makes it the local copy: it first lists the changes
        of this device that were never published and that FILE does not hold (on a terminal
        you type 'replace' to discard them), then keeps the local copy in
        HOME/trips/backups/ and names it, so 'tripsync import BACKUP --replace' undoes it.
        This installation's device id never changes. A backup older than the tombstone
        retention is named as such. A trip whose replica in this home cannot be read is
        refused; the other trips of the home do not matter.
        """

    /// What the person chose.
    enum Mode {
        case merge, replace
    }

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
        let listing = try HomeAccess.listing(home)
        if let broken = listing.unreadable(incoming.tripID) {
            // This trip's own replica is broken: merging into it or replacing it would decide
            // from a file nobody could read. Refuse, changing nothing.
            HomeAccess.warnAll(listing, except: broken)
            throw HomeAccess.refusal(broken)
        }
        HomeAccess.warnAll(listing)
        let existing = listing.trip(incoming.tripID)
        describe(loaded, file: file, existing: existing?.document, now: now)
        let interactive = Console.stdinIsTerminal && !parser.has("--yes")
        let mode: Mode
        if interactive {
            guard let answer = ImportPrompt.choose(existing: existing != nil) else {
                Console.out("cancelled: nothing was changed")
                return
            }
            mode = answer
        } else if parser.has("--yes"), parser.has("--merge") || parser.has("--replace") {
            mode = parser.has("--merge") ? .merge : .replace
        } else {
            throw CLIError.usage("not on a terminal: give --merge or --replace together with --yes (nothing was changed)", command: name)
        }
        var document = incoming
        var backup: String?
        if let existing, mode == .merge {
            do {
                document = try DocumentMerger.merge(existing.document, incoming, writer: identity.deviceID)
            } catch {
                throw CLIError.refused("\(file): \(error)")
            }
        } else if let existing {
            let status = DeliveryStatus(existing.document, me: identity.deviceID, now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)))
            let discarded = status.unpublishedChanges(notSeenBy: incoming)
            if !discarded.isEmpty {
                Console.warning(
                    "replacing discards \(plural(discarded.count, "change")) of this device that \(discarded.count == 1 ? "was" : "were") never published and that \(file) does not hold:")
                for (title, fields) in grouped(discarded) { Console.err("  \"\(title)\": " + fields.joined(separator: ", ")) }
                if interactive {
                    Console.err("type 'replace' to discard them (anything else cancels): ", newline: false)
                    let answer = readLine()?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                    guard answer == "replace" else {
                        if answer == nil { Console.err("") }
                        Console.out("cancelled: nothing was changed")
                        return
                    }
                }
            }
            do {
                backup = try home.keepBackup(of: existing.document, nowMilliseconds: now)
            } catch {
                throw CLIError.refused("\(home.backupsPath): cannot keep a backup of the local copy: \(error); nothing was changed")
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
        Console.out("saved: \(mode == .replace || existing == nil ? "the trip now holds" : "merged; the trip now holds") "
            + "\(plural(replica.document.items.count, "item")), \(plural(replica.document.tombstones.count, "deleted item")), "
            + ConflictSummary(replica.document).description)
        if let backup {
            Console.out("the previous copy is kept at \(backup); 'tripsync import \(backup) --replace' undoes this")
        }
    }

    /// The changes by item (or trip name, device name), each item once in the order first met,
    /// its fields in the order they were written.
    static func grouped(_ changes: [DeliveryStatus.Change]) -> [(title: String, fields: [String])] {
        var groups: [(key: String, title: String, fields: [String])] = []
        for change in changes {
            let key = change.item.map(\.description) ?? change.field + ":" + change.title
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].fields.insert(change.field, at: 0)
            } else {
                groups.append((key, change.title, [change.field]))
            }
        }
        return groups.map { ($0.title, $0.fields) }
    }

    static func describe(_ loaded: LoadedTrip, file: String, existing: TripDocument?, now: UInt64) {
        let document = loaded.document
        let newest = document.clock.maxCounter
        Console.out("\(file): schema \(loaded.sourceSchemaVersion)\(loaded.sourceSchemaVersion < TripDocument.currentSchemaVersion ? " (migrated in memory)" : "")")
        Console.out("  trip \"\(document.trip.name.value)\" (\(document.tripID))")
        Console.out("  \(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item")), \(ConflictSummary(document))")
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

/// The question `import` asks on a terminal: only exact answers count, the default cancels.
enum ImportPrompt {
    /// How many times the question is asked before it cancels.
    static let attempts = 3

    /// What one answer means: a mode, cancel, or not an answer (asked again).
    enum Answer: Equatable {
        case mode(ImportCommand.Mode)
        case cancel
        case invalid
    }

    /// Reads an answer: `m`/`merge`, `r`/`replace`, `c`/`cancel` (any case, spaces trimmed);
    /// an empty line cancels.
    static func parse(_ line: String) -> Answer {
        switch line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "m", "merge": return .mode(.merge)
        case "r", "replace": return .mode(.replace)
        case "", "c", "cancel": return .cancel
        default: return .invalid
        }
    }

    /// Asks until an answer counts (at most `attempts` times); nil cancels (also at the end
    /// of input).
    static func choose(existing: Bool) -> ImportCommand.Mode? {
        Console.err(
            existing
                ? "merge: merge the file into this home's copy; replace: make the file the local copy (the current one is kept as a backup)"
                : "merge or replace: add this trip to the home")
        for _ in 0..<attempts {
            Console.err("[m]erge, [r]eplace or [c]ancel (default: cancel)? ", newline: false)
            guard let line = readLine() else {
                Console.err("")
                return nil
            }
            switch parse(line) {
            case .mode(let mode): return mode
            case .cancel: return nil
            case .invalid: Console.err("please answer m, r or c")
            }
        }
        return nil
    }
}
