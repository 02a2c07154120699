import Foundation
import TripSync

/// What `scripts/bench-crdt.py compare --json` reports for one engine (the fields used here).
struct CRDTEngineResult: Decodable {
    struct Milliseconds: Decodable {
        var median: Double
        var min: Double
    }

    var engine: String
    var version: String?
    var totalMS: Milliseconds
    var peakRSSKiB: Int
    var conflictValuesKept: Int
    var conflictValuesLost: Int

    enum CodingKeys: String, CodingKey {
        case engine, version
        case totalMS = "total_ms"
        case peakRSSKiB = "peak_rss_kib"
        case conflictValuesKept = "conflict_values_kept"
        case conflictValuesLost = "conflict_values_lost"
    }
}

/// The part of the script's report this benchmark reads.
struct CRDTReport: Decodable {
    struct Expected: Decodable {
        var conflictingFields: Int
        enum CodingKeys: String, CodingKey { case conflictingFields = "conflicting_fields" }
    }

    var expected: Expected
    var repeats: Int
    var engines: [CRDTEngineResult]
}

/// One size of the comparison.
struct CompareRow {
    var items: Int
    var ours: [Double]
    var ourPeakBytes: Int
    var conflictingFields: Int
    var engines: [CRDTEngineResult]
    /// The format's floor (`--floor`), each mode's wall times, timed as `ours` and alternating
    /// with it: `none` (inflate, deflate, durable write), `first` (and a strict parse of A),
    /// `ondemand` (and of both).
    var floors: [(mode: String, milliseconds: [Double])] = []
}

