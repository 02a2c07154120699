import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// `tripsync-bench sync-noop [--trips 200] [--devices 5] [--items 20] [--attachments N]`: a
/// shared folder with TRIPS trips × DEVICES device files; times the first sync of a home (which
/// merges them all) and then no-op syncs (nothing changed: every file skipped by size, mtime,
/// inode and clock). With `--attachments N`, the same folder is built twice, without and with N
/// attachments (1 KiB blobs in the folder) in the first trip, and both no-op syncs are timed
/// side by side in one run (issue 17: within 20%, no blob read).
enum SyncBenchmark {
    static let usage = "usage: tripsync-bench sync-noop [--trips N] [--devices N] [--items N] [--attachments N]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var trips = 200
        var devices = 5
        var items = 20
        var attachments = 0
        while let option = parser.nextOption() {
            switch option {
            case "--attachments": attachments = try parser.positiveInt(for: option)
            case "--trips": trips = try parser.positiveInt(for: option)
            case "--devices": devices = try parser.positiveInt(for: option)
            case "--items": items = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        if attachments == 0 {
            let (first, join, noop, last) = try measure(trips: trips, devices: devices, items: items, attachments: 0)
            print("shared folder: \(trips) trips × \(devices) device files (\(items) items each), \(ProcessInfo.processInfo.activeProcessorCount) cores")
            print("first sync (join every trip, merge \(first.merged.count) files, publish \(first.published.count)): \(ms(join))")
            print("no-op sync (\(last.unchanged.count) files unchanged, \(last.merged.count) merged): median \(ms(noop[noop.count / 2])), min \(ms(noop[0]))")
            return
        }
        print("shared folder: \(trips) trips × \(devices) device files (\(items) items each), \(ProcessInfo.processInfo.activeProcessorCount) cores; no-op syncs, 9 runs each")
        var medians: [Duration] = []
        for count in [0, attachments] {
            let (first, _, noop, _) = try measure(trips: trips, devices: devices, items: items, attachments: count)
            let median = noop[noop.count / 2]
            medians.append(median)
            let fetched = first.trips.flatMap(\.notices).count
            print("  \(count == 0 ? "without attachments" : "with \(count) attachments in one trip"): median \(ms(median)), min \(ms(noop[0]))\(fetched > 0 ? " (\(fetched) notices in the first sync)" : "")")
        }
        let ratio = seconds(medians[1]) / max(seconds(medians[0]), 1e-9)
        print(String(format: "  with / without: %.2f", ratio))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func ms(_ duration: Duration) -> String {
        String(format: "%.1f ms", seconds(duration) * 1000)
    }

    /// Builds the folder (the first trip with `attachments` attachments, their 1 KiB blobs in
    /// the trip folder), syncs a new home once (fetching the blobs), then times no-op syncs.
    static func measure(trips: Int, devices: Int, items: Int, attachments: Int) throws -> (SyncReport, Duration, [Duration], SyncReport) {
        let root = NSTemporaryDirectory() + "tripsync-sync-bench-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Each trip: DEVICES files, each the trip as one device published it.
        for index in 0..<trips {
            var generator = TripGenerator(seed: UInt64(index + 1), deviceCount: devices)
            var document = generator.document(itemCount: items, name: "Trip \(index)")
            let tripFolder = folder + "/\(document.tripID)"
            try FileManager.default.createDirectory(atPath: tripFolder, withIntermediateDirectories: true)
            if index == 0 && attachments > 0 {
                try FileManager.default.createDirectory(atPath: tripFolder + "/blobs", withIntermediateDirectories: true)
                var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
                let itemIDs = document.items.keys.sorted()
                for number in 0..<attachments {
                    var bytes = [UInt8](repeating: 0, count: 1024)
                    for offset in 0..<8 { bytes[offset] = UInt8(truncatingIfNeeded: number >> (8 * offset)) }
                    let blob = BlobID(of: bytes)
                    try Data(bytes).write(to: URL(fileURLWithPath: tripFolder + "/blobs/" + blob.hex))
                    try document.attach(
                        Identifier.random(), item: itemIDs[number % itemIDs.count],
                        blob: BlobReference(sha256: blob.hex, size: 1024, type: "application/octet-stream"), name: "file-\(number).bin",
                        caption: nil, hlc: &hlc, now: document.clock.maxCounter + 1)
                }
            }
            for device in generator.devices {
                var copy = document
                copy.deviceID = device
                try copy.write(to: tripFolder + "/\(device).trip.json.gz")
            }
        }
        let home = Home(path: root + "/home")
        _ = try home.identity(defaultName: "bench")
        let sync = FolderSync(home: home, folder: folder)
        let clock = ContinuousClock()
        var first = SyncReport()
        let joinTime = try clock.measure { first = try sync.run() }
        _ = try sync.run()  // the first no-op after a join publishes nothing new; settle it
        var noop: [Duration] = []
        var last = SyncReport()
        for _ in 0..<9 { noop.append(try clock.measure { last = try sync.run() }) }
        noop.sort()
        return (first, joinTime, noop, last)
    }
}
