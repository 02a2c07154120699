import Foundation
import TripSyncCore
import TripSyncFixtures

/// `tripsync-bench sealed-sync [--items 10000] [--repeat 7]`: what end-to-end encryption costs a
/// sync (issue 43: within 1.3× of an open trip's), measured on the release `tripsync` next to
/// this binary, as a person runs it. The same generated trip of ITEMS items is set up twice in
/// one run: open (plain gzip files), and owned by laptop A with laptop B an editor (every file
/// sealed). Then, alternating the two, A edits one note and syncs (it reads B's file, merges,
/// seals and writes its own), and B syncs (it opens A's file, merges, seals and writes its
/// own). Each `sync` process is timed from spawn to reap; medians in ms and the ratios.
enum SyncSealedBenchmark {
    static let usage = "usage: tripsync-bench sealed-sync [--items N] [--repeat R]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var items = 10_000
        var repeats = 7
        while let option = parser.nextOption() {
            switch option {
            case "--items": items = try parser.positiveInt(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let bench = ChildProcess.currentExecutable()
        let tripsync = (bench as NSString).deletingLastPathComponent + "/tripsync"
        guard FileManager.default.isExecutableFile(atPath: tripsync) else {
            throw BenchError("cannot find the tripsync binary next to \(bench) (build it: swift build -c release)")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tripsync-sealed-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        var generator = TripGenerator(seed: 43, deviceCount: 3)
        let document = generator.document(itemCount: items, name: "Sealed sync benchmark")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let source = root + "/trip.trip.json.gz"
        try document.write(to: source)
        guard let item = document.items.keys.sorted().first else { throw BenchError("the generated trip has no item") }
        let setups = try [false, true].map { sealed in try Setup(root: root + (sealed ? "/sealed" : "/open"), tripsync: tripsync, source: source, sealed: sealed) }
        var times: [[Double]] = [[], [], [], []]  // open A, open B, sealed A, sealed B
        for round in 0..<repeats {
            for (index, setup) in setups.enumerated() {
                try setup.cli("A", ["edit", String(item.description.prefix(8)), "--note", "round \(round)"])
                times[index * 2].append(try setup.timedSync("A"))
                times[index * 2 + 1].append(try setup.timedSync("B"))
            }
        }
        let sizes = try setups.map { setup in try setup.fileSize("A") }
        let medians = times.map { Stats.median($0) }
        print("sealed-sync: \(items) items, \(repeats) rounds, release tripsync, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print(String(format: "  open trip:   A's file %d bytes; A edits and syncs %.1f ms, B syncs %.1f ms", sizes[0], medians[0], medians[1]))
        print(String(format: "  sealed trip: A's file %d bytes; A edits and syncs %.1f ms, B syncs %.1f ms", sizes[1], medians[2], medians[3]))
        print(String(format: "  sealed / open: A %.2f×, B %.2f×", medians[2] / medians[0], medians[3] / medians[1]))
        let opened = try setups[1].cli("B", ["show"])
        guard opened.contains("round \(repeats - 1)") else { throw BenchError("the sealed trip's last edit did not reach B") }
    }

    /// One trip on two laptops meeting in a folder.
    struct Setup {
        let root: String
        let tripsync: String
        var folder: String { root + "/shared" }

        init(root: String, tripsync: String, source: String, sealed: Bool) throws {
            self.root = root
            self.tripsync = tripsync
            try FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
            try cli("A", ["init", "--device-name", "Laptop A"])
            try cli("A", ["import", source, "--merge"])
            if sealed {
                try cli("A", ["members", "claim"])
                try cli("A", ["sync", folder])
                let code = try cli("A", ["invite", "--role", "editor"]).trimmingCharacters(in: .whitespacesAndNewlines)
                try cli("B", ["init", "--device-name", "Laptop B"])
                try cli("B", ["join", code, folder])
                for who in ["A", "B", "A", "B"] { try cli(who, ["sync", folder]) }
            } else {
                try cli("A", ["sync", folder])
                try cli("B", ["init", "--device-name", "Laptop B"])
                for who in ["B", "A", "B"] { try cli(who, ["sync", folder]) }
            }
            let file = try fileBytes("A")
            guard file.withUnsafeBytes({ SealedFile.isSealed($0) }) == sealed else {
                throw BenchError("A's file is \(sealed ? "not sealed" : "sealed") in the \(sealed ? "sealed" : "open") setup")
            }
        }

        @discardableResult
        func cli(_ who: String, _ arguments: [String]) throws -> String {
            try ChildProcess.run(executable: tripsync, arguments: ["--home", root + "/" + who] + arguments)
        }

        func timedSync(_ who: String) throws -> Double {
            try ChildProcess.timed(executable: tripsync, arguments: ["--home", root + "/" + who, "sync", folder], environment: ProcessInfo.processInfo.environment)
                .milliseconds
        }

        func fileBytes(_ who: String) throws -> [UInt8] {
            let device = try String(contentsOfFile: root + "/\(who)/device.json", encoding: .utf8)
            guard let json = try JSONSerialization.jsonObject(with: Data(device.utf8)) as? [String: Any], let id = json["deviceId"] as? String else {
                throw BenchError("no device id in \(root)/\(who)/device.json")
            }
            let trips = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
            guard let trip = trips.first else { throw BenchError("no trip folder in \(folder)") }
            return try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/\(trip)/\(id).trip.json.gz")))
        }

        func fileSize(_ who: String) throws -> Int { try fileBytes(who).count }
    }
}
