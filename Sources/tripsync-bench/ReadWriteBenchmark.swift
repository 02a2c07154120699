import Foundation
import TripSync
import TripSyncPlatform
import TripSyncCore

/// The numbers measured for one document size. Throughputs are MB (10^6 bytes) of JSON per second.
struct SizeResult: Codable {
    var items: Int
    var jsonBytes: Int
    var gzipBytes: Int
    /// Timed runs per measurement (after one untimed warm-up).
    var repeats: Int
    /// `reader.read(bytes:file:)` on the plain JSON bytes (strict parse and full validation).
    var readMBps: Double
    /// `reader.read(bytes:file:)` on the gzip bytes, inflating included.
    var readGzipMBps: Double
    /// `document.canonicalJSON()`.
    var writeMBps: Double
    /// `document.gzipData()` (canonical JSON, then libdeflate, `GzipCompression.fast`).
    var gzipWriteMBps: Double
    /// Peak RSS of a child process that ran `reader.read(path:)` on the plain file.
    var peakRSSBytes: Int
    /// `peakRSSBytes - baselineRSSBytes` of the report.
    var peakAboveBaselineBytes: Int
    /// Python `json.loads` on the plain file.
    var pythonJSONLoadsMBps: Double?
    /// Python `zlib.decompress(gz, 31)` on the gzip file.
    var zlibInflateMBps: Double?
}

/// Everything one `read-write` run measured.
struct ReadWriteReport: Codable {
    var command: String
    var nproc: Int
    var cpu: String?
    /// Peak RSS of a `peak-read --baseline` child: the process without a read.
    var baselineRSSBytes: Int
    var results: [SizeResult]
}

/// `tripsync-bench read-write`: read, validate and write throughput, peak memory of a read, and
/// Python `json.loads` / zlib inflate floors on the same files, printed as a Markdown table or JSON.
enum ReadWriteBenchmark {
    static let usage = "usage: tripsync-bench read-write [--sizes 1000,10000,100000] [--repeat R] [--json] [--python-script PATH]"

    /// Runs the benchmark with the arguments after `read-write`.
    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var sizes = [1_000, 10_000, 100_000]
        var explicitRepeats: Int?
        var asJSON = false
        var script = "scripts/bench-python-json.py"
        while let option = parser.nextOption() {
            switch option {
            case "--sizes": sizes = try parser.positiveIntList(for: option)
            case "--repeat": explicitRepeats = try parser.positiveInt(for: option)
            case "--json": asJSON = true
            case "--python-script": script = try parser.value(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }

        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tripsync-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let baseline = try PeakReadCommand.measureInChild("--baseline").peakRSSBytes
        var results: [SizeResult] = []
        var files: [GeneratedTripFiles] = []
        for items in sizes {
            let repeats = explicitRepeats ?? (items <= 10_000 ? 5 : 3)
            progress("\(items) items: generating and writing")
            let document = GenerateCommand.document(items: items)
            let written = try GenerateCommand.write(document, items: items, into: directory)
            progress("\(items) items: measuring (\(repeats) runs each)")
            results.append(try measure(document, files: written, repeats: repeats, baseline: baseline))
            files.append(written)
        }

        progress("python floors")
        let floors = try PythonFloors.measure(
            script: script, files: files.flatMap { [$0.jsonPath, $0.gzipPath] }, repeats: explicitRepeats)
        for (index, written) in files.enumerated() {
            results[index].pythonJSONLoadsMBps = floors[written.jsonPath]?.jsonLoadsMBps
            results[index].zlibInflateMBps = floors[written.gzipPath]?.inflateMBps
        }

        let report = ReadWriteReport(
            command: CommandLine.arguments.joined(separator: " "),
            nproc: ProcessInfo.processInfo.activeProcessorCount,
            cpu: cpuModel(), baselineRSSBytes: baseline, results: results)
        print(asJSON ? try json(report) : ReadWriteTable.markdown(report))
    }

    /// Measures one size: the files are read into memory first, so reads time parsing, not disk.
    static func measure(_ document: TripDocument, files: GeneratedTripFiles, repeats: Int, baseline: Int) throws -> SizeResult {
        let reader = TripFileReader()
        let json = try FileIO.readFile(files.jsonPath, maxBytes: reader.maxFileBytes)
        let gzip = try FileIO.readFile(files.gzipPath, maxBytes: reader.maxFileBytes)
        // Sanity: both files load back to the generated document (untimed).
        guard try reader.read(bytes: json, file: files.jsonPath).document == document,
              try reader.read(bytes: gzip, file: files.gzipPath).document == document
        else { throw BenchError("\(files.jsonPath) does not read back to the generated document") }

        // Timed until the validated document is in hand; freeing it is not reading (not timed).
        let read = try Stats.medianSeconds(repeats: repeats, producing: { try reader.read(bytes: json, file: "bench") })
        let readGzip = try Stats.medianSeconds(repeats: repeats, producing: { try reader.read(bytes: gzip, file: "bench") })
        let write = Stats.medianSeconds(repeats: repeats) { blackHole(document.canonicalJSON()) }
        let gzipWrite = try Stats.medianSeconds(repeats: repeats) { blackHole(try document.gzipData()) }
        let peak = try PeakReadCommand.measureInChild(files.jsonPath).peakRSSBytes

        return SizeResult(
            items: files.items, jsonBytes: json.count, gzipBytes: gzip.count, repeats: repeats,
            readMBps: Stats.throughput(bytes: json.count, seconds: read),
            readGzipMBps: Stats.throughput(bytes: json.count, seconds: readGzip),
            writeMBps: Stats.throughput(bytes: json.count, seconds: write),
            gzipWriteMBps: Stats.throughput(bytes: json.count, seconds: gzipWrite),
            peakRSSBytes: peak, peakAboveBaselineBytes: peak - baseline)
    }

    /// The report as pretty-printed JSON.
    static func json(_ report: ReadWriteReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// The CPU model from `/proc/cpuinfo`, when available.
    static func cpuModel() -> String? {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Progress goes to standard error so standard output stays a clean table or JSON.
    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("tripsync-bench: \(message)\n".utf8))
    }
}
