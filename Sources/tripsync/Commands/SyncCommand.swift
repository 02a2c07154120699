import Foundation
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncPlatform

/// `tripsync sync FOLDER [--watch] [--json]`.
enum SyncCommand: Command {
    static let spec = CommandSpec(
        name: "sync",
        summary: "exchange every trip of this home with a shared folder",
        forms: ["[FOLDER] [--watch] [--json]"],
        about: """
            Merges every readable trip file in FOLDER/<tripId>/ (other devices' files, cloud
            conflicted copies, "(1)" copies) into this home, then publishes this device's file
            FOLDER/<tripId>/<deviceId>.trip.json.gz atomically. A trip folder this home lacks is
            joined; a trip this home has is published there. Temporary, partial, invalid and
            newer-schema files are skipped with a warning; one bad file never stops the others.
            Another device's file is never changed; our own conflicted copies are removed once
            merged and published. With --watch, syncs again after every change until interrupted.
            Without FOLDER, the folder this home last synced with (recorded for each trip at each
            sync, or the folder of a pending join) is used, and named. It says what changed and by
            whom ("Sam's laptop added 2 items, changed 1, deleted 1"; "you shared 3 changes"), then
            the files it published, merged and skipped.
            """,
        options: [
            OptionSpec("--json", .flag, "print {\"published\", \"merged\", \"skipped\": [{\"file\", \"reason\"}], \"changes\": [{\"device\", \"name\", \"added\", \"changed\", \"deleted\"}], ...}"),
            OptionSpec("--watch", .flag, "keep syncing on change (inotify on Linux, polling elsewhere); Ctrl-C stops"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count <= 1 else { throw CLIError.usage("sync takes one FOLDER", command: name) }
        let json = parser.has("--json")
        let door = TripHome(HomeAccess.home(global))
        let folder = try parser.positionals.first ?? lastFolder(door, json: json)
        let progress: (@Sendable (SyncProgress) -> Void)? = Console.stderrIsTerminal ? showProgress : nil
        _ = try HomeAccess.identity(global)
        guard parser.has("--watch") else {
            try once(door, folder: folder, progress: progress, json: json)
            return
        }
        try SyncWatch.run(door, folder: folder, progress: progress, json: json)
    }

    /// A sync's progress on the terminal: the trip when there are more than 5, and how far the
    /// copy of a large attachment (1 MiB or more) is.
    @Sendable static func showProgress(_ progress: SyncProgress) {
        switch progress {
        case .trip(let done, let total):
            if total > 5 { Console.progress("syncing trip \(done + 1) of \(total)…") }
        case .attachment(let name, let done, let total, let fetching):
            guard total >= 1 << 20 else { return }
            let percent = total > 0 ? done * 100 / total : 100
            Console.progress("\(fetching ? "fetching" : "sharing") \(PrintableText.escapeControls(name)): \(percent)% of \(ByteCount.text(total))")
        }
    }

    /// The folder the door's one rule picks when none is given (`TripHome.syncFolder`, the
    /// folder this home last synced with), told on stdout (stderr with --json); a usage error
    /// when none is recorded or the trips used different ones (`Failure.lastFolder`).
    static func lastFolder(_ door: TripHome, json: Bool) throws -> String {
        let folder = try door.syncFolder()
        let line = "syncing with \(folder) (the last folder used)"
        if json { Console.err(line) } else { Console.out(line) }
        return folder
    }

    /// Runs one sync through the door and prints its report. Throws `CLIError.refused` (exit 1)
    /// when the sync could not run, or when some trip could not be synced (after the report of
    /// every trip is printed).
    static func once(_ door: TripHome, folder: String, progress: (@Sendable (SyncProgress) -> Void)?, json: Bool) throws {
        let report = try Failure.during(.syncing(folder: folder)) {
            defer { Console.clearProgress() }
            return try door.sync(with: folder, progress: progress)
        }
        try show(report, of: door, folder: folder, json: json)
        if !report.failed.isEmpty {
            throw Failure.tripsNotSynced(report)
        }
    }

    /// Prints a sync's report. With `watching`, a human line starts with the local time and is
    /// printed only for a round that did something.
    static func show(_ report: SyncReport, of door: TripHome, folder: String, json: Bool, watching: Bool = false) throws {
        let stamp = watching ? timestamp() + " " : ""
        for problem in report.lastFolderProblems { Console.warning(stamp + problem) }
        if !report.joined.isEmpty {
            // A joined trip may be named like one this home has: say so (lookups by name list both).
            let shared: [(name: String, trips: [TripID])]
            do {
                shared = try door.home.listTrips().sharedNames
            } catch {
                shared = []
                Console.warning("\(stamp)\(error) (cannot check whether a joined trip's name is taken)")
            }
            for shared in shared {
                Console.warning(
                    "\(stamp)\(shared.trips.count) trips of this home are now named \"\(shared.name)\" (\(shared.trips.map { String($0.description.prefix(8)) }.joined(separator: ", "))); "
                        + "'tripsync rename --trip ID NAME' tells them apart")
            }
        }
        for warning in report.warnings { Console.warning(stamp + warning) }
        // A folder anyone can write into may hold thousands of files to skip: a few lines, then
        // one summing up the rest (`--json` lists every one).
        let shownSkips = 20
        for skipped in report.skipped.prefix(shownSkips) { Console.warning("\(stamp)\(skipped.file): skipped: \(RemedyText.line(skipped.reason, skipped.remedy))") }
        if report.skipped.count > shownSkips {
            Console.warning("\(stamp)… and \(report.skipped.count - shownSkips) more files skipped (tripsync sync --json lists them)")
        }
        if let rekeyed = report.rekeyed {
            Console.warning(
                "\(stamp)\(rekeyed.reason): this home looks copied or restored, so this installation now writes as a new device \(rekeyed.new) (it never writes as \(rekeyed.old) again) and keeps that device's role in each owned trip (a succession signed by its key); nothing was lost")
        }
        for trip in report.trips {
            let name = trip.name.map { "\"\($0)\"" } ?? trip.tripID.description
            for fork in trip.forks {
                Console.warning(
                    "\(stamp)\(fork.file): device \(fork.device) wrote two different values under one rev (a copied or restored home) in \(name), at \(fork.pointers.prefix(3).joined(separator: ", "))\(fork.pointers.count > 3 ? " and \(fork.pointers.count - 3) more" : ""); both values are kept as conflicts")
            }
            // With --json the notices are in the report (trips[].notices); stdout holds only JSON.
            for notice in trip.notices.map({ RemedyText.line($0.text, $0.remedy) }) {
                if json { Console.err("\(stamp)\(name): \(notice)") } else { Console.out("\(stamp)\(name): \(notice)") }
            }
            if let failure = trip.failure { Console.error("\(stamp)trip \(name) not synced: \(failure)") }
        }
        if json {
            try Console.json(report)
        } else if !watching || report.didSomething {
            // What changed, by whom, in words; the files after it, as a detail.
            // What changed, by whom, in words; the files after it, as a detail (on the same line
            // while watching: one line per round).
            // Trips by name (then by what is told), not by their random ids.
            let told = report.trips.map { (trip: $0, parts: changeParts($0)) }.filter { !$0.parts.isEmpty }
                .sorted { ($0.trip.name ?? $0.trip.tripID.description, $0.parts.joined()) < ($1.trip.name ?? $1.trip.tripID.description, $1.parts.joined()) }
            var files = "files: published \(report.published.count), merged \(report.merged.count), "
                + "\(report.unchanged.count) unchanged, \(report.skipped.count) skipped"
                + (report.joined.isEmpty ? "" : ", joined \(plural(report.joined.count, "trip"))")
                + (report.removed.isEmpty ? "" : ", removed \(plural(report.removed.count, "own conflicted copy", "own conflicted copies"))")
            if !report.failed.isEmpty { files += "; \(plural(report.failed.count, "trip")) not synced" }
            if report.trips.count <= 1 || told.isEmpty {
                let line = "\(stamp)synced with \(folder): " + (told.first.map { $0.parts.joined(separator: "; ") } ?? "nothing new")
                Console.out(watching ? line + " (\(files))" : line)
            } else {
                Console.out("\(stamp)synced with \(folder):" + (watching ? " (\(files))" : ""))
                for (trip, parts) in told { Console.out("\(stamp)  \(trip.name.map { "\"\($0)\"" } ?? trip.tripID.description): " + parts.joined(separator: "; ")) }
            }
            if !watching { Console.out("  " + files) }
            for trip in report.trips where trip.newConflicts > 0 {
                Console.out("\(stamp)\(plural(trip.newConflicts, "new conflict")) in \(trip.name ?? trip.tripID.description): tripsync conflicts --trip \(trip.tripID.description.prefix(8))")
            }
        }
    }

    /// What a sync did to one trip, in words: "joined", "Sam's laptop added 2 items, changed 1,
    /// deleted 1" for each other device, "you shared 3 changes".
    static func changeParts(_ trip: SyncReport.Trip) -> [String] {
        guard trip.failure == nil else { return [] }
        var parts: [String] = trip.joined ? ["joined"] : []
        for device in trip.changes {
            var verbs: [String] = []
            for (count, verb) in [(device.added, "added"), (device.changed, "changed"), (device.deleted, "deleted")] where count > 0 {
                verbs.append(verbs.isEmpty ? "\(verb) \(plural(count, "item"))" : "\(verb) \(count)")
            }
            parts.append("\(device.name) " + verbs.joined(separator: ", "))
        }
        if trip.sharedChanges > 0 { parts.append("you shared \(plural(trip.sharedChanges, "change"))") }
        return parts
    }

    /// The local time of day, `HH:MM:SS`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
