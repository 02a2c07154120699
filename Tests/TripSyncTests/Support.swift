import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore

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

/// A home in a temporary folder named `tripsync-LABEL-<uuid>` (not made yet), and what removes it.
func temporaryHome(_ label: String) -> (Home, cleanUp: () -> Void) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tripsync-\(label)-\(UUID().uuidString)").path
    return (Home(path: path), { try? FileManager.default.removeItem(atPath: path) })
}

/// `count` laptops' temporary homes and the shared folder they meet in (made), and how to
/// remove them all: the one harness the library's tests meet laptops with.
func temporaryLaptops(_ label: String, count: Int = 2) throws -> (homes: [Home], shared: String, cleanUp: () -> Void) {
    let made = (0..<count).map { _ in temporaryHome(label) }
    let shared = made[0].0.path + "-shared"
    let cleanUp = {
        for (_, clean) in made { clean() }
        try? FileManager.default.removeItem(atPath: shared)  // a test's own temporary folder
    }
    do {
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    } catch {
        cleanUp()
        throw error
    }
    return (made.map(\.0), shared, cleanUp)
}

/// A temporary folder removed by the caller.
func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "tripsync-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// One register of a document: an item's field (or a tombstone's `deleted`), or the trip name
/// (`item` nil, field "name"). The simulations' reference models key their logs by it.
struct RegisterSlot: Hashable {
    var item: ItemID?
    var field: String
}

extension TripDocument {
    /// The revs of every version (winner and conflicts) of every register, by register.
    func registerVersions() -> [RegisterSlot: Set<Rev>] {
        var result: [RegisterSlot: Set<Rev>] = [:]
        func add<V>(_ item: ItemID?, _ field: String, _ register: Register<V>?) {
            guard let register else { return }
            result[RegisterSlot(item: item, field: field)] = Set(register.versions.map(\.rev))
        }
        func fields(_ id: ItemID, _ item: ItemFields) {
            add(id, "title", item.title)
            add(id, "sortKey", item.sortKey)
            add(id, "start", item.start)
            add(id, "end", item.end)
            add(id, "place", item.place)
            add(id, "note", item.note)
        }
        add(nil, "name", trip.name)
        for (id, item) in items { fields(id, item) }
        for (id, tombstone) in tombstones {
            fields(id, tombstone.item)
            add(id, "deleted", tombstone.deleted)
        }
        for (id, attachment) in attachments {
            add(id, "attachment.blob", attachment.blob)
            add(id, "attachment.caption", attachment.caption)
            add(id, "attachment.deleted", attachment.deleted)
            add(id, "attachment.item", attachment.item)
            add(id, "attachment.name", attachment.name)
        }
        return result
    }
}
