import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Members and roles through the store (docs/DESIGN.md, "Members and roles"): listing,
/// claiming an open trip, inviting, approving, changing roles and moving the owner key. Every
/// change is an owner-signed grant written like an edit (stamped, saved before returning).
extension TripStore {
    /// This device's role in the trip; nil in an open trip or while not admitted.
    public var role: MemberRole? { locked { state.document.role(of: state.identity.deviceID) } }

    /// Whether this home holds the trip's owner key; throws when the home's access record
    /// cannot be read.
    public func holdsOwnerKey() throws -> Bool {
        try TripError.door {
            try Self.holdsOwnerKey(locked { state.document }, home: home)
        }
    }

    /// Whether `home` holds the owner key of the trip `document` (read without the lock).
    package static func holdsOwnerKey(_ document: TripDocument, home: Home) throws -> Bool {
        guard let owner = document.owner else { return false }
        return try TripAccess.load(home, document.tripID).ownerKey?.publicKey == owner.key
    }

    /// Every member and every device waiting for the owner: members by role then name, then
    /// the pending ones (requests seen by sync, and devices of the trip that wrote before it
    /// was claimed).
    public func members() throws -> [MemberEntry] {
        try TripError.door {
            try Self.members(of: locked { state.document }, home: home)
        }
    }

    /// `members()` of the trip `document`, with the requests `home` recorded (read without
    /// the lock: the door's read snapshot).
    package static func members(of document: TripDocument, home: Home) throws -> [MemberEntry] {
        let access = try TripAccess.load(home, document.tripID)
        var entries: [MemberEntry] = document.members.map { device, grant in
            // The grant's name (owner-signed); a grant made before grants had names: the
            // name the device asked to join with here, else its short id.
            MemberEntry(
                device: device, name: grant.name ?? access.names[device] ?? document.deviceName(device),
                role: grant.role, key: grant.key, pending: false, source: nil)
        }
        // Successors (a copied or restored home, a clock recovered) hold the seat they inherit.
        for (device, succession) in document.successions where document.members[device] == nil {
            guard let grant = document.effectiveGrant(of: device) else { continue }
            entries.append(
                MemberEntry(
                    device: device, name: grant.name ?? document.deviceName(device), role: grant.role, key: succession.key, pending: false,
                    source: "successor of \(succession.from.description.prefix(8))"))
        }
        entries.sort { ($0.role ?? .removed, $0.name, $0.device) < ($1.role ?? .removed, $1.name, $1.device) }
        guard document.owner != nil else {
            return document.devices.keys.sorted().map {
                MemberEntry(device: $0, name: document.deviceName($0), role: nil, key: nil, pending: false, source: "open trip")
            }
        }
        var pending: [MemberEntry] = []
        // A request of a member stays listed while its grant does not give what it asks (a
        // removed or demoted device asking again, a new key): only the owner decides. A
        // device seated by succession alone (no grant of its own) is not pending.
        let seated = Set(entries.map(\.device))
        for (device, request) in access.requests where !request.isSatisfied(by: document.members[device]) {
            if document.members[device] == nil, seated.contains(device) { continue }
            let held = document.members[device].map { "; now \($0.role.rawValue)\($0.key == request.key ? "" : ", another key")" } ?? ""
            pending.append(MemberEntry(device: device, name: request.name, role: nil, key: request.key, pending: true, source: request.source + held))
        }
        for device in Set(document.devices.keys).union(document.clock.entries.keys).subtracting(seated)
        where access.requests[device] == nil && access.declined[device] == nil && document.devices[device] != nil {
            // Not a member: no grant names it, so what it calls itself (its own write).
            let name = document.selfWrittenName(of: device) ?? document.deviceName(device)
            pending.append(MemberEntry(device: device, name: name, role: nil, key: nil, pending: true, source: MemberEntry.wroteBeforeClaim))
        }
        pending.sort { ($0.name, $0.device) < ($1.name, $1.device) }
        return entries + pending
    }

    /// Claims an open trip (schema 2 and before): this home makes the owner key and this device
    /// becomes the owner; the trip's other devices appear as pending until approved.
    public func claim() throws {
        try TripError.door {
            let name = deviceName
            try changeMembership { document, clock, access, now in
                guard document.owner == nil else {
                    throw MembershipError("this trip is already owned (owner key \(document.owner?.key.fingerprint ?? "")); only an open trip can be claimed")
                }
                let ownerKey = SigningKey.generate()
                access.ownerKey = ownerKey
                try document.claim(
                    ownerKey: ownerKey, deviceKey: try home.signingKey(for: document.deviceID).publicKey,
                    box: try home.encryptionKey(for: document.deviceID).publicKey, name: name, hlc: &clock, now: now)
            }
        }
    }

