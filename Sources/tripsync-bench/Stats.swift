import Foundation

/// Timing and memory helpers shared by the benchmark subcommands.
///
/// Sizes are in decimal megabytes (1 MB = 10^6 bytes); throughput is MB per second.
enum Stats {
    /// The median of `values` (the mean of the two middle values for an even count).
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of no values")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// Bytes as decimal megabytes.
    static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1e6 }

    /// The median time in seconds of `repeats` runs of `body`, after one untimed warm-up run.
    static func medianSeconds(repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        try body()
        var samples: [Double] = []
        for _ in 0..<max(1, repeats) {
            samples.append(seconds(try clock.measure(body)))
        }
        return median(samples)
    }

    /// The median time in seconds of `repeats` runs of `body`, after one untimed warm-up run,
    /// timing only the making of each result: results are kept until every run is done, so
    /// freeing them is not timed.
    static func medianSeconds<T>(repeats: Int, producing body: () throws -> T) rethrows -> Double {
        let clock = ContinuousClock()
        var kept: [T] = []
        kept.append(try body())
        var samples: [Double] = []
        for _ in 0..<max(1, repeats) {
            let start = clock.now
            let result = try body()
            samples.append(seconds(clock.now - start))
            kept.append(result)
        }
        blackHole(kept)
        return median(samples)
    }

    /// Throughput in MB/s of `bytes` processed in `seconds`.
    static func throughput(bytes: Int, seconds: Double) -> Double {
        megabytes(bytes) / seconds
    }

    /// The peak resident set size of this process in bytes (`VmHWM` of `/proc/self/status`),
    /// or nil where that file does not exist.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // "VmHWM:     12345 kB"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }

    /// Formats a number with a fixed count of decimals.
    static func format(_ value: Double, decimals: Int = 1) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

/// Keeps a value alive and opaque to the optimizer, so timed work is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
