import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// `tripsync-bench hostile [--tombstones N] [--devices N] [--forked N] [--values N] [--repeat R]`:
/// issue 26, finding 6. Side by side in one run, a hostile file (N old tombstones, N devices of
/// which one never acknowledges, N items whose title holds N values under one dot) and a
/// plain file of about the same size: reading and validating one file (`validate`), `merge A B`
/// as the command does it (read both, merge, compact, write), and the first sync of a new home
/// from a folder holding both files (join, merge, compact, publish). Prints the medians and the
/// ratio hostile / plain, which must stay a small number.
enum HostileBenchmark {
    static let usage = "usage: tripsync-bench hostile [--tombstones N] [--devices N] [--forked N] [--values N] [--repeat R]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var tombstones = 100_000
        var devices = 9_990
        var forked = 100
        var values = 1_000
        var repeats = 3
        while let option = parser.nextOption() {
            switch option {
            case "--tombstones": tombstones = try parser.positiveInt(for: option)
            case "--devices": devices = try parser.positiveInt(for: option)
            case "--forked": forked = try parser.positiveInt(for: option)
            case "--values": values = try parser.positiveInt(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let root = NSTemporaryDirectory() + "tripsync-hostile-bench-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hostile = HostileTrip.document(tombstones: tombstones, devices: devices, forkedItems: forked, valuesPerRegister: values)
        let plain = HostileTrip.plain(bytes: hostile.canonicalJSON().count, tombstones: tombstones)
        let hostileFiles = try write([hostile, try HostileTrip.peer(of: hostile)], to: root + "/hostile")
        let plainFiles = try write([plain, try HostileTrip.peer(of: plain)], to: root + "/plain")
        print("hostile: \(tombstones) old tombstones, \(devices) devices (one never acknowledges), \(forked) titles of \(values) values under one dot")
        for (name, files) in [("hostile", hostileFiles), ("plain", plainFiles)] {
            let size = (try? FileManager.default.attributesOfItem(atPath: files.paths[0])[.size] as? Int) ?? 0
            print("  \(name) file: \(Stats.format(Stats.megabytes(files.json))) MB JSON, \(Stats.format(Stats.megabytes(size), decimals: 2)) MB gzip")
        }
        print("operation                        hostile ms    plain ms   hostile/plain")
        var worst = 0.0
        for operation in Operation.allCases {
            // No warm-up run: before the fix one hostile run took minutes.
            var h: [Double] = []
            var p: [Double] = []
            for _ in 0..<repeats {
                h.append(Stats.seconds(try ContinuousClock().measure { try operation.run(hostileFiles.paths, root: root) }))
                p.append(Stats.seconds(try ContinuousClock().measure { try operation.run(plainFiles.paths, root: root) }))
            }
            let (hm, pm) = (Stats.median(h), Stats.median(p))
            let ratio = hm / max(pm, 1e-9)
            worst = max(worst, ratio)
            print(
                operation.rawValue.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + Stats.format(hm * 1000).leftPadded(12) + Stats.format(pm * 1000).leftPadded(12) + Stats.format(ratio, decimals: 2).leftPadded(16))
        }
        print("medians of \(repeats) runs; worst ratio \(Stats.format(worst, decimals: 2)) (a few at most; issue 26 measured 100 before the fix)")
    }

    /// What is timed.
    enum Operation: String, CaseIterable {
        case validate = "validate A (read + validate)"
        case merge = "merge A B (+ compact, write)"
        case sync = "first sync of a new home"

        func run(_ paths: [String], root: String) throws {
            switch self {
            case .validate:
                blackHole(try TripFileReader().read(path: paths[0]))
            case .merge:
                let writer = Identifier(high: 0xBE7C, low: 0x4)
                var result = try FileMerger(writer: writer).merge(files: paths)
                result.document.compact(now: UTCTimestamp.now)
                try result.document.write(to: root + "/merged.trip.json.gz")
            case .sync:
                let home = Home(path: root + "/home-\(UInt32.random(in: 0...UInt32.max))")
                defer { try? FileManager.default.removeItem(atPath: home.path) }
                _ = try home.identity(defaultName: "bench")
                let folder = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().deletingLastPathComponent().path
                let report = try FolderSync(home: home, folder: folder).run()
                guard report.failed.isEmpty else { throw UsageError(message: "the sync failed: \(report.failed)", usage: usage) }
            }
        }
    }

    /// Writes the documents as their writers' files in DIR/TRIP/; returns the paths and the
    /// first document's JSON size.
    static func write(_ documents: [TripDocument], to directory: String) throws -> (paths: [String], json: Int) {
        let tripFolder = directory + "/\(documents[0].tripID)"
        try FileManager.default.createDirectory(atPath: tripFolder, withIntermediateDirectories: true)
        var paths: [String] = []
        for document in documents {
            let path = tripFolder + "/\(document.deviceID).trip.json.gz"
            try document.write(to: path)
            paths.append(path)
        }
        return (paths, documents[0].canonicalJSON().count)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
