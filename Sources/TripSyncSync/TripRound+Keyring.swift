import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// What the keyrings of a trip folder held, read before its trip files (`TripRound.openKeyrings`):
/// the epoch keys opened are in the access record by then, so a sealed file sealed with a key
/// that arrived in this very folder opens in the same sync.
struct KeyringScan {
    /// The devices each epoch (by id) is sealed to, in any valid keyring.
    var recipientsByEpoch: [String: Set<DeviceID>] = [:]
    /// This laptop's own keyring: its current epoch, the epochs it opened, its recipients.
    var own: (current: String, held: Set<String>, recipients: Set<DeviceID>)?
    /// The greatest epoch any valid keyring names, and whether it is sealed to this laptop.
    var newest: (epoch: Int, id: String, sealedToUs: Bool)?
}

extension TripRound {
    /// Reads the trip's keyrings (docs/DESIGN.md, "Encryption: the keyring"), first in a round:
    /// every keyring of an owner device in the folder (any device's while this laptop holds no
    /// replica yet, a joining laptop: the owner key's signature decides) is checked against the
    /// trip's owner key and this trip, and the epoch keys sealed to this device, or an earlier
    /// id of its home, are kept in the home's access record. An open trip has no keyring.
    mutating func openKeyrings(_ keyringFiles: [EntryName]) throws -> KeyringScan {
        var found = KeyringScan()
        guard let ownerKey = document?.owner?.key ?? (document == nil ? access.trustedOwner : nil) else { return found }
        let me = identity.deviceID
        // This home's key pairs, read once for every keyring: the current id's, then earlier ids'.
        var pairs = [try home.encryptionKey(for: me)]
        pairs += try home.previousEncryptionKeys().values
        var foreign = 0
        var named: [(name: EntryName, device: DeviceID, owner: Bool)] = []
        for name in keyringFiles {
            // Remembered as seen (whatever is decided below), so an unchanged folder syncs by
            // the quick path; a keyring that changes brings the whole sync back.
            if let (_, stamp) = folder.kind(of: name) { state.files[folder.display(name)] = .init(stamp: stamp, clock: VersionVector()) }
            guard let device = Identifier(String(name.display.dropLast(".keyring.json".count))) else {
                trip.skipped.append(.init(file: folder.display(name), reason: "a keyring not named after a device id (not read)"))
                continue
            }
            named.append((name, device, document.map { $0.role(of: device) == .owner } ?? true))
        }
        // Owners' keyrings first, so a folder full of others never crowds them out.
        for (name, device, owner) in named.filter(\.owner) + named.filter({ !$0.owner }) {
            let path = folder.display(name)
            // Only laptops holding the owner key write keyrings, and the owner key's signature
            // decides; but a laptop may hold the owner seat by a succession this laptop cannot
            // see yet (it is inside files sealed with the key that keyring brings), or become
            // owner by an `owner import` in this very folder. So keyrings of other devices are
            // read too, at most `maximumForeignKeyrings` a sync: a folder full of them costs a
            // listing and a few reads.
            if !owner && device != me {
                guard foreign < Self.maximumForeignKeyrings else {
                    trip.skipped.append(.init(file: path, reason: "a keyring of a device that is not an owner of this trip (not read: \(Self.maximumForeignKeyrings) such keyrings were read this sync)"))
                    continue
                }
                foreign += 1
            }
            openKeyring(name, device: device, ownerKey: ownerKey, pairs: pairs, into: &found)
        }
        noticeLeftOut(found.newest)
        return found
    }

    /// The most keyrings of devices that are not owners (as this laptop knows the trip) one sync reads.
    static let maximumForeignKeyrings = 8

