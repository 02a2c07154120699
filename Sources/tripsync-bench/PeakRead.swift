import Foundation
import TripSync
import TripSyncCore

/// What one `peak-read` child process reports, as one JSON line on standard output.
struct PeakReadResult: Codable {
    /// The peak resident set size of the child (`VmHWM`), in bytes.
    var peakRSSBytes: Int
    /// The JSON size of the file read (0 for `--baseline`).
    var jsonBytes: Int
}

/// `tripsync-bench peak-read FILE | --baseline`: reads `FILE` with `TripFileReader.read(path:)`
/// (strict parse and full validation) and prints the process's peak RSS. `--baseline` creates the
/// reader but reads nothing, to measure what the process costs without a read.
///
/// Meant to run as a fresh child process, so the peak belongs to this one read alone.
enum PeakReadCommand {
    static let usage = "usage: tripsync-bench peak-read FILE | --baseline"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 1 else { throw UsageError(message: "expected one argument", usage: usage) }
        let reader = TripFileReader()
        var jsonBytes = 0
        if arguments[0] != "--baseline" {
            let loaded = try reader.read(path: arguments[0])
            jsonBytes = loaded.jsonByteCount
            blackHole(loaded)
        }
        blackHole(reader)
        guard let peak = Stats.peakResidentBytes() else {
            throw BenchError("cannot read VmHWM from /proc/self/status")
        }
        let line = try JSONEncoder().encode(PeakReadResult(peakRSSBytes: peak, jsonBytes: jsonBytes))
        print(String(decoding: line, as: UTF8.self))
    }

    /// Runs `peak-read` with `argument` in a child process of this same executable and decodes its report.
    static func measureInChild(_ argument: String) throws -> PeakReadResult {
        let output = try ChildProcess.run(executable: ChildProcess.currentExecutable(), arguments: ["peak-read", argument])
        guard let line = output.split(separator: "\n").last,
              let result = try? JSONDecoder().decode(PeakReadResult.self, from: Data(line.utf8))
        else { throw BenchError("peak-read \(argument) printed no result: \(output)") }
        return result
    }
}
