import Foundation
import TripSyncPlatform
import TripSyncCore

/// What this home keeps about who may change one trip, beside the replica and never in a
/// trip file: `access/<tripId>.json`, mode 0600 (docs/DESIGN.md, "Members and roles"). The
/// owner key when this home holds it, the invites it made, the join it asked for, and the
/// requests its syncs saw but could not admit; the trip's epoch keys it holds.
package struct TripAccess: Sendable {
    /// The trip's owner key, when this home holds it (made by `new` or `members claim`, or
    /// brought by `owner import`).
    package var ownerKey: SigningKey?
    /// Invites made here, with whether one was used: by which device, and the key it was
    /// admitted with (nil when the owner declined the request, or in a record written before
    /// keys were kept). An invite admits one device one time (docs/DESIGN.md, "Invites are
    /// spent once").
    package var invites: [(code: InviteCode, usedBy: DeviceID?, usedKey: PublicKey?)] = []
    /// A join this home asked for and that was not admitted yet.
    package var join: PendingJoin?
    /// Devices that asked to be members (a join request without a valid invite, or a signed
    /// file of a device without a grant), by device.
    package var requests: [DeviceID: PendingRequest] = [:]
    /// Requests the owner declined (`members decline`), by device: a later request of that
    /// device stays refused unless it answers an unused invite (a new one).
    package var declined: [DeviceID: DeclinedRequest] = [:]
    /// Names of admitted devices from their requests, until the trip names them itself.
    package var names: [DeviceID: String] = [:]
    /// The trip's owner public key as this home knew it when it forgot the trip (`forget`):
    /// with the replica gone, it is what the next sync trusts, so the trip comes back from a
    /// shared folder with this home's seat (its grant names this home's own device key).
    package var knownOwner: PublicKey?
    /// Every epoch key of the trip this home opened or made (docs/DESIGN.md, "Encryption: the
    /// keyring"): kept, so what this home could read stays readable to it whatever the folder
    /// holds later.
    package var epochKeys: [EpochKey] = []
    /// The owner asked for a new epoch (`members rotate`): the next sync starts it.
    package var rotateAsked = false
    /// The newest epoch of the trip's keys, when an owner's keyring made it without sealing it
    /// to this home while this home held an earlier one (docs/DESIGN.md, "Left out of the
    /// keys"): the owner removed this laptop, or retired the seat it holds. Its edits are then
    /// refused here, saying why: nothing it typed could reach the others. Cleared when a key
    /// of that epoch or a later one opens here.
    package var leftOut: (epoch: Int, id: String)?

    /// Adds the keys of `keys` this record does not hold yet (by id); true when any was new.
    @discardableResult
    package mutating func remember(_ keys: [EpochKey]) -> Bool {
        var held = Set(epochKeys.map(\.id))
        var added = false
        for key in keys where !held.contains(key.id) {
            epochKeys.append(key)
            held.insert(key.id)
            added = true
        }
        return added
    }

    /// The access of a trip this home holds `ownerKey` of (nil: nothing kept yet).
    package init(ownerKey: SigningKey? = nil) { self.ownerKey = ownerKey }

    /// The owner key a sync of a trip this home holds no replica of trusts: the invite's of a
    /// pending join, else this home's own owner key, else the one it knew before `forget`.
    package var trustedOwner: PublicKey? { join?.code.ownerKey ?? ownerKey?.publicKey ?? knownOwner }

    /// A join asked for by `join CODE FOLDER`.
    package struct PendingJoin: Sendable {
        package var code: InviteCode
        package var folder: String

        package init(code: InviteCode, folder: String) {
            self.code = code
            self.folder = folder
        }
    }

    /// A device that asked to be a member.
    /// The most requests kept pending per invite (and, separately, for requests that answer no
    /// invite of this home, and for signed trip files of non-members): whoever can write into
    /// the folder cannot fill the owner's list (docs/DESIGN.md, "Bounded work for any file").
    /// More are counted and summarised at each sync, never listed.
    package static let maxPendingPerInvite = 20

    /// How many requests wait now per bucket (`bucket(invite:source:)`).
    package var pendingPerBucket: [String: Int] {
        var counts: [String: Int] = [:]
        for request in requests.values { counts[Self.bucket(invite: request.invite, source: request.source), default: 0] += 1 }
        return counts
    }

    /// The bucket a request is bounded in: its invite, else where it came from.
    package static func bucket(invite: String?, source: String) -> String { invite.map { "invite " + $0 } ?? source }

    package struct PendingRequest: Sendable {
        package var key: PublicKey
        package var name: String
        /// "a join request" or "a signed trip file".
        package var source: String
        package var seen: UTCTimestamp
        /// The id of the invite of this home the request answered, if any.
        package var invite: String? = nil
        /// The role that invite named: `approve --all` never grants more.
        package var role: MemberRole? = nil
        /// The encryption key a version 2 join request carried, for the grant that approves it.
        package var box: EncryptionPublicKey? = nil

        package init(key: PublicKey, name: String, source: String, seen: UTCTimestamp, invite: String? = nil, role: MemberRole? = nil) {
            self.key = key
            self.name = name
            self.source = source
            self.seen = seen
            self.invite = invite
            self.role = role
        }

        /// Whether `grant` already gives what the request asks: this key, not removed, and at
        /// least the role its invite named.
        package func isSatisfied(by grant: MemberGrant?) -> Bool {
            guard let grant, grant.key == key, grant.role != .removed else { return false }
            return grant.role <= (role ?? .viewer)
        }
    }

    /// A request the owner declined: the key it came with and the invite it answered.
    package struct DeclinedRequest: Sendable {
        package var key: PublicKey?
        package var invite: String?

        package init(key: PublicKey? = nil, invite: String? = nil) {
            self.key = key
            self.invite = invite
        }
    }

    /// Whether a request of `device` stays refused: the owner declined that device, and only a
    /// request answering a new invite (`freshInvite`: one of this home's, never used) opens the
    /// door again.
    package func isDeclined(_ device: DeviceID, freshInvite: Bool) -> Bool {
        declined[device] != nil && !freshInvite
    }

    /// The file of `trip` in `home`.
    package static func path(_ home: Home, _ trip: TripID) -> String { home.layout.access(trip) }

    /// Reads the file as untrusted input; an absent file is an empty record.
    package static func load(_ home: Home, _ trip: TripID) throws -> TripAccess {
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
                var usedKey: PublicKey?
                if let text = entry["usedKey"]?.stringValue {
                    guard let key = PublicKey(base64: text) else { throw bad("/invites/\(index)/usedKey") }
                    usedKey = key
                }
                access.invites.append((code, used, usedKey))
            }
        }
        if let join = json["join"], case .object = join {
            guard let text = join["code"]?.stringValue, let code = InviteCode(stored: text), let folder = join["folder"]?.stringValue else {
                throw bad("/join")
            }
            access.join = PendingJoin(code: code, folder: folder)
        }
        if let known = json["knownOwner"] {
            guard let key = known.stringValue.flatMap(PublicKey.init(base64:)) else { throw bad("/knownOwner") }
            access.knownOwner = key
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
                var request = PendingRequest(key: key, name: name, source: source, seen: seen)
                request.invite = entry["invite"]?.stringValue
                if let text = entry["role"]?.stringValue {
                    guard let role = MemberRole(rawValue: text) else { throw bad("/requests/\(id)/role") }
                    request.role = role
                }
                if let text = entry["box"]?.stringValue {
                    guard let box = EncryptionPublicKey(base64: text) else { throw bad("/requests/\(id)/box") }
                    request.box = box
                }
                access.requests[device] = request
            }
        }
        try access.readKeys(json, bad: bad)
        if case .object(let declined)? = json["declined"] {
            for (id, entry) in declined {
                guard let device = Identifier(id), case .object = entry else { throw bad("/declined/\(id)") }
                var record = DeclinedRequest()
                if let text = entry["key"]?.stringValue {
                    guard let key = PublicKey(base64: text) else { throw bad("/declined/\(id)/key") }
                    record.key = key
                }
                record.invite = entry["invite"]?.stringValue
                access.declined[device] = record
            }
        }
        return access
    }

    /// The record's epoch keys, `leftOut` and `rotate` read from `json` (`load`); `bad` names
    /// what is damaged.
    private mutating func readKeys(_ json: JSONValue, bad: (String) -> FileSystemError) throws {
        if let list = json["epochs"] {
            guard case .array(let entries) = list else { throw bad("/epochs") }
            for (index, entry) in entries.enumerated() {
                guard let number = entry["epoch"]?.intValue, let text = entry["key"]?.stringValue, let key = EpochKey(epoch: Int(number), base64: text)
                else { throw bad("/epochs/\(index)") }
                remember([key])
            }
        }
        if let entry = json["leftOut"] {
            guard let number = entry["epoch"]?.intValue, (1...Int64(EpochKey.maximumEpoch)).contains(number), let id = entry["id"]?.stringValue,
                EpochKey.isID(id)
            else { throw bad("/leftOut") }
            leftOut = (Int(number), id)
        }
        if json["rotate"] != nil {
            guard case .bool(let asked)? = json["rotate"] else { throw bad("/rotate") }
            rotateAsked = asked
        }
    }

    /// Writes the record durably, 0600 (it may hold the owner key and invite secrets).
    package func save(_ home: Home, _ trip: TripID) throws {
        try FileIO.makeFolder(home.layout.access)
        try FileIO.writeAtomically(Array((fingerprint + "\n").utf8), to: TripAccess.path(home, trip), mode: 0o600)
    }

    /// The record's canonical JSON text (also what tells whether a sync changed it).
    package var fingerprint: String {
        var object: [String: JSONValue] = [:]
        if let ownerKey { object["ownerKey"] = .string(ownerKey.seedBase64) }
        object["invites"] = .array(
            invites.map { invite in
                var entry: [String: JSONValue] = ["code": .string(invite.code.text)]
                if let used = invite.usedBy { entry["usedBy"] = .string(used.description) }
                if let key = invite.usedKey { entry["usedKey"] = .string(key.base64) }
                return .object(entry)
            })
        if let join { object["join"] = .object(["code": .string(join.code.text), "folder": .string(join.folder)]) }
        if let knownOwner { object["knownOwner"] = .string(knownOwner.base64) }
        if !epochKeys.isEmpty {
            object["epochs"] = .array(
                epochKeys.sorted { $0.precedes($1) }.map { .object(["epoch": .int(Int64($0.epoch)), "key": .string($0.base64)]) })
        }
        if rotateAsked { object["rotate"] = true }
        if let leftOut { object["leftOut"] = ["epoch": .int(Int64(leftOut.epoch)), "id": .string(leftOut.id)] }
        if !names.isEmpty { object["names"] = .object(Dictionary(uniqueKeysWithValues: names.map { ($0.key.description, JSONValue.string($0.value)) })) }
        object["requests"] = .object(
            Dictionary(
                uniqueKeysWithValues: requests.map { device, request in
                    var entry: [String: JSONValue] = [
                        "key": .string(request.key.base64), "name": .string(request.name), "source": .string(request.source),
                        "seen": .string(request.seen.description),
                    ]
                    if let invite = request.invite { entry["invite"] = .string(invite) }
                    if let role = request.role { entry["role"] = .string(role.rawValue) }
                    if let box = request.box { entry["box"] = .string(box.base64) }
                    return (device.description, JSONValue.object(entry))
                }))
        if !declined.isEmpty {
            object["declined"] = .object(
                Dictionary(
                    uniqueKeysWithValues: declined.map { device, record in
                        var entry: [String: JSONValue] = [:]
                        if let key = record.key { entry["key"] = .string(key.base64) }
                        if let invite = record.invite { entry["invite"] = .string(invite) }
                        return (device.description, JSONValue.object(entry))
                    }))
        }
        return JSONValue.object(object).text
    }
}

