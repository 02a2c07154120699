import Foundation
import TripSyncPlatform
import TripSyncCore

/// `device.key`: the seed of the current device id and those of the ids this home wrote as
/// before, each with its id, and (from schema 6) each id's X25519 encryption secret key.
struct DeviceKeyFile {
    /// The current device id.
    var device: DeviceID
    /// Its key.
    var key: SigningKey
    /// Its encryption key pair; nil in a home written before schema 6 until first asked for.
    var box: EncryptionKeyPair?
    /// Earlier ids and their keys, oldest first.
    var previous: [(device: DeviceID, key: SigningKey)]
    /// The encryption key pairs of earlier ids that had one (what was sealed to them stays
    /// readable to this home).
    var previousBoxes: [DeviceID: EncryptionKeyPair] = [:]

    /// At most this many earlier keys are kept (a home re-keyed more often keeps the newest).
    static let maximumPrevious = 32

    init(
        device: DeviceID, key: SigningKey, box: EncryptionKeyPair? = nil, previous: [(device: DeviceID, key: SigningKey)],
        previousBoxes: [DeviceID: EncryptionKeyPair] = [:]
    ) {
        self.device = device
        self.key = key
        self.box = box
        self.previous = previous
        self.previousBoxes = previousBoxes.filter { id, _ in previous.contains { $0.device == id } }
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
        var box: EncryptionKeyPair?
        if let text = json["box"] {
            guard let pair = text.stringValue.flatMap(EncryptionKeyPair.init(secretBase64:)) else {
                throw damaged("/box", "a base64 32-byte X25519 secret key")
            }
            box = pair
        }
        var previous: [(device: DeviceID, key: SigningKey)] = []
        var previousBoxes: [DeviceID: EncryptionKeyPair] = [:]
        if let list = json["previous"] {
            guard case .array(let entries) = list else { throw damaged("/previous", "an array of {\"device\", \"seed\"}") }
            for (index, entry) in entries.enumerated() {
                guard let old = entry["device"]?.stringValue.flatMap(Identifier.init), let seed = entry["seed"]?.stringValue.flatMap(SigningKey.init(seedBase64:))
                else { throw damaged("/previous/\(index)", "{\"device\", \"seed\"}") }
                previous.append((old, seed))
                if let text = entry["box"] {
                    guard let pair = text.stringValue.flatMap(EncryptionKeyPair.init(secretBase64:)) else {
                        throw damaged("/previous/\(index)/box", "a base64 32-byte X25519 secret key")
                    }
                    previousBoxes[old] = pair
                }
            }
        }
        self.init(device: id, key: key, box: box, previous: previous, previousBoxes: previousBoxes)
    }

    /// Writes the file durably, 0600.
    func save(home: Home) throws {
        var object: [String: JSONValue] = ["device": .string(device.description), "seed": .string(key.seedBase64)]
        if let box { object["box"] = .string(box.secretBase64) }
        if !previous.isEmpty {
            object["previous"] = .array(
                previous.map { entry in
                    var fields: [String: JSONValue] = ["device": .string(entry.device.description), "seed": .string(entry.key.seedBase64)]
                    if let pair = previousBoxes[entry.device] { fields["box"] = .string(pair.secretBase64) }
                    return .object(fields)
                })
        }
        try FileIO.makeFolder(home.path)
        try FileIO.writeAtomically(Array((JSONValue.object(object).text + "\n").utf8), to: home.layout.deviceKey, mode: 0o600)
    }
}