    /// Makes an invite for `role` (editor or viewer) valid for `days` days.
    public func invite(role: MemberRole, expiresInDays days: Int = 7) throws -> InviteCode {
        try TripError.door {
            guard role == .editor || role == .viewer else { throw MembershipError("an invite is for an editor or a viewer, not \(role.rawValue)") }
            guard (1...365).contains(days) else { throw MembershipError("an invite lasts 1 to 365 days, not \(days)") }
            let me = deviceID
            return try changeMembership { document, _, access, now in
                let ownerKey = try Self.ownerAct(document, access, me: me)
                let code = InviteCode(
                    trip: document.tripID, ownerKey: ownerKey.publicKey, role: role,
                    expires: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000) + Int64(days) * 86_400))
                access.invites.append((code, nil, nil))
                return code
            }
        }
    }

    /// Admits a pending device (by id or id prefix) with `role`, by default the role its
    /// request's invite named (editor when it answered none). Naming the device is the owner's
    /// explicit act: it may bring back a removed device or raise a demoted one.
    @discardableResult
    public func approve(_ selector: String, role: MemberRole? = nil) throws -> MemberEntry {
        try TripError.door {
            let entry = try pendingEntry(selector)
            guard let key = entry.key else {
                throw MembershipError(
                    "\(entry.name) (\(entry.device.description.prefix(8))) has not published a signed file yet, so its key is unknown: it must sync once with this version of TripSync, then approve it")
            }
            // A request naming a member's device id with another key asks for that member's seat:
            // approving it would hand the seat to whoever holds the new key, so it is refused
            // (docs/DESIGN.md, "Every entrance checks the same way").
            let held = locked { state.document.effectiveGrant(of: entry.device) }
            if let held, held.key != key {
                throw MembershipError(
                    "\(entry.name) (\(entry.device.description.prefix(8))) asks with key \(key.fingerprint), but that device is a member (\(held.role.rawValue)) with key \(held.key.fingerprint): approving would hand its seat to another key",
                    remedy: "decline the request; a laptop that lost its key joins again with a new invite (it gets a new device id)")
            }
            let invited = try requestedRole(of: entry.device)
            let granted = role ?? invited ?? .editor
            try setGrant(entry.device, key: key, role: granted)
            return MemberEntry(device: entry.device, name: entry.name, role: granted, key: key, pending: false, source: nil)
        }
    }

    /// Admits every pending device whose key is known and that holds no grant, with `role`, or
    /// when nil with the role its request's invite named, else the least role that fits: editor
    /// for a device that wrote before the trip was claimed (it was a writer), viewer for anything
    /// else; never more than the invite named. A removed or demoted device asking again is left
    /// pending: only `approve DEVICE` naming it admits it. Returns the devices admitted.
    public func approveAll(role: MemberRole? = nil) throws -> [MemberEntry] {
        try TripError.door {
            var done: [MemberEntry] = []
            let grants = locked { state.document.members }
            for entry in try members() where entry.pending && entry.key != nil && grants[entry.device] == nil {
                let invited = try requestedRole(of: entry.device)
                let given = role ?? invited ?? (entry.source == MemberEntry.wroteBeforeClaim ? .editor : .viewer)
                done.append(try approve(entry.device.description, role: max(given, invited ?? .owner)))
            }
            return done
        }
    }

    /// Refuses a pending device (by id or id prefix): its request is dropped and stays refused;
    /// the invite it answered is spent, so only a new invite lets it ask again.
    @discardableResult
    public func decline(_ selector: String) throws -> MemberEntry {
        try TripError.door {
            let entry = try pendingEntry(selector)
            try changeMembership { document, _, access, _ in
                _ = try Self.ownerKey(document, access)
                let request = access.requests[entry.device]
                access.requests[entry.device] = nil
                access.declined[entry.device] = TripAccess.DeclinedRequest(key: entry.key, invite: request?.invite)
                if let id = request?.invite, let index = access.invites.firstIndex(where: { $0.code.id == id && $0.usedBy == nil }) {
                    access.invites[index].usedBy = entry.device
                }
            }
            return entry
        }
    }

    /// The role the invite answered by `device`'s pending request named, if any.
    private func requestedRole(of device: DeviceID) throws -> MemberRole? {
        try locked { try TripAccess.load(home, state.document.tripID).requests[device]?.role }
    }

    /// Changes a member's role (by id, id prefix or exact name).
    @discardableResult
    package func setRole(_ selector: String, _ role: MemberRole) throws -> MemberEntry {
        try changeRole(selector, role).entry
    }

    /// Asks for a new epoch of the trip's keys (`members rotate`): the next sync of this laptop
    /// starts it, sealed only to the current members (docs/DESIGN.md, "Encryption: the keyring").
    /// Needs the owner key and the owner's seat. Returns the epoch the trip is at now (0 before
    /// its first keyring).
    public func rotateKeys() throws -> Int {
        try TripError.door {
            let me = deviceID
            return try changeMembership { document, _, access, _ in
                _ = try Self.ownerAct(document, access, me: me)
                access.rotateAsked = true
                return KeyringPlan.current(access.epochKeys)?.epoch ?? 0
            }
        }
    }

    /// Changes a member's role as `setRole` does, and says whether it changed: a member that
    /// already has `role` is left as it is (nothing is written).
    public func changeRole(_ selector: String, _ role: MemberRole) throws -> (entry: MemberEntry, changed: Bool) {
        try TripError.door {
            let entry = try memberEntry(selector)
            if entry.role == role { return (entry, false) }
            guard let key = entry.key else { throw MembershipError("\(entry.name) has no key yet") }
            if role != .owner, locked({ state.document.predecessors(of: state.identity.deviceID) }).contains(entry.device) {
                throw MembershipError(
                    "this laptop holds its seat through \(entry.name) (\(entry.device.description.prefix(8))), an earlier id of its home: making that device \(role.rawValue) makes this laptop \(role.rawValue) too; nothing was changed",
                    kind: .refused)
            }
            if role != .owner, entry.device == deviceID, entry.role == .owner {
                throw MembershipError(
                    "this laptop holds the owner role", kind: .lastOwner, remedy: "give another laptop of yours the owner key first (export it here, import it there)")
            }
            // A successor's predecessors are earlier ids of the same home, whose keys it still holds:
            // lowering the successor lowers them too, or it would go on writing as them
            // (docs/DESIGN.md, "Removing a successor retires every key it succeeded").
            let retired: [(DeviceID, MemberGrant)] = locked {
                let document = state.document
                return document.predecessors(of: entry.device).compactMap { old in
                    guard old != state.identity.deviceID, let grant = document.effectiveGrant(of: old), grant.role < role else { return nil }
                    return (old, grant)
                }
            }
            try setGrant(entry.device, key: key, role: role)
            for (old, grant) in retired { try setGrant(old, key: grant.key, role: role) }
            return (MemberEntry(device: entry.device, name: entry.name, role: role, key: key, pending: false, source: nil), true)
        }
    }

    /// The exported owner key, sealed with `passphrase` (refused when
    /// `OwnerKeyExport.passphraseProblem` names a problem). The caller's array is its own to
    /// wipe; the copies made here are wiped when released (`SecretBytes`).
    package func exportOwnerKey(passphrase: [UInt8]) throws -> OwnerKeyExport {
        try locked {
            let access = try TripAccess.load(home, state.document.tripID)
            var copy = Array(passphrase)
            return try OwnerKeyExport(trip: state.document.tripID, key: try Self.ownerKey(state.document, access), passphrase: SecretBytes(taking: &copy))
        }
    }

    /// Brings the owner key from another home of the same person: this laptop then holds it and
    /// becomes an owner (a grant it signs itself).
    package func importOwnerKey(_ export: OwnerKeyExport, passphrase: [UInt8]) throws {
        let name = deviceName
        try changeMembership { document, clock, access, now in
            guard export.trip == document.tripID else { throw MembershipError("the key file is for trip \(export.trip), not this trip (\(document.tripID))") }
            guard let owner = document.owner, owner.key == export.publicKey else {
                throw MembershipError("the key file's key (\(export.publicKey.fingerprint)) is not this trip's owner key")
            }
            var copy = Array(passphrase)
            let key = try export.open(passphrase: SecretBytes(taking: &copy))
            access.ownerKey = key
            try document.grant(
                document.deviceID, key: try home.signingKey(for: document.deviceID).publicKey, role: .owner, name: name,
                box: try home.encryptionKey(for: document.deviceID).publicKey, ownerKey: key, hlc: &clock, now: now)
        }
    }

    // MARK: Helpers

    /// Refuses an edit by a device that may not write (docs/DESIGN.md, "Members and roles").
    func checkMayEdit() throws {
        try Self.checkMayEdit(state.document, me: state.identity.deviceID, home: home)
    }

    /// Throws `EditError(.notAllowed)` unless device `me` may change `document`: its role allows
    /// it, and `home` was not left out of the trip's newest keys (`TripAccess.leftOut`).
    static func checkMayEdit(_ document: TripDocument, me: DeviceID, home: Home) throws {
        // Only an owned trip has keys to be left out of (an open trip's edits read no record).
        if document.owner != nil, document.mayEdit(me), let leftOut = try TripAccess.load(home, document.tripID).leftOut {
            throw EditError(
                .notAllowed,
                "this laptop was left out of the newest keys of \"\(document.trip.name.value)\" (epoch \(leftOut.epoch)): the owner removed it or retired its seat, so what it types could not reach the others; it cannot change the trip",
                remedy: "the owner can grant this laptop again")
        }
        guard !document.mayEdit(me) else { return }
        let role = document.role(of: me)
        let trip = "\"\(document.trip.name.value)\""
        let why: String
        switch role {
        case .removed?: why = "this laptop was removed from \(trip)"
        case let role?: why = "this laptop is a \(role.rawValue) of \(trip)"
        case nil: why = "this laptop is not yet a member of \(trip)"
        }
        throw EditError(.notAllowed, "\(why): it cannot change the trip", remedy: "the owner can change roles")
    }

    /// The owner key for an owner act by device `me`: held here, and `me` is the owner in the
    /// trip as this laptop holds it. A laptop whose owner seat was taken away (by another holder
    /// of the owner key, say a copy of its home) is skipped by every other laptop, so an act of
    /// its would take effect nowhere: it is refused, saying so (docs/DESIGN.md, "The owner key
    /// decides owner acts").
    private static func ownerAct(_ document: TripDocument, _ access: TripAccess, me: DeviceID) throws -> SigningKey {
        let key = try ownerKey(document, access)
        let role = document.role(of: me)
        guard role == .owner else {
            let holders = document.members.filter { $0.key != me && $0.value.role == .owner }.keys.map { String($0.description.prefix(8)) }.sorted()
            throw MembershipError(
                "this laptop (\(me.description.prefix(8))) holds the owner key but is \(role.map { "now \($0.rawValue)" } ?? "no member") in this trip\(holders.isEmpty ? "" : " (owner: \(holders.joined(separator: ", ")))"): other laptops skip its files, so this change would take effect nowhere; nothing was changed",
                kind: .notOwner, remedy: "if another laptop took the owner seat with a copy of this home, settle it there")
        }
        return key
    }

    private static func ownerKey(_ document: TripDocument, _ access: TripAccess) throws -> SigningKey {
        guard let owner = document.owner else { throw MembershipError("this trip is open (no owner yet)", kind: .openTrip, remedy: "claim it first") }
        guard let key = access.ownerKey, key.publicKey == owner.key else {
            throw MembershipError(
                "this laptop does not hold the trip's owner key (\(owner.key.fingerprint)); only the owner can do this", kind: .notOwner,
                remedy: "import the owner key here from the file the owner's laptop exports")
        }
        return key
    }

    /// Writes `device`'s grant; its name is the one the device asked to join with (its request
    /// seen here), else the grant's current name, else the name it wrote for itself
    /// (`TripDocument.grant`).
    private func setGrant(_ device: DeviceID, key: PublicKey, role: MemberRole) throws {
        let me = deviceID
        try changeMembership { document, clock, access, now in
            let ownerKey = try Self.ownerAct(document, access, me: me)
            // A request whose name was sealed for an invite not held here has none.
            let asked = access.requests[device].flatMap { $0.name.isEmpty ? nil : $0.name }
            let name = asked ?? access.names[device]
            let box = access.requests[device].flatMap { $0.key == key ? $0.box : nil }
            try document.grant(device, key: key, role: role, name: name, box: box, ownerKey: ownerKey, hlc: &clock, now: now)
            if let asked { access.names[device] = asked }
            access.requests[device] = nil
            access.declined[device] = nil
        }
    }

    private func pendingEntry(_ selector: String) throws -> MemberEntry {
        try pick(selector, from: try members().filter(\.pending), what: "pending device")
    }

    private func memberEntry(_ selector: String) throws -> MemberEntry {
        try pick(selector, from: try members().filter { !$0.pending }, what: "member")
    }

    private func pick(_ selector: String, from entries: [MemberEntry], what: String) throws -> MemberEntry {
        let exact = entries.filter { $0.device.description == selector || $0.name == selector }
        let found = exact.isEmpty ? entries.filter { selector.count >= 4 && $0.device.description.hasPrefix(selector) } : exact
        guard found.count == 1, let entry = found.first else {
            if found.isEmpty {
                throw MembershipError(
                    "no \(what) matches '\(selector)'", kind: .notFound,
                    remedy: what == "pending device"
                        ? "a laptop is pending once a sync here has read its join request or its signed file: sync with the shared folder, then the members list names it"
                        : "the members list names them",
                    facts: ErrorFacts(item: selector, thing: what))
            }
            let list = found.map { "  \($0.device.description.prefix(8))  \($0.name)" }.joined(separator: "\n")
            throw MembershipError("'\(selector)' matches \(found.count) devices; give more of the id:\n\(list)")
        }
        return entry
    }

    /// Runs a membership change on the document and the home's access record, then saves
    /// both durably (access first: an invite or key is never lost behind a saved trip).
    private func changeMembership<T>(_ body: (inout TripDocument, inout HybridLogicalClock, inout TripAccess, UInt64) throws -> T) throws -> T {
        try locked {
            var next = state
            var access = try TripAccess.load(home, next.document.tripID)
            let result = try body(&next.document, &next.clock, &access, FileMerger.wallClockMilliseconds())
            try access.save(home, next.document.tripID)
            try next.save()
            state = next
            return result
        }
    }
}

