import Foundation

/// What this home keeps about who may change one trip, beside the replica and never in a
/// trip file: `access/<tripId>.json`, mode 0600 (docs/DESIGN.md, "Members and roles"). The
/// owner key when this home holds it, the invites it made, the join it asked for, and the
/// requests its syncs saw but could not admit.
struct TripAccess: Sendable {
    /// The trip's owner key, when this home holds it (made by `new` or `members claim`, or
    /// brought by `owner import`).
    var ownerKey: SigningKey?
    /// Invites made here, with whether one was used (and by which device).
    var invites: [(code: InviteCode, usedBy: DeviceID?)] = []
    /// A join this home asked for and that was not admitted yet.
    var join: PendingJoin?
    /// Devices that asked to be members (a join request without a valid invite, or a signed
    /// file of a device without a grant), by device.
    var requests: [DeviceID: PendingRequest] = [:]
    /// Names of admitted devices from their requests, until the trip names them itself.
    var names: [DeviceID: String] = [:]

    /// A join asked for by `join CODE FOLDER`.
    struct PendingJoin: Sendable {
        var code: InviteCode
        var folder: String
    }

    /// A device that asked to be a member.
    struct PendingRequest: Sendable {
        var key: PublicKey
        var name: String
        /// "a join request" or "a signed trip file".
        var source: String
        var seen: UTCTimestamp
    }

    /// The file of `trip` in `home`.
    static func path(_ home: Home, _ trip: TripID) -> String { home.path + "/access/\(trip).json" }

    /// Reads the file as untrusted input; an absent file is an empty record.
    static func load(_ home: Home, _ trip: TripID) throws -> TripAccess {
        let path = path(home, trip)
        guard FileManager.default.fileExists(atPath: path) else { return TripAccess() }
        let bytes = try FileIO.readFile(path, maxBytes: 4 << 20)
        func bad(_ what: String) -> FileSystemError {
            FileSystemError(path: path, message: "this home's access record is damaged (\(what)); move it away to start the trip's membership afresh")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw bad("not JSON")
        }
        var access = TripAccess()
        if let seed = json["ownerKey"]?.stringValue {
            guard let key = SigningKey(seedBase64: seed) else { throw bad("/ownerKey") }
            access.ownerKey = key
        }
        if case .array(let invites)? = json["invites"] {
            for (index, entry) in invites.enumerated() {
                guard let text = entry["code"]?.stringValue, let code = InviteCode(stored: text) else { throw bad("/invites/\(index)/code") }
                let used = entry["usedBy"]?.stringValue.flatMap(Identifier.init)
                access.invites.append((code, used))
            }
        }
        if let join = json["join"], case .object = join {
            guard let text = join["code"]?.stringValue, let code = InviteCode(stored: text), let folder = join["folder"]?.stringValue else {
                throw bad("/join")
            }
            access.join = PendingJoin(code: code, folder: folder)
        }
        if case .object(let names)? = json["names"] {
            for (id, name) in names {
                guard let device = Identifier(id), let text = name.stringValue else { throw bad("/names/\(id)") }
                access.names[device] = text
            }
        }
        if case .object(let requests)? = json["requests"] {
            for (id, entry) in requests {
                guard let device = Identifier(id), let key = entry["key"]?.stringValue.flatMap(PublicKey.init(base64:)),
                    let name = entry["name"]?.stringValue, let source = entry["source"]?.stringValue,
                    let seen = entry["seen"]?.stringValue.flatMap(LocalTimeParser.timestamp)
                else { throw bad("/requests/\(id)") }
                access.requests[device] = PendingRequest(key: key, name: name, source: source, seen: seen)
            }
        }
        return access
    }

    /// Writes the record durably, 0600 (it may hold the owner key and invite secrets).
    func save(_ home: Home, _ trip: TripID) throws {
        try FileIO.makeFolder(home.path + "/access")
        try FileIO.writeAtomically(Array((fingerprint + "\n").utf8), to: TripAccess.path(home, trip), mode: 0o600)
    }

    /// The record's canonical JSON text (also what tells whether a sync changed it).
    var fingerprint: String {
        var object: [String: JSONValue] = [:]
        if let ownerKey { object["ownerKey"] = .string(ownerKey.seedBase64) }
        object["invites"] = .array(
            invites.map { invite in
                var entry: [String: JSONValue] = ["code": .string(invite.code.text)]
                if let used = invite.usedBy { entry["usedBy"] = .string(used.description) }
                return .object(entry)
            })
        if let join { object["join"] = .object(["code": .string(join.code.text), "folder": .string(join.folder)]) }
        if !names.isEmpty { object["names"] = .object(Dictionary(uniqueKeysWithValues: names.map { ($0.key.description, JSONValue.string($0.value)) })) }
        object["requests"] = .object(
            Dictionary(
                uniqueKeysWithValues: requests.map { device, request in
                    (
                        device.description,
                        JSONValue.object([
                            "key": .string(request.key.base64), "name": .string(request.name), "source": .string(request.source),
                            "seen": .string(request.seen.description),
                        ])
                    )
                }))
        return JSONValue.object(object).text
    }
}

extension InviteCode {
    /// A code as this home stored it; nil when it does not parse (the caller names the record).
    init?(stored text: String) {
        do {
            self = try InviteCode(parsing: text)
        } catch {
            return nil
        }
    }
}

extension Home {
    /// This installation's signing key (`device.key`, 0600), made on first use. It belongs to
    /// one device id: a home that took a new id (copied, restored, clock recovered) makes a new
    /// key for it and keeps the old ones under `previous`, so it can sign the succession that
    /// hands its seat in each trip from the old id to the new one (docs/DESIGN.md, "Succession").
    func signingKey(for device: DeviceID) throws -> SigningKey {
        let path = self.path + "/device.key"
        var previous: [(device: DeviceID, key: SigningKey)] = []
        if FileManager.default.fileExists(atPath: path) {
            let file = try DeviceKeyFile(home: self)
            if file.device == device { return file.key }
            previous = file.previous.filter { $0.device != file.device } + [(file.device, file.key)]
        }
        let key = SigningKey.generate()
        try DeviceKeyFile(device: device, key: key, previous: Array(previous.suffix(DeviceKeyFile.maximumPrevious))).save(home: self)
        return key
    }

    /// The keys of the device ids this home wrote as before its current one, oldest first
    /// (empty when it never changed id).
    func previousSigningKeys() throws -> [(device: DeviceID, key: SigningKey)] {
        guard FileManager.default.fileExists(atPath: path + "/device.key") else { return [] }
        return try DeviceKeyFile(home: self).previous
    }
}

extension Home {
    /// The trips this home asked to join (`TripStore.join`) and is still waiting for, with the
    /// role and folder of each. Throws when the access folder or a record cannot be read.
    public func pendingJoins() throws -> [(trip: TripID, role: MemberRole, folder: String)] {
        let folder = path + "/access"
        guard FileManager.default.fileExists(atPath: folder) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().compactMap { name in
            guard name.hasSuffix(".json"), let trip = Identifier(String(name.dropLast(5))) else { return nil }
            guard let join = try TripAccess.load(self, trip).join else { return nil }
            return (trip, join.code.role, join.folder)
        }
    }
}
