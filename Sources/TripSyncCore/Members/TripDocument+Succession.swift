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

    /// A seat held through a succession: the grant it gives, the succession chosen and how
    /// many links lead from it to an owner-signed grant.
    struct Held: Sendable {
        var grant: MemberGrant
        var succession: Succession
        var depth: Int
    }

    /// Resolves seats over a set of candidate successions, each device once (memoised), so a
    /// sync checks every link's signature once however often a role is asked for
    /// (docs/DESIGN.md, "Successions are judged by who may sign them"). Between several valid
    /// successions for one new id, the one handing over the highest role wins (then the
    /// smaller old id, then the smaller key): never the larger signature bytes, so nobody can
    /// grind a signature to win, and a viewer's or removed device's hand-over never beats an
    /// editor's.
    struct Resolver {
        let grants: [DeviceID: MemberGrant]
        let candidates: [DeviceID: [Succession]]
        let trip: TripID
        /// Extra candidates consulted before `candidates` (one file's own, while deciding it).
        var overlay: [DeviceID: Succession] = [:]
        /// Seats resolved so far.
        var held: [DeviceID: Held] = [:]
        private var failed: Set<DeviceID> = []
        private var inProgress: Set<DeviceID> = []

        init(grants: [DeviceID: MemberGrant], candidates: [DeviceID: [Succession]], trip: TripID, held: [DeviceID: Held] = [:]) {
            self.grants = grants
            self.candidates = candidates
            self.trip = trip
            self.held = held
        }

        /// `device`'s grant and the links from it to an owner-signed grant (0 for its own).
        mutating func seat(_ device: DeviceID) -> (grant: MemberGrant, depth: Int)? {
            if let own = grants[device] { return (own, 0) }
            if overlay[device] == nil, let done = held[device] { return (done.grant, done.depth) }
            if failed.contains(device) || inProgress.contains(device) { return nil }
            guard let best = succession(to: device) else {
                if overlay[device] == nil { failed.insert(device) }
                return nil
            }
            if overlay[device] == nil { held[device] = best }
            return (best.grant, best.depth)
        }

        /// The valid succession to `device` that wins (`Seat.prefers`), whether or not the
        /// device also has a grant of its own; nil when none verifies.
        mutating func succession(to device: DeviceID) -> Held? {
            var options = candidates[device] ?? []
            if let extra = overlay[device], !options.contains(extra) { options.append(extra) }
            guard !options.isEmpty, !inProgress.contains(device) else { return nil }
            inProgress.insert(device)
            defer { inProgress.remove(device) }
            var best: Held?
            for succession in options where succession.from != device {
                guard let old = seat(succession.from), old.depth < Seat.maximumChain,
                    succession.isSigned(by: old.grant.key, trip: trip, to: device)
                else { continue }
                // No encryption key: the successor's own is unknown until the owner grants it.
                let grant = MemberGrant(
                    key: succession.key, name: old.grant.name, role: old.grant.role, rev: old.grant.rev, seen: old.grant.seen, signature: old.grant.signature)
                let option = Held(grant: grant, succession: succession, depth: old.depth + 1)
                if let current = best, !Seat.prefers(option, over: current) { continue }
                best = option
            }
            return best
        }
    }

    /// Whether `a` beats `b` as the seat of one new id: the higher role handed over, then the
    /// smaller old id, then the smaller key.
    static func prefers(_ a: Held, over b: Held) -> Bool {
        if a.grant.role != b.grant.role { return a.grant.role < b.grant.role }
        if a.succession.from != b.succession.from { return a.succession.from < b.succession.from }
        return a.succession.key.bytes.lexicographicallyPrecedes(b.succession.key.bytes)
    }

    /// The grant that decides `device`'s role in `trip`: its own, else the one its succession
    /// inherits (the new key, the old role, rev and `seen`), following chains up to
    /// `maximumChain` links and never round a cycle; nil when neither holds. Each link's
    /// signature is checked against the key of the device it hands over from.
    static func grant(
        of device: DeviceID, grants: [DeviceID: MemberGrant], successions: [DeviceID: Succession], trip: TripID
    ) -> MemberGrant? {
        if let own = grants[device] { return own }
        guard successions[device] != nil else { return nil }
        var resolver = Resolver(grants: grants, candidates: successions.mapValues { [$0] }, trip: trip)
        return resolver.seat(device)?.grant
    }

    /// The winning valid succession to each new id of `candidates`, each resolved once (for a
    /// device with a grant of its own too: its grant decides its role, but every replica stores
    /// the same successions).
    static func resolveAll(_ candidates: [DeviceID: [Succession]], grants: [DeviceID: MemberGrant], trip: TripID) -> [DeviceID: Held] {
        var resolver = Resolver(grants: grants, candidates: candidates, trip: trip)
        var all: [DeviceID: Held] = [:]
        for device in candidates.keys {
            if grants[device] == nil {
                _ = resolver.seat(device)
            } else if let best = resolver.succession(to: device) {
                all[device] = best
            }
        }
        return all.merging(resolver.held) { own, _ in own }
    }

    /// The successions of `successions` that verify now: the device each hands over from has a
    /// seat (its own grant or a verified chain) and its key signed the hand-over. Whether the
    /// new device has a grant of its own does not matter here (every replica stores the same).
    static func holding(_ successions: [DeviceID: Succession], grants: [DeviceID: MemberGrant], trip: TripID) -> [DeviceID: Succession] {
        var resolver = Resolver(grants: grants, candidates: successions.mapValues { [$0] }, trip: trip)
        return successions.filter { id, succession in
            guard succession.from != id, let old = resolver.seat(succession.from), old.depth < maximumChain else { return false }
            return succession.isSigned(by: old.grant.key, trip: trip, to: id)
        }
    }
}

extension TripDocument {
    /// The grant that decides `device`'s role here: its own, else through a succession (`Seat`).
    package func effectiveGrant(of device: DeviceID) -> MemberGrant? {
        Seat.grant(of: device, grants: members, successions: successions, trip: tripID)
    }

    /// The devices `device` succeeded, nearest first (its predecessors: the earlier ids of a
    /// copied or restored home, whose keys that home still holds), following the successions
    /// stored here up to `Seat.maximumChain` links; empty when it succeeded none.
    package func predecessors(of device: DeviceID) -> [DeviceID] {
        var chain: [DeviceID] = []
        var seen: Set<DeviceID> = [device]
        var current = device
        while chain.count < Seat.maximumChain, let succession = successions[current], seen.insert(succession.from).inserted {
            chain.append(succession.from)
            current = succession.from
        }
        return chain
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
