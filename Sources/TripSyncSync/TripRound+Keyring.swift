import TripSyncPlatform
import TripSyncCore
import TripSyncHome

extension TripRound {
    /// The trip's keyrings (docs/DESIGN.md, "Encryption: the keyring"), once membership is
    /// settled: every keyring of an owner device in the folder is checked (the owner key's
    /// signature, this trip) and the epoch keys sealed to this device are kept in the home's
    /// access record; then a laptop holding the owner key, and owner by the trip's grants,
    /// makes its own keyring as `KeyringPlan` decides (a new epoch after a removal or when
    /// asked, the current one sealed again to the current members otherwise): the bytes
    /// returned, which `publishKeyring` writes once our file, which carries the grants it
    /// follows, is published (nil: no keyring to write). An open trip has no keyring.
    mutating func settleKeyring(_ replica: ReplicaState, files keyringFiles: [EntryName]) throws -> [UInt8]? {
        let document = replica.document
        guard let owner = document.owner else { return nil }
        // The replica's id: a re-key in this round (a clock far ahead) gave it a new one, which
        // the round's own `identity` takes only when the replica is saved.
        let me = replica.identity.deviceID
        var pairs = [try home.encryptionKey(for: me)]
        pairs += try home.previousEncryptionKeys().values
        var recipientsByEpoch: [String: Set<DeviceID>] = [:]
        var own: (current: String, held: Set<String>, recipients: Set<DeviceID>)?
        for name in keyringFiles {
            let path = folder.display(name)
            // Remembered as seen (whatever is decided below), so an unchanged folder syncs by
            // the quick path; a keyring that changes brings the whole sync back.
            if let (_, stamp) = folder.kind(of: name) { state.files[path] = .init(stamp: stamp, clock: VersionVector()) }
            let device = Identifier(String(name.display.dropLast(".keyring.json".count)))
            // Only owner laptops write keyrings: any other name is not read (a folder full of
            // them costs a listing, not a read each).
            guard let device, document.role(of: device) == .owner || device == me else {
                trip.skipped.append(.init(file: path, reason: "a keyring of a device that is not an owner of this trip (not read)"))
                continue
            }
            let ring: Keyring
            do {
                let (bytes, _) = try folder.readFile(name, maxBytes: Keyring.maximumBytes)
                ring = try Keyring(parsing: bytes, trip: tripID, owner: owner.key)
            } catch let error as KeyringError {
                trip.skipped.append(.init(file: path, reason: "a keyring that cannot be used: \(error.message)"))
                continue
            } catch {
                trip.skipped.append(.init(file: path, reason: "\(error)"))
                continue
            }
            guard ring.writer == device else {
                trip.skipped.append(.init(file: path, reason: "a keyring written by another device than its name says"))
                continue
            }
            recipientsByEpoch[ring.epochID, default: []].formUnion(ring.sealed.keys)
            let mine = [me] + replica.identity.formerIDs
            let opened = mine.lazy.compactMap { ring.open(device: $0, keys: pairs) }.first
            if let opened {
                access.remember(opened)
            } else if mine.contains(where: { ring.sealed[$0] != nil }) {
                trip.skipped.append(
                    .init(file: path, reason: "a keyring sealed to this laptop that does not open with its keys (its key or history is not what the keyring names)"))
            }
            if device == me { own = (ring.epochID, Set((opened ?? []).map(\.id)), Set(ring.sealed.keys)) }
        }
        guard let ownerKey = access.ownerKey, ownerKey.publicKey == owner.key, document.role(of: me) == .owner else { return nil }
        var members: [DeviceID: EncryptionPublicKey] = [:]
        for (device, grant) in document.members {
            guard let box = grant.box, let role = document.role(of: device), role != .removed else { continue }
            members[device] = box
        }
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
