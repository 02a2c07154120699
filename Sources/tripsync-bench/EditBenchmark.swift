import Foundation
import TripSync
import TripSyncHome

/// `tripsync-bench edit [--items 10000] [--runs 31] [--binary PATH]`: one `add` and one `edit`
/// on a trip of ITEMS items in a temporary home, each timed end to end (the built binary, from
/// `posix_spawn` to `wait4`), RUNS times; prints median, p90 and max of each, the journal's size
/// at the end, how many runs paid a fold and how many read the trip whole instead of going
/// quick through its view (docs/PERFORMANCE.md, "The edit journal", "The replica view"). Next to
/// them, `fingerprint` (a read of the trip and nothing else) is timed as the floor an edit that
/// reads the trip cannot go below. `--binary` times another build (the one before the journal).
enum EditBenchmark {
    static let usage = "usage: tripsync-bench edit [--items N] [--runs N] [--binary PATH]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var items = 10_000
        var runs = 31
        var binary: String?
        while let option = parser.nextOption() {
            switch option {
            case "--items": items = try parser.positiveInt(for: option)
            case "--runs": runs = try parser.positiveInt(for: option)
            case "--binary": binary = try parser.value(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let bench = ChildProcess.currentExecutable()
        let tripsync = binary ?? (bench as NSString).deletingLastPathComponent + "/tripsync"
        guard FileManager.default.isExecutableFile(atPath: tripsync) else {
            throw BenchError("cannot find the tripsync binary \(tripsync) (build it: swift build -c release --product tripsync)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tripsync-edit-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let home = directory + "/home"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let generated = try GenerateCommand.write(GenerateCommand.document(items: items), items: items, into: directory)
        let environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": directory]
        _ = try ChildProcess.run(executable: tripsync, arguments: ["--home", home, "init", "--device-name", "Bench"], environment: environment)
        _ = try ChildProcess.run(executable: tripsync, arguments: ["--home", home, "import", generated.gzipPath, "--merge"], environment: environment)
        let listing = try Home(path: home).listTrips()
        guard let trip = listing.trips.first, let item = trip.document.items.keys.sorted().first else {
            throw BenchError("the imported trip is not in \(home)")
        }
        let replica = Home(path: home).replicaPath(for: trip.document.tripID)
        let journal = String(replica.dropLast(".trip.json.gz".count)) + ".journal"
        let view = String(replica.dropLast(".trip.json.gz".count)) + ".view"
        var adds: [Double] = []
        var edits: [Double] = []
        var reads: [Double] = []
        var folds = 0
        // Commands that read the trip whole (and so wrote its view anew): the others were quick
        // edits (docs/DESIGN.md, "The replica view").
        var wholeReads = 0
        var quick: [Double] = []
        // Records in the journal now: each edit appends one; a rewrite of the replica folds them.
        var records = 0
        func timed(_ arguments: [String]) throws -> Double {
            let before = stamp(replica)
            let viewBefore = stamp(view)
            let run = try ChildProcess.timed(executable: tripsync, arguments: ["--home", home] + arguments, environment: environment)
            if stamp(view) != viewBefore { wholeReads += 1 } else { quick.append(run.milliseconds) }
            if stamp(replica) != before {
                folds += 1
                records = 0
            } else if FileManager.default.fileExists(atPath: journal) {
                records += 1
            }
            return run.milliseconds
        }
        for index in 0..<runs {
            adds.append(try timed(["add", "Bench \(index)", "--day", "2027-06-07", "--at", "10:00"]))
            edits.append(try timed(["edit", item.description, "--note", "note \(index)"]))
            reads.append(try ChildProcess.timed(executable: tripsync, arguments: ["--home", home, "fingerprint"], environment: environment).milliseconds)
        }
        var info = stat()
        let journalBytes = stat(journal, &info) == 0 ? Int(info.st_size) : 0
        print("\(items) items, \(runs) runs of add + edit (+ fingerprint), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(tripsync)")
        print("  add:          \(summary(adds))")
        print("  edit:         \(summary(edits))")
        print("  fingerprint:  \(summary(reads))  (reads the trip, writes nothing)")
        print("  journal at the end: \(records) records, \(journalBytes) bytes; commands that rewrote the replica whole (a fold): \(folds)")
        print("  commands that read the trip whole and wrote its view: \(wholeReads) of \(runs * 2); the \(quick.count) quick edits: \(quick.isEmpty ? "none" : summary(quick))")
        guard records > 0 else { return }
        // What replaying the journal costs a reader: fingerprint with it, then folded by a sync.
        let fingerprint = ["--home", home, "fingerprint"]
        let withJournal = try (0..<9).map { _ in try ChildProcess.timed(executable: tripsync, arguments: fingerprint, environment: environment).milliseconds }
        let shared = directory + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let sync = try ChildProcess.timed(executable: tripsync, arguments: ["--home", home, "sync", shared], environment: environment).milliseconds
        let folded = try (0..<9).map { _ in try ChildProcess.timed(executable: tripsync, arguments: fingerprint, environment: environment).milliseconds }
        let perRecord = (Stats.median(withJournal) - Stats.median(folded)) / Double(records)
        print(String(format: "  fingerprint with the %d records: median %.1f ms; after a sync folded them (%.1f ms): median %.1f ms; replay ≈ %.3f ms a record",
            records, Stats.median(withJournal), sync, Stats.median(folded), perRecord))
    }

    /// The inode and change time of a file (empty when there is none): a replica rewritten whole
    /// gets a new inode.
    static func stamp(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }

    /// `median X ms, p90 Y ms, max Z ms`.
    static func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
        return String(format: "median %.1f ms, p90 %.1f ms, max %.1f ms", Stats.median(values), p90, sorted.last ?? 0)
    }
}
