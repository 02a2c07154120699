import Foundation
import TripSync
import TripSyncFixtures

/// Paths inside the package, found from this file's location.
enum PackagePaths {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    static let samples = root + "/samples"
}

/// Reads bytes through the public reader.
func readTrip(_ bytes: [UInt8], file: String = "test.trip.json", reader: TripFileReader = TripFileReader()) -> Result<LoadedTrip, TripFileError> {
    do {
        return .success(try reader.read(bytes: bytes, file: file))
    } catch {
        return .failure(error)
    }
}

/// The bytes of a text.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A small valid document from the generator.
func smallDocument(seed: UInt64 = 7, items: Int = 3) -> TripDocument {
    var generator = TripGenerator(seed: seed)
    return generator.document(itemCount: items)
}

/// Writes a merge scenario's two documents into `folder` under `names` (gzip or plain by
/// their suffix); returns the two paths, A's first.
func writeScenario(
    _ scenario: MergeScenario, in folder: String, names: (a: String, b: String) = ("a.trip.json.gz", "b.trip.json.gz")
) throws -> [String] {
    let paths = [folder + "/" + names.a, folder + "/" + names.b]
    try scenario.a.write(to: paths[0])
    try scenario.b.write(to: paths[1])
    return paths
}

/// A temporary folder removed by the caller.
func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "tripsync-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
