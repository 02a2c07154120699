import TripSyncPlatform
import TripSyncCore

/// A new laptop's request to join a trip (docs/FORMAT.md, "Join requests"): its device id, key
/// and name, bound to an invite's secret by a keyed hash and signed by the device key. Written
/// by `join` as `FOLDER/<tripId>/<deviceId>.join.json`; the owner's sync admits it. Version 2
/// (schema 6) adds the device's encryption key, `box`, which the owner puts into the grant.
/// Version 3 (sealed trips) carries the name sealed with a key made from the invite's secret,
/// `sealedName`, so the folder's host never reads it; only the owner, who holds the invite, does.
package struct JoinRequest: Hashable, Sendable {
    /// The trip.
    package var trip: TripID
    /// The device asking.
    package var device: DeviceID
    /// Its public key.
    package var key: PublicKey
    /// Its X25519 encryption key (version 2); nil in a version 1 request.
    package var box: EncryptionPublicKey?
    /// The name its person gave it (in a version 3 request, known once `opened(with:)` the
    /// invite it answers; empty before).
    package var name: String
    /// Version 3: the name sealed with the invite's secret (the secret stream, one chunk).
    var sealedName: [UInt8]?
    /// Which invite it answers (`InviteCode.id`).
    package var invite: String
    /// When it was written.
    package var requestedAt: UTCTimestamp
    /// BLAKE2b-256 keyed with the invite's secret over the request's facts.
    var mac: [UInt8]
    /// The device key's signature over the rest.
    var signature: [UInt8]

    /// The file name in a trip folder.
    package static func fileName(for device: DeviceID) -> String { "\(device).join.json" }

    /// A request answering `code`, signed by `deviceKey`, carrying `box` (version 2) when given.
    package init(code: InviteCode, device: DeviceID, name: String, deviceKey: SigningKey, box: EncryptionPublicKey? = nil, at time: UTCTimestamp) {
        trip = code.trip
        self.device = device
        key = deviceKey.publicKey
        self.box = box
        self.name = box == nil ? name : ""
        invite = code.id
        requestedAt = time
        mac = []
        signature = []
        if box != nil { sealedName = Sodium.streamSeal(Array(name.utf8), key: nameKey(code), additionalData: nameData) }
        mac = Sodium.blake2b256(macMessage, key: code.secret)
        signature = deviceKey.sign(Array("tripsync-join-v1\n".utf8) + Array(body(signed: false).text.utf8))
    }

    private var macMessage: [UInt8] {
        Array("tripsync-join-v1\n\(trip)\n\(device)\n\(key.base64)\n\(sealedName.map { Base64.encode($0) } ?? name)".utf8)
    }

    /// The key a version 3 request's name is sealed with: BLAKE2b-256 keyed with the invite's
    /// secret over `nameData`.
    private func nameKey(_ code: InviteCode) -> SecretBytes {
        var bytes = Sodium.blake2b256(nameData, key: code.secret)
        return SecretBytes(taking: &bytes)
    }

    /// `tripsync-join-name-v1\n<tripId>\n<device>\n<key>`: what the name's key is made over,
    /// and the sealed name's associated data.
    private var nameData: [UInt8] { Array("tripsync-join-name-v1\n\(trip)\n\(device)\n\(key.base64)".utf8) }

    /// This request with its name opened with the secret of `code` (a version 3 request); the
    /// request itself when its name is not sealed; nil when it does not open to a device name.
    package func opened(with code: InviteCode) -> JoinRequest? {
        guard let sealedName else { return self }
        guard case .success(let plain) = Sodium.streamOpen(sealedName, key: nameKey(code), additionalData: nameData),
            let text = String(validating: plain, as: UTF8.self), TextRule.name.violation(in: text) == nil
        else { return nil }
        var opened = self
        opened.name = text
        return opened
    }

    private func body(signed: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "device": .string(device.description), "invite": .string(invite), "key": .string(key.base64),
            "mac": .string(Base64.encode(mac)), "requestedAt": .string(requestedAt.description),
            "tripId": .string(trip.description), "type": .string("tripsync-join"), "version": .int(box == nil ? 1 : sealedName == nil ? 2 : 3),
        ]
        if let sealedName { object["sealedName"] = .string(Base64.encode(sealedName)) } else { object["name"] = .string(name) }
        if let box { object["box"] = .string(box.base64) }
        if signed { object["sig"] = .string(Base64.encode(signature)) }
        return .object(object)
    }

    /// The canonical JSON file.
    package var fileBytes: [UInt8] { Array((body(signed: true).text + "\n").utf8) }

    /// Reads a request file as untrusted input: every field checked, the device key's
    /// signature verified. Whether it answers a real invite is `answers(_:)`.
    package init(parsing bytes: [UInt8]) throws(InviteError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw InviteError("not a join request (not JSON)")
        }
        guard case .object(let object) = json else { throw InviteError("not a join request (not a JSON object)") }
        let version = json["version"]?.intValue
        guard json["type"]?.stringValue == "tripsync-join", let version, (1...3).contains(version) else {
            throw InviteError("/type: not a join request of version 1, 2 or 3")
        }
        var expected: Set<String> = ["device", "invite", "key", "mac", "requestedAt", "sig", "tripId", "type", "version"]
        expected.insert(version == 3 ? "sealedName" : "name")
        if version >= 2 { expected.insert("box") }
        if let extra = Set(object.keys).subtracting(expected).sorted().first { throw InviteError("/\(extra): unexpected key in a join request") }
        func text(_ key: String) throws(InviteError) -> String {
            guard let value = json[key]?.stringValue else { throw InviteError("/\(key): missing, expected a string") }
            return value
        }
        guard let trip = Identifier(try text("tripId")) else { throw InviteError("/tripId: expected a lowercase UUID") }
        guard let device = Identifier(try text("device")) else { throw InviteError("/device: expected a lowercase UUID") }
        guard let key = PublicKey(base64: try text("key")) else { throw InviteError("/key: expected a public key (44 characters of base64)") }
        var box: EncryptionPublicKey?
        if version >= 2 {
            guard let found = EncryptionPublicKey(base64: try text("box")) else {
                throw InviteError("/box: expected an encryption key (44 characters of base64)")
            }
            box = found
        }
        var name = ""
        var sealedName: [UInt8]?
        if version == 3 {
            // A device name is at most a few hundred bytes: one chunk of the stream.
            guard let sealed = Base64.decodeAny(try text("sealedName")), sealed.count <= 4096,
                sealed.count >= Sodium.streamHeaderBytes + Sodium.streamChunkOverhead
            else { throw InviteError("/sealedName: expected a sealed name (base64 of at most 4096 bytes)") }
            sealedName = sealed
        } else {
            name = try text("name")
            if let problem = TextRule.name.violation(in: name) { throw InviteError("/name: \(TextRule.name.message(for: problem, what: "a device name"))") }
        }
        let invite = try text("invite")
        guard invite.utf8.count == 32, invite.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw InviteError("/invite: expected 32 lowercase hex digits")
        }
        guard let at = LocalTimeParser.timestamp(try text("requestedAt")) else { throw InviteError("/requestedAt: expected YYYY-MM-DDTHH:MM:SSZ") }
        guard let mac = Base64.decode(try text("mac"), count: 32) else { throw InviteError("/mac: expected 32 bytes of base64") }
        guard let signature = Base64.decode(try text("sig"), count: 64) else { throw InviteError("/sig: expected a signature (88 characters of base64)") }
        self.trip = trip
        self.device = device
        self.key = key
        self.box = box
        self.name = name
        self.sealedName = sealedName
        self.invite = invite
        self.requestedAt = at
        self.mac = mac
        self.signature = signature
        guard key.verifies(signature, of: Array("tripsync-join-v1\n".utf8) + Array(body(signed: false).text.utf8)) else {
            throw InviteError("/sig: the request's signature does not verify with its key (changed after it was written)")
        }
    }

    /// Whether the request was made with the secret of `invite` for this trip.
    package func answers(_ invite: InviteCode) -> Bool {
        invite.trip == trip && invite.id == self.invite && Sodium.blake2b256(macMessage, key: invite.secret) == mac
    }
}