/// A membership change that cannot be made, with what to do about it.
package struct MembershipError: TripSyncError, Hashable {
    /// What went wrong.
    package var errorKind: TripSyncErrorKind
    /// What happened, in words.
    package var message: String
    /// What would fix it, in words.
    package var remedy: String?
    /// The member or device as named.
    package var facts: ErrorFacts
    init(_ message: String, kind: TripSyncErrorKind = .refused, remedy: String? = nil, facts: ErrorFacts = ErrorFacts()) {
        self.errorKind = kind
        self.message = message
        self.remedy = remedy
        self.facts = facts
    }
    /// The message, then the remedy.
    package var description: String { message + (remedy.map { "; " + $0 } ?? "") }
}

extension TripStore {
    /// Asks to join the trip of `code` from the shared `folder`: writes a signed join request
    /// into the trip folder and remembers the invite in `home`; the owner's next sync admits
    /// this laptop and this laptop's next sync brings the trip.
    package static func join(code: InviteCode, folder: String, in home: Home) throws -> JoinRequest {
        let lock = try HomeLock(home: home)
        return try join(code: code, folder: folder, in: home, holding: lock)
    }

    /// Asks to join under a lock the caller holds already (`TripHome.join`).
    package static func join(code: InviteCode, folder: String, in home: Home, holding lock: HomeLock) throws -> JoinRequest {
        defer { withExtendedLifetime(lock) {} }
        let now = UTCTimestamp(millisecondsSinceEpoch: FileMerger.wallClockMilliseconds())
        guard code.expires >= now else { throw InviteError("the invite expired \(code.expires)", kind: .expiredInvite, remedy: "ask the owner for a new one") }
        // A home holding the trip open may answer an invite: that is how it takes the owner of
        // a trip claimed on another laptop (an owner claim found in a folder file never is).
        if FileManager.default.fileExists(atPath: home.replicaPath(for: code.trip)) {
            guard let held = try home.listTrips().trip(code.trip)?.document else {
                throw InviteError(
                    "this home already holds trip \(code.trip), and its copy cannot be read", kind: .unreadableReplica, remedy: "the home's trip list names the problem",
                    facts: ErrorFacts(trip: code.trip.description))
            }
            if let owner = held.owner {
                throw InviteError(
                    "this home already holds trip \(code.trip)\(owner.key == code.ownerKey ? "" : ", owned by another key (\(owner.key.fingerprint)) than the invite's (\(code.ownerKey.fingerprint))")")
            }
        }
        let identity = try home.identity()
        let key = try home.signingKey(for: identity.deviceID)
        let request = JoinRequest(
            code: code, device: identity.deviceID, name: identity.name, deviceKey: key, box: try home.encryptionKey(for: identity.deviceID).publicKey,
            at: now)
        let root = try FolderHandle.open(path: folder)
        let name = EntryName(code.trip.description)
        if root.kind(of: name) == nil { try root.makeFolder(name) }
        let tripFolder = try root.openFolder(name)
        try tripFolder.writeAtomically(request.fileBytes, to: EntryName(JoinRequest.fileName(for: identity.deviceID)), mode: 0o644)
        var access = try TripAccess.load(home, code.trip)
        access.join = TripAccess.PendingJoin(code: code, folder: folder)
        try access.save(home, code.trip)
        // Its name as this laptop knows it (the file holds it sealed for the invite).
        return request.opened(with: code) ?? request
    }
}