extension InviteCode {
    /// A code as this home stored it; nil when it does not parse (the caller names the record).
    package init?(stored text: String) {
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
    package func signingKey(for device: DeviceID) throws -> SigningKey {
        let path = layout.deviceKey
        var previous: [(device: DeviceID, key: SigningKey)] = []
        var previousBoxes: [DeviceID: EncryptionKeyPair] = [:]
        if FileManager.default.fileExists(atPath: path) {
            let file = try DeviceKeyFile(home: self)
            if file.device == device { return file.key }
            // An id this home wrote as before keeps the key it signed with: a fresh key for it
            // would make a former id current again and leave the current id's grants naming a
            // key this home no longer signs with (a caller holding a stale id, issue 43).
            if let former = file.previous.last(where: { $0.device == device }) { return former.key }
            previous = file.previous.filter { $0.device != file.device } + [(file.device, file.key)]
            previousBoxes = file.previousBoxes
            previousBoxes[file.device] = file.box
        }
        let key = SigningKey.generate()
        try DeviceKeyFile(
            device: device, key: key, box: EncryptionKeyPair.generate(), previous: Array(previous.suffix(DeviceKeyFile.maximumPrevious)),
            previousBoxes: previousBoxes
        ).save(home: self)
        return key
    }

    /// This installation's X25519 encryption key pair for `device` (schema 6), kept in
    /// `device.key` with the signing key (0600, written durably): made with a new signing key,
    /// and made once for a home written before encryption keys. A home that takes a new id gets
    /// a new pair and keeps the earlier ones (`previousEncryptionKeys`).
    package func encryptionKey(for device: DeviceID) throws -> EncryptionKeyPair {
        _ = try signingKey(for: device)
        var file = try DeviceKeyFile(home: self)
        // The current id's pair, or a former id's own (signingKey left the file as it was for
        // one); made once for an id that had none.
        let current = file.device == device
        if let pair = current ? file.box : file.previousBoxes[device] { return pair }
        let pair = EncryptionKeyPair.generate()
        if current { file.box = pair } else { file.previousBoxes[device] = pair }
        try file.save(home: self)
        return pair
    }

    /// The encryption key pairs of the device ids this home wrote as before its current one.
    package func previousEncryptionKeys() throws -> [DeviceID: EncryptionKeyPair] {
        guard FileManager.default.fileExists(atPath: layout.deviceKey) else { return [:] }
        return try DeviceKeyFile(home: self).previousBoxes
    }

    /// The keys of the device ids this home wrote as before its current one, oldest first
    /// (empty when it never changed id).
    package func previousSigningKeys() throws -> [(device: DeviceID, key: SigningKey)] {
        guard FileManager.default.fileExists(atPath: layout.deviceKey) else { return [] }
        return try DeviceKeyFile(home: self).previous
    }
}

extension Home {
    /// The trips this home asked to join (`TripStore.join`) and is still waiting for, with the
    /// role and folder of each. Throws when the access folder or a record cannot be read.
    package func pendingJoins() throws -> [(trip: TripID, role: MemberRole, folder: String)] {
        let folder = layout.access
        return try FileIO.folderTextNames(folder, what: "this home's access records").compactMap { name in
            guard name.hasSuffix(".json"), let trip = Identifier(String(name.dropLast(5))) else { return nil }
            guard let join = try TripAccess.load(self, trip).join else { return nil }
            return (trip, join.code.role, join.folder)
        }
    }
}
