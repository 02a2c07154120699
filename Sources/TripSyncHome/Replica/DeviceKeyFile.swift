import Foundation
import TripSyncPlatform
import TripSyncCore

/// `device.key`: the seed of the current device id and those of the ids this home wrote as
/// before, each with its id.
struct DeviceKeyFile {
    /// The current device id.
    var device: DeviceID
    /// Its key.
    var key: SigningKey
    /// Earlier ids and their keys, oldest first.
    var previous: [(device: DeviceID, key: SigningKey)]

    /// At most this many earlier keys are kept (a home re-keyed more often keeps the newest).
    static let maximumPrevious = 32

    init(device: DeviceID, key: SigningKey, previous: [(device: DeviceID, key: SigningKey)]) {
        self.device = device
        self.key = key
        self.previous = previous
    }

    /// Reads the home's file; a damaged one is an error naming it and the pointer.
    init(home: Home) throws {
        let path = home.layout.deviceKey
        let bytes = try FileIO.readFile(path, maxBytes: 64 << 10)
        func damaged(_ pointer: String, _ expected: String) -> FileSystemError {
            FileSystemError(
                path: path,
                message: "this home's signing key is damaged at \(pointer) (expected \(expected)); move it away (a new key is then made and the trip's owner must approve this laptop again)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw damaged("", "a JSON object") }
        guard let id = json["device"]?.stringValue.flatMap(Identifier.init) else { throw damaged("/device", "a device id") }
        guard let key = json["seed"]?.stringValue.flatMap(SigningKey.init(seedBase64:)) else { throw damaged("/seed", "a base64 32-byte seed") }
        var previous: [(device: DeviceID, key: SigningKey)] = []
        if let list = json["previous"] {
            guard case .array(let entries) = list else { throw damaged("/previous", "an array of {\"device\", \"seed\"}") }
            for (index, entry) in entries.enumerated() {
                guard let old = entry["device"]?.stringValue.flatMap(Identifier.init), let seed = entry["seed"]?.stringValue.flatMap(SigningKey.init(seedBase64:))
                else { throw damaged("/previous/\(index)", "{\"device\", \"seed\"}") }
                previous.append((old, seed))
            }
        }
        self.init(device: id, key: key, previous: previous)
    }

    /// Writes the file durably, 0600.
    func save(home: Home) throws {
        var object: [String: JSONValue] = ["device": .string(device.description), "seed": .string(key.seedBase64)]
        if !previous.isEmpty {
            object["previous"] = .array(previous.map { .object(["device": .string($0.device.description), "seed": .string($0.key.seedBase64)]) })
        }
        try FileIO.makeFolder(home.path)
        try FileIO.writeAtomically(Array((JSONValue.object(object).text + "\n").utf8), to: home.layout.deviceKey, mode: 0o600)
    }
}
