/// Roles through successions (docs/DESIGN.md, "Succession"): a home that took a new device id
/// (copied, restored, clock recovered) keeps its seat. A succession NEW ← OLD, signed by OLD's
/// key, gives NEW exactly OLD's effective role, never a higher one, and a removal of OLD reaches
/// NEW too. A device's own owner-signed grant, when it has one, decides alone: that is the
/// owner's explicit act, and no succession (which anyone holding some device key can write
/// for any id) may change it.
enum Seat {
    /// Chains longer than this are not followed (a home re-keyed more often is re-granted by
    /// its owner).
    static let maximumChain = 16

    /// The grant that decides `device`'s role in `trip`: its own, else the one its succession
    /// inherits (the new key, the old role, rev and `seen`), following chains up to
    /// `maximumChain` links and never round a cycle; nil when neither holds. Each link's
    /// signature is checked against the key of the device it hands over from.
    static func grant(
        of device: DeviceID, grants: [DeviceID: MemberGrant], successions: [DeviceID: Succession], trip: TripID
    ) -> MemberGrant? {
        var visited: Set<DeviceID> = []
        func resolve(_ id: DeviceID, _ depth: Int) -> MemberGrant? {
            if let own = grants[id] { return own }
            guard depth < maximumChain, visited.insert(id).inserted, let succession = successions[id], succession.from != id,
                let old = resolve(succession.from, depth + 1), succession.isSigned(by: old.key, trip: trip, to: id)
            else { return nil }
            return MemberGrant(key: succession.key, name: old.name, role: old.role, rev: old.rev, seen: old.seen, signature: old.signature)
        }
        return resolve(device, 0)
    }

    /// The successions of `successions` that verify now: the device each hands over from has a
    /// seat (its own grant or a verified chain) and its key signed the hand-over. Whether the
    /// new device has a grant of its own does not matter here (every replica stores the same).
    static func holding(_ successions: [DeviceID: Succession], grants: [DeviceID: MemberGrant], trip: TripID) -> [DeviceID: Succession] {
        successions.filter { id, succession in
            guard succession.from != id, let old = grant(of: succession.from, grants: grants, successions: successions, trip: trip) else { return false }
            return succession.isSigned(by: old.key, trip: trip, to: id)
        }
    }
}

extension TripDocument {
    /// The grant that decides `device`'s role here: its own, else through a succession (`Seat`).
    package func effectiveGrant(of device: DeviceID) -> MemberGrant? {
        Seat.grant(of: device, grants: members, successions: successions, trip: tripID)
    }

    /// Hands the seat of the latest of `former` (this home's earlier ids, oldest first) that
    /// this trip knows to `device` (signing with `key`): a succession signed by that id's key
    /// from `keys`. Nothing when the trip is open, `device` already has a seat of its own, or
    /// no earlier id of this home had one. Returns the id handed over from.
    package mutating func keepSeat(of device: DeviceID, key: PublicKey, former: [DeviceID], keys: [DeviceID: SigningKey]) -> DeviceID? {
        guard owner != nil, members[device] == nil, successions[device] == nil else { return nil }
        for old in former.reversed() where old != device {
            guard let signing = keys[old], let seat = effectiveGrant(of: old), seat.key == signing.publicKey else { continue }
            successions[device] = Succession(from: old, to: device, key: key, trip: tripID, signingKey: signing)
            return old
        }
        return nil
    }
}