/// `tripsync-bench compare [--sizes 10000,100000] [--repeat R]`: `tripsync merge A B -o M`
/// end to end (a child process of the release `tripsync` next to this binary: read gzip,
/// validate, merge, write gzip durably) side by side with Loro and Yrs loading, merging and saving
/// the same scenario (`scripts/bench-crdt.py`), in one run, alternating. Prints a Markdown table.
///
/// `--floor PATH` adds the format's floor, timed like `tripsync merge` and alternating with it
/// run by run: `scripts/floor/merge-floor.cc` built at PATH, which does only what any engine
/// writing TripSync's format must (inflate both inputs, compress the output at the same level,
/// save it durably): without parsing, with simdjson's strict parse of A, and of both inputs.
enum CompareCommand {
    static let usage = "usage: tripsync-bench compare [--sizes 10000,100000] [--repeat R] [--script PATH] [--floor PATH]"
    /// The floor's modes, in the order they are run and shown.
    static let floorModes = ["none", "first", "ondemand"]

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var sizes = [10_000, 100_000]
        var explicitRepeats: Int?
        var script = "scripts/bench-crdt.py"
        var floor: String?
        while let option = parser.nextOption() {
            switch option {
            case "--floor": floor = try parser.value(for: option)
            case "--sizes": sizes = try parser.positiveIntList(for: option)
            case "--repeat": explicitRepeats = try parser.positiveInt(for: option)
            case "--script": script = try parser.value(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        guard FileManager.default.fileExists(atPath: script) else {
            throw BenchError("cannot find \(script) (run from the package root or pass --script)")
        }
        if let floor, !FileManager.default.isExecutableFile(atPath: floor) {
            throw BenchError("cannot run the floor \(floor) (build scripts/floor/merge-floor.cc: see its first lines)")
        }
        let bench = ChildProcess.currentExecutable()
        let tripsync = (bench as NSString).deletingLastPathComponent + "/tripsync"
        guard FileManager.default.isExecutableFile(atPath: tripsync) else {
            throw BenchError("cannot find the tripsync binary next to \(bench) (build it: swift build -c release)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tripsync-compare-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let home = directory + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TRIPSYNC_HOME"] = home

        var rows: [CompareRow] = []
        for items in sizes {
            let repeats = explicitRepeats ?? (items <= 10_000 ? 5 : 3)
            let folder = directory + "/n\(items)"
            ReadWriteBenchmark.progress("\(items) items: writing the scenario pair")
            let pair = try GenerateCommand.writeMergePair(items: items, into: folder)
            let output = folder + "/m.trip.json.gz"
            var ourPeak = 0
            var floors = floor == nil ? [] : floorModes.map { (mode: $0, milliseconds: [Double]()) }
            var measuring = false
            // Each merge is followed by one run of each floor mode, so they meet the same machine.
            let merge = { () throws -> Double in
                let run = try ChildProcess.timed(
                    executable: tripsync, arguments: ["merge", pair.a, pair.b, "-o", output, "--force"], environment: environment)
                ourPeak = max(ourPeak, run.peakRSSBytes)
                if let floor {
                    for index in floors.indices {
                        let arguments = ["--parse=" + floors[index].mode, pair.a, pair.b, folder + "/floor.trip.json.gz"]
                        let time = try ChildProcess.timed(executable: floor, arguments: arguments, environment: environment)
                        if measuring { floors[index].milliseconds.append(time.milliseconds) }
                    }
                }
                return run.milliseconds
            }
            ReadWriteBenchmark.progress("\(items) items: tripsync merge, 1 warm-up + \(repeats) runs, the engines in between")
            _ = try merge()
            measuring = true
            var ours: [Double] = []
            for _ in 0..<(repeats + 1) / 2 { ours.append(try merge()) }
            ReadWriteBenchmark.progress("\(items) items: \(script) compare (Loro, Yrs)")
            let report = try crdt(script: script, a: pair.a, b: pair.b, repeats: explicitRepeats)
            while ours.count < repeats { ours.append(try merge()) }
            rows.append(
                CompareRow(
                    items: items, ours: ours, ourPeakBytes: ourPeak,
                    conflictingFields: report.expected.conflictingFields, engines: report.engines, floors: floors))
        }
        print(markdown(rows))
    }

    /// Runs the engines' script once and decodes its JSON report.
    static func crdt(script: String, a: String, b: String, repeats: Int?) throws -> CRDTReport {
        var arguments = ["python3", script, "compare", "--a", a, "--b", b, "--json"]
        if let repeats { arguments += ["--repeat", String(repeats)] }
        let output = try ChildProcess.run(executable: "/usr/bin/env", arguments: arguments)
        return try JSONDecoder().decode(CRDTReport.self, from: Data(output.utf8))
    }

    static func markdown(_ rows: [CompareRow]) -> String {
        let ms = { (value: Double) in Stats.format(value, decimals: 0) }
        let mb = { (bytes: Int) in Stats.format(Stats.megabytes(bytes), decimals: 0) }
        func engine(_ row: CompareRow, _ name: String) -> CRDTEngineResult? { row.engines.first { $0.engine == name } }
        var lines = [
            "Command: `\(CommandLine.arguments.joined(separator: " "))`",
            "nproc: \(ProcessInfo.processInfo.activeProcessorCount)" + (ReadWriteBenchmark.cpuModel().map { ", CPU: \($0)" } ?? ""),
            "",
            "| size (items) | TripSync ms (median / min) | Loro ms (median / min) | Yrs ms (median / min) | TripSync peak MB | Loro peak MB | Yrs peak MB | conflicting values kept |",
            "|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for row in rows {
            let loro = engine(row, "loro")
            let yrs = engine(row, "pycrdt")
            let time = { (result: CRDTEngineResult?) in result.map { "\(ms($0.totalMS.median)) / \(ms($0.totalMS.min))" } ?? "n/a" }
            let peak = { (result: CRDTEngineResult?) in result.map { mb($0.peakRSSKiB * 1024) } ?? "n/a" }
            let lost = { (result: CRDTEngineResult?) in result.map { "lost \($0.conflictValuesLost)" } ?? "n/a" }
            let cells = [
                String(row.items),
                "\(ms(Stats.median(row.ours))) / \(ms(row.ours.min() ?? 0))",
                time(loro), time(yrs),
                mb(row.ourPeakBytes), peak(loro), peak(yrs),
                "TripSync: all \(2 * row.conflictingFields) / Loro: \(lost(loro)) / Yrs: \(lost(yrs))",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "MB = 10^6 bytes. TripSync: wall time of `tripsync merge A B -o M.trip.json.gz` as a child process of",
            "the release binary, from `posix_spawn` to `wait4` (start, read both gzip files, validate, merge, compact,",
            "write gzip with fsync, exit), after one warm-up run; the engines' script ran once per size between",
            "TripSync's runs. Loro and Yrs (PyPI `loro`, `pycrdt`): load A, import B, save, inside one Python process",
            "(`scripts/bench-crdt.py`, its own median and min). Peak: the largest `ru_maxrss` of the timed `tripsync",
            "merge` processes, and VmHWM of the engines' timed-run process. Conflicting values: both values of every field the two sides changed;",
            "TripSync keeps the loser in `conflicts`, the engines keep one value per map key.",
        ]
        if rows.contains(where: { !$0.floors.isEmpty }) { lines += floorTable(rows) }
        return lines.joined(separator: "\n")
    }

    /// The floors next to TripSync, each as a ratio to the faster engine.
    static func floorTable(_ rows: [CompareRow]) -> [String] {
        let ms = { (value: Double) in Stats.format(value, decimals: 0) }
        var lines = [
            "",
            "| size (items) | faster engine ms | TripSync ms (ratio) | floor: inflate, deflate, durable write (ratio) | floor: and a strict parse of A (ratio) | floor: and of A and B (ratio) |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows where !row.floors.isEmpty {
            guard let fastest = row.engines.map(\.totalMS.median).min(), fastest > 0 else { continue }
            let cell = { (values: [Double]) in
                values.isEmpty ? "n/a" : "\(ms(Stats.median(values))) (\(Stats.format(Stats.median(values) / fastest, decimals: 2)))"
            }
            lines.append("| \(row.items) | \(ms(fastest)) | \(cell(row.ours)) | " + row.floors.map { cell($0.milliseconds) }.joined(separator: " | ") + " |")
        }
        lines += [
            "",
            "Floors: `scripts/floor/merge-floor.cc` (C++, libdeflate and simdjson), timed as `tripsync merge` is, one run of",
            "each after every timed merge: it inflates both inputs, writes A's JSON (the merged document's size) as gzip",
            "members at libdeflate level 1 on both cores, durably (fsync, rename, fsync of the folder); the second also",
            "parses A with simdjson On-Demand and reads every field of every item, the third parses A and B so.",
            "No model, no schema, no merge. Ratios: to the faster engine's median.",
        ]
        return lines
    }
}
