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

/// A temporary folder removed by the caller.
func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "tripsync-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