    /// Reads one keyring named after `device`, checked against `ownerKey`: the epoch keys sealed
    /// to this laptop (its current or an earlier id, opened with `pairs`) are kept in the access
    /// record, and what it seals to whom is added to `found`.
    private mutating func openKeyring(
        _ name: EntryName, device: DeviceID, ownerKey: PublicKey, pairs: [EncryptionKeyPair], into found: inout KeyringScan
    ) {
        let path = folder.display(name)
        let me = identity.deviceID
        let mine = [me] + identity.formerIDs
        let ring: Keyring
        do {
            let (bytes, _) = try folder.readFile(name, maxBytes: Keyring.maximumBytes)
            ring = try Keyring(parsing: bytes, trip: tripID, owner: ownerKey)
        } catch let error as KeyringError {
            trip.skipped.append(.init(file: path, reason: "a keyring that cannot be used: \(error.message)"))
            return
        } catch {
            trip.skipped.append(.init(file: path, reason: "\(error)"))
            return
        }
        guard ring.writer == device else {
            trip.skipped.append(.init(file: path, reason: "a keyring written by another device than its name says"))
            return
        }
        found.recipientsByEpoch[ring.epochID, default: []].formUnion(ring.sealed.keys)
        let opened = mine.lazy.compactMap { ring.open(device: $0, keys: pairs) }.first
        if let opened {
            access.remember(opened)
        } else if mine.contains(where: { ring.sealed[$0] != nil }) {
            trip.skipped.append(
                .init(file: path, reason: "a keyring sealed to this laptop that does not open with its keys (its key or history is not what the keyring names)"))
        }
        if device == me { found.own = (ring.epochID, Set((opened ?? []).map(\.id)), Set(ring.sealed.keys)) }
        if found.newest.map({ ($0.epoch, $0.id) < (ring.epoch, ring.epochID) }) ?? true {
            found.newest = (ring.epoch, ring.epochID, mine.contains { ring.sealed[$0] != nil })
        }
    }

    /// Records whether this laptop was left out of the trip's newest epoch (`TripAccess.leftOut`):
    /// an owner-signed keyring of a greater epoch than any this laptop opened, not sealed to it
    /// while an earlier one was. Said at every sync while it lasts.
    private mutating func noticeLeftOut(_ newest: (epoch: Int, id: String, sealedToUs: Bool)?) {
        guard let newest else { return }
        if newest.sealedToUs || access.epochKeys.contains(where: { $0.id == newest.id }) {
            access.leftOut = nil
            return
        }
        guard let held = KeyringPlan.current(access.epochKeys), (held.epoch, held.id) < (newest.epoch, newest.id) else { return }
        access.leftOut = (newest.epoch, newest.id)
        trip.notices.append(
            .init(
                "this laptop was left out of the trip's newest keys (epoch \(newest.epoch)): the owner removed it, or retired the seat it holds; it reads nothing written since, and its edits are refused here, since they could not reach the others",
                remedy: nil))
    }

    /// The keyring this laptop writes, once membership is settled: a laptop holding the owner
    /// key, and owner by the trip's grants, makes its own keyring as `KeyringPlan` decides (a
    /// new epoch after a removal or when asked, the current one sealed again to the current
    /// members otherwise), from what `openKeyrings` found: the bytes returned, which
    /// `publishKeyring` writes once our file, which carries the grants it follows, is published
    /// (nil: no keyring to write). An open trip has no keyring.
    mutating func settleKeyring(_ replica: ReplicaState, keyrings scanned: KeyringScan, boxes: [EntryName]) throws -> [UInt8]? {
        let document = replica.document
        guard let owner = document.owner else { return nil }
        let keyrings = scanned
        // The replica's id: a re-key in this round (a clock far ahead) gave it a new one, which
        // the round's own `identity` takes only when the replica is saved.
        let me = replica.identity.deviceID
        var pairs = [try home.encryptionKey(for: me)]
        pairs += try home.previousEncryptionKeys().values
        let recipientsByEpoch = keyrings.recipientsByEpoch
        // Our own keyring counts only while it is under the id we write as now.
        let own = me == identity.deviceID ? keyrings.own : nil
        guard let ownerKey = access.ownerKey, ownerKey.publicKey == owner.key, document.role(of: me) == .owner else { return nil }
        var members: [DeviceID: EncryptionPublicKey] = [:]
        for (device, grant) in document.members {
            guard let box = grant.box, let role = document.role(of: device), role != .removed else { continue }
            members[device] = box
        }
        members.merge(announcedBoxes(boxes, document: document, except: Set(members.keys))) { granted, _ in granted }
        members[me] = pairs[0].publicKey
        let current = KeyringPlan.current(access.epochKeys)
        let action = KeyringPlan.decide(
            known: access.epochKeys, recipients: current.flatMap { recipientsByEpoch[$0.id] } ?? [], members: Set(members.keys),
            rotateAsked: access.rotateAsked, ownCurrent: own?.current, ownHeld: own?.held ?? [], ownRecipients: own?.recipients ?? [])
        let publish: EpochKey
        switch action {
        case .keep: return nil
        case .publish(let key): publish = key
        case .rotate(let key):
            access.remember([key])
            access.rotateAsked = false
            publish = key
            if key.epoch > 1 {
                trip.notices.append(.init("started epoch \(key.epoch) of the trip's keys, sealed to \(members.count) member\(members.count == 1 ? "" : "s"): a removed member cannot open it"))
            }
        }
        return Keyring(trip: tripID, writer: me, current: publish, earlier: access.epochKeys, recipients: members, ownerKey: ownerKey)
            .fileBytes
    }

