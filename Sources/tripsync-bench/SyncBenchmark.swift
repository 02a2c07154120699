import Foundation
import TripSync
import TripSyncFixtures

/// `tripsync-bench sync-noop [--trips 200] [--devices 5] [--items 20]`: a shared folder with
/// TRIPS trips × DEVICES device files; times the first sync of a home (which merges them all)
/// and then no-op syncs (nothing changed: every file skipped by size, mtime, inode and clock).
enum SyncBenchmark {
    static let usage = "usage: tripsync-bench sync-noop [--trips N] [--devices N] [--items N]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var trips = 200
        var devices = 5
        var items = 20
        while let option = parser.nextOption() {
            switch option {
            case "--trips": trips = try parser.positiveInt(for: option)
            case "--devices": devices = try parser.positiveInt(for: option)
            case "--items": items = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let root = NSTemporaryDirectory() + "tripsync-sync-bench-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Each trip: DEVICES files, each the trip as one device published it.
        for index in 0..<trips {
            var generator = TripGenerator(seed: UInt64(index + 1), deviceCount: devices)
            let document = generator.document(itemCount: items, name: "Trip \(index)")
            try FileManager.default.createDirectory(atPath: folder + "/\(document.tripID)", withIntermediateDirectories: true)
            for device in generator.devices {
                var copy = document
                copy.deviceID = device
                try copy.write(to: folder + "/\(document.tripID)/\(device).trip.json.gz")
            }
        }
        let home = Home(path: root + "/home")
        _ = try home.identity(defaultName: "bench")
        let sync = FolderSync(home: home, folder: folder)
        let clock = ContinuousClock()
        var first = SyncReport()
        let joinTime = try clock.measure { first = try sync.run() }
        var noop: [Duration] = []
        var last = SyncReport()
        for _ in 0..<5 { noop.append(try clock.measure { last = try sync.run() }) }
        noop.sort()
        func ms(_ duration: Duration) -> String {
            String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        print("shared folder: \(trips) trips × \(devices) device files (\(items) items each), \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("first sync (join every trip, merge \(first.merged.count) files, publish \(first.published.count)): \(ms(joinTime))")
        print("no-op sync (\(last.unchanged.count) files unchanged, \(last.merged.count) merged): median \(ms(noop[noop.count / 2])), min \(ms(noop[0]))")
    }
}
