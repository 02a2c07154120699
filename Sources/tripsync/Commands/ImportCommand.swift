import Foundation
import TripSync
import TripSyncPlatform
import TripSyncCore

/// `tripsync import FILE [--merge | --replace] [--yes]`.
enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import",
        summary: "show what a trip file holds, then merge it in or replace the local copy",
        forms: ["FILE [--merge | --replace] [--yes]"],
        about: """
            Reads FILE as untrusted input and shows what it holds (schema, trip, items, deleted
            items, conflicts, devices, newest change). On a terminal it then asks
            "[m]erge, [r]eplace or [c]ancel (default: cancel)?" (an empty answer cancels). --merge,
            which loses nothing, is never asked about; --replace needs --yes where there is no
            terminal. --merge merges it into this home's copy of the
            trip (or adds the trip); --replace makes it the local copy: it first lists the changes
            of this device that were never published and that FILE does not hold (on a terminal
            you type 'replace' to discard them), then keeps the local copy in
            HOME/trips/backups/ and names it, so 'tripsync import BACKUP --replace' undoes it.
            This installation's device id never changes. A backup older than the tombstone
            retention is named as such. A trip whose replica in this home cannot be read is
            refused; the other trips of the home do not matter.
            """,
        options: [
            OptionSpec("--merge", .flag, "merge FILE into this home's copy (loses nothing)"),
            OptionSpec("--replace", .flag, "make FILE the local copy (the old one is kept as a backup)"),
            OptionSpec("--yes", .flag, "replace without asking (needed without a terminal)"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let file = parser.positionals.first else {
            throw CLIError.usage("import needs exactly one FILE", command: name)
        }
        if parser.has("--merge") && parser.has("--replace") { throw CLIError.usage("give --merge or --replace, not both", command: name) }
        let home = HomeAccess.home(global)
        let door = TripHome(home)
        let plan: TripImport
        do {
            plan = try door.prepareImport(file: file)
        } catch let thrown where TripError.cause(of: thrown) is TripStoreError {
            guard let error = TripError.cause(of: thrown) as? TripStoreError else { throw thrown }
            if case .unreadable(let broken) = error {
                // The other trips' unreadable files are told too, as every command tells them.
                do { HomeAccess.warnAll(try home.listTrips(), except: broken) } catch { Console.warning("\(error)") }
            }
            throw Session.refusal(error, home: home)
        }
        for warning in plan.incoming.warnings { Console.warning("\(file): \(warning)") }
        if let notice = plan.notice { Console.warning(notice) }
        for unreadable in plan.skipped { HomeAccess.warn(unreadable) }
        describe(plan)
        // --merge loses nothing, so it is never asked about; --replace can discard changes, so
        // it is confirmed on a terminal and needs --yes elsewhere.
        let interactive = !parser.has("--merge") && Console.stdinIsTerminal && !parser.has("--yes")
        let mode: TripImport.Mode
        if parser.has("--merge") {
            mode = .merge
        } else if interactive {
            guard let answer = ImportPrompt.choose(existing: plan.existing != nil) else {
                Console.out("cancelled: nothing was changed")
                return
            }
            mode = answer
        } else if parser.has("--replace") {
            guard parser.has("--yes") else {
                throw CLIError.usage("not on a terminal: --replace needs --yes (it can discard changes; nothing was changed)", command: name)
            }
            mode = .replace
        } else {
            throw CLIError.usage("not on a terminal: give --merge, or --replace together with --yes (nothing was changed)", command: name)
        }
        if mode == .replace, case let discarded = plan.discardedByReplace, !discarded.isEmpty {
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
        let outcome = try Failure.during(.importing(file: file, replica: home.replicaPath(for: plan.incoming.document.tripID)), home: home) {
            try door.apply(plan, mode)
        }
        for notice in outcome.notices { Console.warning(notice) }
        let document = outcome.document
        Console.out("saved: \(mode == .replace || plan.existing == nil ? "the trip now holds" : "merged; the trip now holds") "
            + "\(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item")), "
            + ConflictSummary(document).description)
        if let backup = outcome.backup {
            Console.out("the previous copy is kept at \(backup); 'tripsync import \(backup) --replace' undoes this")
        }
    }

    /// The changes by item (or trip name, device name), each item once in the order first met,
    /// its fields in the order they were written.
    static func grouped(_ changes: [DeliveryStatus.Change]) -> [(title: String, fields: [String])] {
        var groups: [(key: String, title: String, fields: [String])] = []
        for change in changes {
            // An attachment's changes carry its item's id and their own title ("photo.jpg on …").
            let key = change.item.map { $0.description + ":" + change.title } ?? change.field + ":" + change.title
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].fields.insert(change.field, at: 0)
            } else {
                groups.append((key, change.title, [change.field]))
            }
        }
        return groups.map { ($0.title, $0.fields) }
    }

    static func describe(_ plan: TripImport) {
        let loaded = plan.incoming
        let document = loaded.document
        Console.out("\(plan.file): schema \(loaded.sourceSchemaVersion)\(loaded.sourceSchemaVersion < TripDocument.currentSchemaVersion ? " (migrated in memory)" : "")")
        Console.out("  trip \"\(document.trip.name.value)\" (\(document.tripID))")
        let attachments = document.attachments.values.filter { !$0.isDetached }.count
        Console.out(
            "  \(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item")), "
                + (attachments > 0 ? "\(plural(attachments, "attachment")), " : "") + "\(ConflictSummary(document))")
        Console.out("  devices: " + (document.devices.isEmpty ? "none named" : document.devices.keys.sorted().map { document.deviceName($0) }.joined(separator: ", ")))
        Console.out("  newest change: about \(plan.newestChange)")
        guard let existing = plan.existing else {
            Console.out("  this home does not hold this trip yet")
            return
        }
        if let days = plan.daysPastRetention {
            let revived = plan.deletedHere
            Console.warning(
                "\(plan.file) is older than the 90-day tombstone retention (\(days) days); it holds \(plural(revived.count, "item")) deleted here"
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
        case mode(TripImport.Mode)
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
    static func choose(existing: Bool) -> TripImport.Mode? {
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
