import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore

/// `tripsync-bench signatures [--sizes A,B] [--repeat R]`: what signed files cost (issue 16's
/// budget: checking a signed 10,000-item file at most 10% of a merge). In one run, alternating:
/// reading the same document's JSON unsigned and signed (the difference is the check: BLAKE2b
/// over the bytes and one Ed25519 verify), a merge of two diverged documents in process (read
/// both, merge, gzip), and writing gzip unsigned and signed (the difference is the signing).
enum SignatureBenchmark {
    static let usage = "usage: tripsync-bench signatures [--sizes A,B] [--repeat R]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var sizes = [10_000, 100_000]
        var repeats = 15
        while let option = parser.nextOption() {
            switch option {
            case "--sizes": sizes = try parser.positiveIntList(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        print("items    json MB  read ms  read signed ms  check ms  merge ms  check/merge  gzip ms  signed gzip ms")
        let key = SigningKey.generate()
        let reader = TripFileReader()
        for size in sizes {
            let scenario = try MergeScenario(items: size)
            let plainA = scenario.a.canonicalJSON()
            let plainB = scenario.b.canonicalJSON()
            let signedA = scenario.a.signedCanonicalJSON(signingKey: key)
            guard try reader.read(bytes: signedA, file: "signed").signedBy == key.publicKey else {
                throw UsageError(message: "the signed document did not read back as signed", usage: usage)
            }
            var read: [Double] = []
            var readSigned: [Double] = []
            var merge: [Double] = []
            var gzip: [Double] = []
            var gzipSigned: [Double] = []
            let clock = ContinuousClock()
            for round in 0...repeats {
                var start = clock.now
                blackHole(try reader.read(bytes: plainA, file: "a"))
                let r = Stats.seconds(clock.now - start)
                start = clock.now
                blackHole(try reader.read(bytes: signedA, file: "a signed"))
                let rs = Stats.seconds(clock.now - start)
                start = clock.now
                let a = try reader.read(bytes: plainA, file: "a").document
                let b = try reader.read(bytes: plainB, file: "b").document
                let merged = try DocumentMerger.merge(a, b, writer: a.deviceID)
                blackHole(try merged.gzipData())
                let m = Stats.seconds(clock.now - start)
                start = clock.now
                blackHole(try scenario.a.gzipData())
                let g = Stats.seconds(clock.now - start)
                start = clock.now
                blackHole(try scenario.a.signedGzipData(signingKey: key))
                let gs = Stats.seconds(clock.now - start)
                if round > 0 {
                    read.append(r)
                    readSigned.append(rs)
                    merge.append(m)
                    gzip.append(g)
                    gzipSigned.append(gs)
                }
            }
            let check = Stats.median(readSigned) - Stats.median(read)
            let cells = [
                String(size).padding(toLength: 8, withPad: " ", startingAt: 0),
                Stats.format(Stats.megabytes(signedA.count)).leftPad(7),
                Stats.format(Stats.median(read) * 1000).leftPad(7),
                Stats.format(Stats.median(readSigned) * 1000).leftPad(14),
                Stats.format(check * 1000).leftPad(8),
                Stats.format(Stats.median(merge) * 1000).leftPad(8),
                (Stats.format(check / Stats.median(merge) * 100) + "%").leftPad(11),
                Stats.format(Stats.median(gzip) * 1000).leftPad(7),
                Stats.format(Stats.median(gzipSigned) * 1000).leftPad(14),
            ]
            print(cells.joined(separator: "  "))
        }
        print("medians of \(repeats) rounds; check = read signed - read (BLAKE2b-256 of the JSON and one Ed25519 verify)")
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
