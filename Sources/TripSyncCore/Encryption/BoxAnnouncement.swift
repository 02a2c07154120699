import TripSyncPlatform

/// A device's encryption key offered to the trip's owner laptops, `FOLDER/<tripId>/<deviceId>.box.json`
/// (docs/FORMAT.md, "Box announcements"): what a member granted without one (before schema 6,
/// or admitted from a signed file rather than a join request) writes so the owner can seal the
/// trip's keys to it. The device's own signing key signs it; an owner laptop takes it only
/// when that key is the one the owner granted to the device, so the owner's grant vouches for
/// it as for a `box` in the grant itself, and no grant has to be written again (a re-grant
/// racing a removal on another owner laptop could undo the removal).
package struct BoxAnnouncement: Sendable, Equatable {
    /// The most bytes such a file may have.
    package static let maximumBytes = 4096

    /// The trip.
    package var trip: TripID
    /// The device whose key it is; the file is named after it.
    package var device: DeviceID
    /// The device's signing key, which signs the announcement.
    package var key: PublicKey
    /// The device's encryption key.
    package var box: EncryptionPublicKey
    /// The signature by `key` over `signedMessage`.
    var signature: [UInt8]

    /// The file name of `device`'s announcement in a trip folder.
    package static func fileName(for device: DeviceID) -> String { "\(device).box.json" }

    /// An announcement of `box` for `device` in `trip`, signed by `signingKey`.
    package init(trip: TripID, device: DeviceID, box: EncryptionPublicKey, signingKey: SigningKey) {
        self.trip = trip
        self.device = device
        key = signingKey.publicKey
        self.box = box
        signature = []
        signature = signingKey.sign(signedMessage)
    }

    /// Reads an announcement as untrusted input: every key checked, the trip this one, and the
    /// signature verified with the key it names (whether that key is the device's granted one
    /// is for the reader to check).
    package init(parsing bytes: [UInt8], trip: TripID) throws(KeyringError) {
        let json = try KeyringError.object(
            bytes, maximumBytes: Self.maximumBytes, keys: ["box", "device", "key", "sig", "tripId", "type", "version"], what: "a box announcement")
        guard json["type"]?.stringValue == "tripsync-box", json["version"]?.intValue == 1 else {
            throw KeyringError("/type", "a box announcement of version 1 (\"type\": \"tripsync-box\", \"version\": 1)")
        }
        guard let tripText = json["tripId"]?.stringValue, Identifier(tripText) == trip else { throw KeyringError("/tripId", "this trip's id, \(trip)") }
        guard let device = json["device"]?.stringValue.flatMap(Identifier.init) else { throw KeyringError("/device", "a device id (a lowercase UUID)") }
        guard let key = json["key"]?.stringValue.flatMap(PublicKey.init(base64:)) else { throw KeyringError("/key", "a signing key (44 characters of base64)") }
        guard let box = json["box"]?.stringValue.flatMap(EncryptionPublicKey.init(base64:)) else {
            throw KeyringError("/box", "an encryption key (44 characters of base64)")
        }
        guard let signature = json["sig"]?.stringValue.flatMap({ Base64.decode($0, count: 64) }) else {
            throw KeyringError("/sig", "a signature (88 characters of base64)")
        }
        self.trip = trip
        self.device = device
        self.key = key
        self.box = box
        self.signature = signature
        guard key.verifies(signature, of: signedMessage) else {
            throw KeyringError("/sig", "the signature of the key it names (it does not verify: changed since it was signed)")
        }
    }

    private func body(signed: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "box": .string(box.base64), "device": .string(device.description), "key": .string(key.base64), "tripId": .string(trip.description),
            "type": "tripsync-box", "version": 1,
        ]
        if signed { object["sig"] = .string(Base64.encode(signature)) }
        return .object(object)
    }

    /// What the device's key signs: `tripsync-box-v1\n` and the canonical JSON without `sig`.
    private var signedMessage: [UInt8] { Array(("tripsync-box-v1\n" + body(signed: false).text).utf8) }

    /// The file's bytes: canonical JSON and a line feed.
    package var fileBytes: [UInt8] { Array((body(signed: true).text + "\n").utf8) }
}