    /// The encryption keys the members granted without one announce (`BoxAnnouncement`): read
    /// for each current member (not removed) missing from `except`, taken only when the
    /// announcement is signed by the very key the owner granted to that device.
    private mutating func announcedBoxes(_ files: [EntryName], document: TripDocument, except: Set<DeviceID>) -> [DeviceID: EncryptionPublicKey] {
        var found: [DeviceID: EncryptionPublicKey] = [:]
        for name in files {
            let path = folder.display(name)
            // A seat held through a succession (a copied or restored home's new id) has no grant
            // of its own: the key its predecessor handed over to is the one that vouches.
            guard let device = Identifier(String(name.display.dropLast(".box.json".count))), !except.contains(device),
                let role = document.role(of: device), role != .removed,
                let grantedKey = document.members[device]?.key ?? document.successions[device]?.key
            else { continue }
            do {
                let (bytes, _) = try folder.readFile(name, maxBytes: BoxAnnouncement.maximumBytes)
                let announcement = try BoxAnnouncement(parsing: bytes, trip: tripID)
                guard announcement.device == device, announcement.key == grantedKey else {
                    trip.skipped.append(.init(file: path, reason: "an encryption key not signed by the key the owner granted to device \(device)"))
                    continue
                }
                found[device] = announcement.box
            } catch let error as KeyringError {
                trip.skipped.append(.init(file: path, reason: "a box announcement that cannot be used: \(error.message)"))
            } catch {
                trip.skipped.append(.init(file: path, reason: "\(error)"))
            }
        }
        return found
    }

    /// Writes this laptop's box announcement into an owned trip's folder while its grant has no
    /// encryption key (granted before schema 6, admitted from a signed file, or not admitted
    /// yet), so the owner can seal the trip's keys to it; unchanged bytes are not written again
    /// (the signature is deterministic). Nothing for an open trip or a grant with a `box`.
    mutating func announceBox(_ replica: ReplicaState) throws {
        let document = replica.document
        let me = replica.identity.deviceID
        guard document.owner != nil, document.members[me]?.box == nil, document.role(of: me) != .removed else { return }
        let announcement = BoxAnnouncement(
            trip: tripID, device: me, box: try home.encryptionKey(for: me).publicKey, signingKey: try home.signingKey(for: me))
        let name = EntryName(BoxAnnouncement.fileName(for: me))
        let bytes = announcement.fileBytes
        if folder.look(name)?.isPlain == true {
            do {
                if try folder.readFile(name, maxBytes: BoxAnnouncement.maximumBytes).bytes == bytes { return }
            } catch {
                // Unreadable or too large: replaced below.
            }
        }
        try folder.writeAtomically(bytes, to: name, mode: 0o644)
        if let (_, stamp) = folder.kind(of: name) { state.files[folder.display(name)] = .init(stamp: stamp, clock: VersionVector()) }
    }

    /// Writes the keyring `settleKeyring` made (`bytes`; nil: none), after our file: a laptop
    /// that finds the new keyring in the folder finds the grants that caused it there too,
    /// unless the folder delivers them out of order (docs/DESIGN.md, "Encryption: the keyring").
    mutating func publishKeyring(_ bytes: [UInt8]?) throws {
        guard let bytes else { return }
        let name = EntryName(Keyring.fileName(for: identity.deviceID))
        try folder.writeAtomically(bytes, to: name, mode: 0o644)
        if let (_, stamp) = folder.kind(of: name) { state.files[folder.display(name)] = .init(stamp: stamp, clock: VersionVector()) }
    }
}
