import Foundation
import TripSync
import TripSyncCore

/// `tripsync-bench gzip FILE... [--repeat R]`: writing each file's document as gzip with
/// TripSync's default (libdeflate, `GzipCompression.fast`) next to zlib's fastest level,
/// alternating in one run: median wall time (every core, as `write` does it), output size, and
/// a check that reading the output back gives the same canonical bytes.
enum GzipBenchmark {
    static let usage = "usage: tripsync-bench gzip FILE... [--repeat R]"

    static func run(_ arguments: [String]) throws {
        let (files, repeats) = try ArgumentParser.filesAndRepeats(arguments, usage: usage, command: "gzip")
        let engines: [(String, GzipCompression)] = [("libdeflate", .fast), ("zlib -1", .zlib(level: 1))]
        print("file                          json MB   encoder     median ms   MB/s    gzip bytes   ratio")
        for file in files {
            let document = try TripFileReader().read(path: file).document
            let json = document.canonicalJSON()
            var samples = Array(repeating: [Double](), count: engines.count)
            var sizes = Array(repeating: 0, count: engines.count)
            let clock = ContinuousClock()
            for round in 0...repeats {
                for (k, engine) in engines.enumerated() {
                    let start = clock.now
                    let bytes = try document.gzipData(engine.1)
                    let elapsed = Stats.seconds(clock.now - start)
                    if round > 0 { samples[k].append(elapsed) }
                    sizes[k] = bytes.count
                    if round == 0 {
                        let back = try TripFileReader().read(bytes: bytes, file: "\(engine.0) output").document
                        guard back.canonicalJSON() == json else {
                            throw UsageError(message: "\(engine.0): the output does not read back to the same document", usage: usage)
                        }
                    }
                }
            }
            for (k, engine) in engines.enumerated() {
                let median = Stats.median(samples[k])
                let name = String((file as NSString).lastPathComponent.prefix(28))
                let numbers = String(
                    format: "%8.2f   %@ %9.2f %7.0f %12d %7.2f", Stats.megabytes(json.count),
                    engine.0.padding(toLength: 10, withPad: " ", startingAt: 0), median * 1000,
                    Stats.throughput(bytes: json.count, seconds: median), sizes[k], Double(json.count) / Double(sizes[k]))
                print(name.padding(toLength: 29, withPad: " ", startingAt: 0) + numbers)
            }
        }
    }
}
