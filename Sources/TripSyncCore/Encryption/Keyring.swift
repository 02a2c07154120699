import TripSyncPlatform

/// A keyring file, `FOLDER/<tripId>/<deviceId>.keyring.json`, written by a laptop holding the
/// trip's owner key (docs/FORMAT.md, "Keyrings"): the current epoch key sealed to each current
/// member's encryption key (`crypto_box_seal`), every earlier epoch key in `history`, sealed
/// with the current key (the XChaCha20-Poly1305 secret stream), and the owner key's signature
/// over all of it. It names devices and epochs, never a person or anything typed.
package struct Keyring: Sendable {
    /// The most bytes a keyring file may have.
    package static let maximumBytes = 4 << 20
    /// The most devices one keyring seals to.
    package static let maximumRecipients = 10_000
    /// Bytes of one sealed epoch key (the key and a sealed box's overhead).
    static var sealedKeyBytes: Int { Sodium.streamKeyBytes + Sodium.sealedBoxOverhead }

    /// The trip.
    package var trip: TripID
    /// The laptop that wrote it (one holding the owner key); the file is named after it.
    package var writer: DeviceID
    /// The current epoch's number.
    package var epoch: Int
    /// The current epoch's id (`EpochKey.id`).
    package var epochID: String
    /// The current epoch key sealed to each recipient device's encryption key.
    package var sealed: [DeviceID: [UInt8]]
    /// The earlier epoch keys, sealed with the current one.
    var history: [UInt8]
    /// The owner key's signature over `signedMessage`.
    var signature: [UInt8]

    /// The file name of `device`'s keyring in a trip folder.
    package static func fileName(for device: DeviceID) -> String { "\(device).keyring.json" }

    /// A keyring of `trip` written by `writer`: `current` sealed to each of `recipients`, the
    /// keys of `earlier` (other than `current`) in the history, signed by `ownerKey`.
    package init(
        trip: TripID, writer: DeviceID, current: EpochKey, earlier: [EpochKey], recipients: [DeviceID: EncryptionPublicKey], ownerKey: SigningKey
    ) {
        self.trip = trip
        self.writer = writer
        epoch = current.epoch
        epochID = current.id
        sealed = recipients.compactMapValues { Sodium.sealBox(current.key, to: $0.bytes) }
        var plain = Array(Self.historyJSON(earlier.filter { $0.id != current.id }).text.utf8)
        defer { SecretBytes.wipe(&plain) }
        history = []
        signature = []
        history = Sodium.streamSeal(plain, key: current.key, additionalData: historyData)
        signature = ownerKey.sign(signedMessage)
    }

    /// Reads a keyring file as untrusted input: every field checked and the signature verified
    /// with `owner` (the trip's owner key); what is sealed is opened by `open`.
    package init(parsing bytes: [UInt8], trip: TripID, owner: PublicKey) throws(KeyringError) {
        let json = try KeyringError.object(
            bytes, maximumBytes: Self.maximumBytes, keys: ["epoch", "epochId", "history", "sealed", "sig", "tripId", "type", "version", "writer"],
            what: "a keyring")
        guard json["type"]?.stringValue == "tripsync-keyring", json["version"]?.intValue == 1 else {
            throw KeyringError("/type", "a keyring of version 1 (\"type\": \"tripsync-keyring\", \"version\": 1)")
        }
        guard let tripText = json["tripId"]?.stringValue, let found = Identifier(tripText), found == trip else {
            throw KeyringError("/tripId", "this trip's id, \(trip)")
        }
        guard let writer = json["writer"]?.stringValue.flatMap(Identifier.init) else { throw KeyringError("/writer", "a device id (a lowercase UUID)") }
        guard let number = json["epoch"]?.intValue, (1...Int64(EpochKey.maximumEpoch)).contains(number) else {
            throw KeyringError("/epoch", "an epoch number from 1 to \(EpochKey.maximumEpoch)")
        }
        guard let id = json["epochId"]?.stringValue, EpochKey.isID(id) else { throw KeyringError("/epochId", "32 lowercase hex digits") }
        guard case .object(let entries)? = json["sealed"], entries.count <= Self.maximumRecipients else {
            throw KeyringError("/sealed", "an object of device id → sealed key, at most \(Self.maximumRecipients)")
        }
        var sealed: [DeviceID: [UInt8]] = [:]
        for (device, value) in entries {
            guard let id = Identifier(device) else { throw KeyringError("/sealed/\(device.prefix(40))", "a device id (a lowercase UUID)") }
            guard let box = value.stringValue.flatMap({ Base64.decode($0, count: Self.sealedKeyBytes) }) else {
                throw KeyringError("/sealed/\(device)", "a sealed key: base64 of \(Self.sealedKeyBytes) bytes")
            }
            sealed[id] = box
        }
        guard let historyText = json["history"]?.stringValue, let history = Base64.decodeAny(historyText) else {
            throw KeyringError("/history", "standard base64")
        }
        guard let signature = json["sig"]?.stringValue.flatMap({ Base64.decode($0, count: 64) }) else {
            throw KeyringError("/sig", "a signature (88 characters of base64)")
        }
        self.trip = trip
        self.writer = writer
        epoch = Int(number)
        epochID = id
        self.sealed = sealed
        self.history = history
        self.signature = signature
        guard owner.verifies(signature, of: signedMessage) else {
            throw KeyringError("/sig", "the owner key's signature (it does not verify: not written by the trip's owner, or changed since)")
        }
    }

    /// The epoch keys a device opens with one of `keys` (its current and earlier encryption
    /// key pairs): the current one, checked against its id, and every earlier one in the
    /// history. nil when nothing sealed to `device` opens, or what opens is not what the
    /// keyring names.
    package func open(device: DeviceID, keys: [EncryptionKeyPair]) -> [EpochKey]? {
        guard let box = sealed[device] else { return nil }
        for pair in keys {
            guard let secret = Sodium.openSealedBox(box, publicKey: pair.publicKey.bytes, secretKey: pair.secretKey),
                let current = EpochKey(epoch: epoch, key: secret), current.id == epochID
            else { continue }
            guard let earlier = openHistory(with: current) else { return nil }
            return [current] + earlier
        }
        return nil
    }

    /// The earlier keys, or nil when the history does not open with `current` or is malformed.
    private func openHistory(with current: EpochKey) -> [EpochKey]? {
        guard case .success(var plain) = Sodium.streamOpen(history, key: current.key, additionalData: historyData) else { return nil }
        defer { SecretBytes.wipe(&plain) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(plain)
        } catch {
            // Authenticated by the current key yet not JSON: the writer's fault, refused whole.
            return nil
        }
        guard case .array(let list)? = json["epochs"], list.count <= EpochKey.maximumCount else { return nil }
        var keys: [EpochKey] = []
        var seen: Set<String> = [current.id]
        for entry in list {
            guard let number = entry["epoch"]?.intValue, let text = entry["key"]?.stringValue,
                let key = EpochKey(epoch: Int(number), base64: text), seen.insert(key.id).inserted
            else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// `{"epochs": [{"epoch", "key"}, …]}` in epoch order.
    static func historyJSON(_ keys: [EpochKey]) -> JSONValue {
        let sorted = keys.sorted { $0.precedes($1) }
        return .object(["epochs": .array(sorted.map { .object(["epoch": .int(Int64($0.epoch)), "key": .string($0.base64)]) })])
    }

    /// The history's associated data: what it belongs to, so it cannot be moved to another
    /// keyring, trip or epoch.
    private var historyData: [UInt8] { Array("tripsync-keyring-history-v1\n\(trip)\n\(epoch)\n\(epochID)".utf8) }

    private func body(signed: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "epoch": .int(Int64(epoch)), "epochId": .string(epochID), "history": .string(Base64.encode(history)),
            "sealed": .object(Dictionary(uniqueKeysWithValues: sealed.map { ($0.key.description, JSONValue.string(Base64.encode($0.value))) })),
            "tripId": .string(trip.description), "type": "tripsync-keyring", "version": 1, "writer": .string(writer.description),
        ]
        if signed { object["sig"] = .string(Base64.encode(signature)) }
        return .object(object)
    }

    /// `tripsync-keyring-v1\n` and the canonical JSON of the keyring without `sig`.
    private var signedMessage: [UInt8] { Array(("tripsync-keyring-v1\n" + body(signed: false).text).utf8) }

    /// The file's bytes: canonical JSON and a newline.
    package var fileBytes: [UInt8] { Array((body(signed: true).text + "\n").utf8) }
}

/// A keyring file, a box announcement or a sealed file's envelope that cannot be used: the JSON
/// Pointer and what was expected there.
package struct KeyringError: Error, Sendable {
    /// Where.
    package var pointer: String
    /// What was expected.
    package var expected: String

    init(_ pointer: String, _ expected: String) {
        self.pointer = pointer
        self.expected = expected
    }

    /// For a person: "/pointer: expected …".
    package var message: String { "\(pointer.isEmpty ? "the file" : pointer): expected \(expected)" }

    /// `bytes` as a JSON object of at most `maximumBytes` with exactly the keys `keys` (`what`
    /// names the file in the refusal of another key).
    static func object(_ bytes: [UInt8], maximumBytes: Int, keys expected: Set<String>, what: String) throws(KeyringError) -> JSONValue {
        guard bytes.count <= maximumBytes else { throw KeyringError("", "at most \(maximumBytes) bytes") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw KeyringError("", "a JSON object")
        }
        guard case .object(let object) = json else { throw KeyringError("", "a JSON object") }
        if let extra = Set(object.keys).subtracting(expected).sorted().first { throw KeyringError("/\(extra.prefix(40))", "no such key in \(what)") }
        if let missing = expected.subtracting(object.keys).sorted().first { throw KeyringError("/\(missing)", "this key (it is missing)") }
        return json
    }
}

/// A sealed file's envelope that cannot be used: the same pointer and expectation as a keyring's.
package typealias SealedFileError = KeyringError
