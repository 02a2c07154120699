import Foundation
import TripSync

/// `tripsync sync FOLDER [--watch] [--json]`.
enum SyncCommand: Command {
    static let name = "sync"
    static let summary = "exchange every trip of this home with a shared folder"
    static let help = """
        usage: tripsync sync FOLDER [--watch] [--json]

        Merges every readable trip file in FOLDER/<tripId>/ (other devices' files, cloud
        conflicted copies, "(1)" copies) into this home, then publishes this device's file
        FOLDER/<tripId>/<deviceId>.trip.json.gz atomically. A trip folder this home lacks is
        joined; a trip this home has is published there. Temporary, partial, invalid and
        newer-schema files are skipped with a warning; one bad file never stops the others.
        Another device's file is never changed; our own conflicted copies are removed once
        merged and published. With --watch, syncs again after every change until interrupted.

        options:
          --json     print {"published", "merged", "skipped": [{"file", "reason"}], ...}
          --watch    keep syncing on change (inotify on Linux, polling elsewhere); Ctrl-C stops
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, flags: ["--json", "--watch"])
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let folder = parser.positionals.first else {
            throw CLIError.usage("sync needs exactly one FOLDER", command: name)
        }
        var sync = FolderSync(home: HomeAccess.home(global), folder: folder)
        if Console.stderrIsTerminal {
            sync.progress = { done, total in if total > 5 { Console.progress("syncing trip \(done + 1) of \(total)…") } }
        }
        _ = try HomeAccess.identity(global)
        try once(sync, json: parser.has("--json"))
        guard parser.has("--watch") else { return }
        try SyncWatch.run(sync, global: global, json: parser.has("--json"))
    }

    /// Runs one sync and prints its report. With `watching`, a human line starts with the local
    /// time and is printed only for a round that did something.
    @discardableResult
    static func once(_ sync: FolderSync, json: Bool, watching: Bool = false) throws -> SyncReport {
        let report: SyncReport
        do {
            report = try sync.run()
            Console.clearProgress()
        } catch {
            Console.clearProgress()
            throw CLIError.refused("\(sync.folder): \(error)")
        }
        for skipped in report.skipped { Console.warning("\(skipped.file): skipped: \(skipped.reason)") }
        if let rekeyed = report.rekeyed {
            Console.warning("\(rekeyed.reason): this home looks copied or restored, so this installation now writes as a new device \(rekeyed.new) (it never writes as \(rekeyed.old) again); nothing was lost")
        }
        if json {
            let published: JSONValue = report.published.count == 1 ? .string(report.published[0]) : .array(report.published.map { .string($0) })
            Console.out(
                JSONValue.object([
                    "published": published,
                    "merged": .array(report.merged.map { .string($0) }),
                    "unchanged": .array(report.unchanged.map { .string($0) }),
                    "skipped": .array(report.skipped.map { ["file": .string($0.file), "reason": .string($0.reason)] }),
                    "joined": .array(report.joined.map { .string($0.description) }),
                    "removed": .array(report.removed.map { .string($0) }),
                    "rekeyed": report.rekeyed.map { ["old": .string($0.old.description), "new": .string($0.new.description)] } ?? .null,
                ]).text)
            return report
        }
        Console.out(
            "synced with \(sync.folder): published \(plural(report.published.count, "file")), merged \(plural(report.merged.count, "file")), "
                + "\(report.unchanged.count) unchanged, \(report.skipped.count) skipped"
                + (report.joined.isEmpty ? "" : ", joined \(plural(report.joined.count, "trip"))")
                + (report.removed.isEmpty ? "" : ", removed \(plural(report.removed.count, "own conflicted copy", "own conflicted copies"))"))
        return report
    }
}
