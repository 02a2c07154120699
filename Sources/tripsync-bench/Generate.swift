import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore

/// The plain and gzip trip files written for one generated document.
struct GeneratedTripFiles {
    /// The item count the document was generated with.
    var items: Int
    /// `DIR/trip-N.trip.json`: canonical JSON.
    var jsonPath: String
    /// `DIR/trip-N.trip.json.gz`: the same JSON, gzip.
    var gzipPath: String
}

/// `tripsync-bench generate --items N --out DIR`: writes the merge scenario's diverged pair
/// `DIR/a.trip.json.gz` and `DIR/b.trip.json.gz` (`MergeScenario`), and the deterministic trip
/// of `N` items (`TripGenerator(seed: 42)`) as `trip-N.trip.json` and `.gz`.
enum GenerateCommand {
    /// The seed of every generated benchmark document.
    static let seed: UInt64 = 42

    static let usage = "usage: tripsync-bench generate --items N --out DIR"

    /// Parses the arguments after `generate` and writes the files.
    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var items: Int?
        var outDirectory: String?
        while let option = parser.nextOption() {
            switch option {
            case "--items": items = try parser.positiveInt(for: option)
            case "--out": outDirectory = try parser.value(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        guard let items, let outDirectory else {
            throw UsageError(message: "--items and --out are required", usage: usage)
        }
        let files = try write(document(items: items), items: items, into: outDirectory)
        let pair = try writeMergePair(items: items, into: outDirectory)
        print(pair.a)
        print(pair.b)
        print(files.jsonPath)
        print(files.gzipPath)
    }

    /// The benchmark document of `items` items.
    static func document(items: Int) -> TripDocument {
        var generator = TripGenerator(seed: seed)
        return generator.document(itemCount: items)
    }

    /// Writes the merge scenario's `a.trip.json.gz` and `b.trip.json.gz` into `directory`.
    static func writeMergePair(items: Int, into directory: String) throws -> (a: String, b: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let scenario = try MergeScenario(items: items, seed: seed)
        let a = (directory as NSString).appendingPathComponent("a.trip.json.gz")
        let b = (directory as NSString).appendingPathComponent("b.trip.json.gz")
        try scenario.a.write(to: a)
        try scenario.b.write(to: b)
        return (a, b)
    }

    /// Writes `document` as `trip-N.trip.json` and `trip-N.trip.json.gz` into `directory`
    /// (created when missing).
    static func write(_ document: TripDocument, items: Int, into directory: String) throws -> GeneratedTripFiles {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = (directory as NSString).appendingPathComponent("trip-\(items).trip.json")
        let files = GeneratedTripFiles(items: items, jsonPath: base, gzipPath: base + ".gz")
        try document.write(to: files.jsonPath)
        try document.write(to: files.gzipPath)
        return files
    }
}
