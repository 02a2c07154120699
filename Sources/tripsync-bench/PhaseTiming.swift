import Foundation
import TripSync
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// `tripsync-bench phases A B`: where the time of one merge goes (read, merge, encode, gzip, write).
enum PhaseTiming {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2 else { throw UsageError(message: "phases needs two files", usage: "usage: tripsync-bench phases A B") }
        let clock = ContinuousClock()
        var marks: [(String, Duration)] = []
        var start = clock.now
        func mark(_ name: String) {
            let now = clock.now
            marks.append((name, now - start))
            start = now
        }
        let reader = TripFileReader()
        let rawA = try FileIO.readFile(arguments[0], maxBytes: 1 << 30)
        let rawB = try FileIO.readFile(arguments[1], maxBytes: 1 << 30)
        mark("read bytes")
        let a = try reader.read(bytes: rawA, file: "a")
        mark("inflate+parse+validate A")
        let b = try reader.read(bytes: rawB, file: "b")
        mark("inflate+parse+validate B")
        let merged = try DocumentMerger.merge(a.document, b.document, writer: a.document.deviceID)
        mark("merge")
        _ = MergeContribution(before: a.document, after: merged)
        mark("report")
        let json = merged.canonicalJSON()
        mark("canonical encode")
        let gz = try merged.gzipData()
        mark("encode+gzip (parallel members)")
        try FileIO.writeAtomically(gz, to: NSTemporaryDirectory() + "phases.trip.json.gz")
        mark("durable write")
        // The same work as `tripsync merge A B -o OUT` does it: parallel reads, in-place merge
        // with the report, compaction, parallel encode and gzip members, durable write.
        let out = NSTemporaryDirectory() + "phases-pipeline.trip.json.gz"
        mark("(untimed gap)")
        var result = try FileMerger(writer: a.document.deviceID).merge(files: arguments)
        mark("pipeline: read both (parallel) + merge + report")
        let compacted = result.document.compact(now: UTCTimestamp.now)
        mark("pipeline: compact (\(compacted))")
        _ = result.document.visibleConflictCount
        mark("pipeline: count conflicts")
        try result.document.write(to: out)
        mark("pipeline: encode + gzip + durable write")
        for (name, duration) in marks {
            print(name.padding(toLength: 50, withPad: " ", startingAt: 0), duration.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1))))
        }
        print("JSON bytes", json.count, "gzip bytes", gz.count)
    }
}
