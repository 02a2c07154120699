import Foundation

/// What `scripts/bench-python-json.py` reports for one file (one JSON line per file).
struct PythonFileResult: Codable {
    /// The path as passed to the script.
    var file: String
    /// Whether the file is gzip.
    var gzip: Bool
    /// The size of the file on disk.
    var fileBytes: Int
    /// The size of the JSON text (after inflating).
    var jsonBytes: Int
    /// `json.loads` throughput on the JSON text, MB of JSON per second.
    var jsonLoadsMBps: Double
    /// `zlib.decompress(data, 31)` throughput, MB of JSON produced per second (gzip files only).
    var inflateMBps: Double?

    enum CodingKeys: String, CodingKey {
        case file, gzip
        case fileBytes = "file_bytes"
        case jsonBytes = "json_bytes"
        case jsonLoadsMBps = "json_loads_mb_s"
        case inflateMBps = "inflate_mb_s"
    }
}

/// The reference floors measured by Python on the same machine, in the same run, on the same files.
enum PythonFloors {
    /// Runs the script once over all `files` and returns its results keyed by path.
    static func measure(script: String, files: [String], repeats: Int?) throws -> [String: PythonFileResult] {
        guard FileManager.default.fileExists(atPath: script) else {
            throw BenchError("cannot find \(script) (run from the package root or pass --python-script)")
        }
        var arguments = ["python3", script]
        if let repeats { arguments += ["--repeat", String(repeats)] }
        let output = try ChildProcess.run(executable: "/usr/bin/env", arguments: arguments + files)
        var results: [String: PythonFileResult] = [:]
        for line in output.split(separator: "\n") where !line.isEmpty {
            let result = try JSONDecoder().decode(PythonFileResult.self, from: Data(line.utf8))
            results[result.file] = result
        }
        return results
    }
}
