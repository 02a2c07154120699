import TripSyncCore

/// A replica written while this laptop's clock ran ahead (wrong, then fixed) recovers by itself
/// (docs/DESIGN.md, "Clocks from the future"): every value of this home's device ids whose dot
/// lies more than 24 hours past the wall clock moves to a new dot of the current id at the
/// present counter, in the order it was typed, and every vector that saw the old dot sees the
/// new one. The old ids' clock entries then fall back to what is left of them, so the replica
/// is once more a document every reader takes; nobody else ever held those values (every
/// reader refuses a file from the future).
package enum ClockRecovery {
    /// What the recovery did.
    package struct Outcome {
        /// Values moved to new dots.
        package var moved = 0
        /// Owner-signed grants from the future signed again (this home holds the owner key), and
        /// those kept as the owner signed them (it does not): a signed grant is never dropped.
        package var regranted = 0
        package var kept = 0
    }

    /// Moves the values of `ours` above `now + 24 h` in `document` to new dots of `device`
    /// issued by `clock` (which must not itself be past the bound). Grants written from the
    /// future are signed again with `ownerKey` when given, else kept as they are.
    package static func recover(
        _ document: inout TripDocument, ours: Set<DeviceID>, to device: DeviceID, clock: inout HybridLogicalClock, ownerKey: SigningKey?, now: UInt64
    ) -> Outcome {
        let bound = now + ClockGuard.maxSkewMilliseconds
        var outcome = Outcome()
        let future = Set(document.allDots().filter { ours.contains($0.device) && $0.counter > bound })
        let grantsAhead = document.members.filter { $0.value.rev.counter > bound || ($0.value.seen?.entries.values.contains { $0 > bound } ?? false) }
        guard !future.isEmpty || !grantsAhead.isEmpty || document.clock.entries.contains(where: { ours.contains($0.key) && $0.value > bound }) else {
            return outcome
        }
        // New dots in the order the values were typed.
        var mapping: [Rev: Rev] = [:]
        for old in future.sorted() {
            guard let counter = clock.next(nowMilliseconds: now) else { break }
            mapping[old] = Rev(counter: counter, device: device)
        }
        outcome.moved = mapping.count
        func moved(_ vector: VersionVector) -> VersionVector {
            var result = vector
            for (old, new) in mapping where vector.sees(old) { result.include(new) }
            return result
        }
        document.mapRegisterVersions { rev in mapping[rev] ?? rev }
        // Only our own deletes are rewritten (their dots are ours, moved above): a value under
        // another device's dot is never changed here, or two replicas would hold two values
        // under one rev (issue 40).
        document.mapDeletions { rev, deletion in ours.contains(rev.device) ? Deletion(at: deletion.at, seen: moved(deletion.seen)) : deletion }
        for (id, ack) in document.acks { document.acks[id] = moved(ack) }
        for new in mapping.values { document.clock.include(new) }
        // The old ids' entries fall back to their greatest dot left (none is past the bound now).
        var left: [DeviceID: UInt64] = [:]
        let grantDots = document.members.values.map(\.rev).filter { $0.counter <= bound }
        for rev in document.allDots() + grantDots where ours.contains(rev.device) { left[rev.device] = max(left[rev.device] ?? 0, rev.counter) }
        // Vectors that saw a counter within the bound keep it (an overwritten dot leaves none).
        var vectors: [VersionVector] = Array(document.acks.values) + document.members.values.compactMap(\.seen)
        var othersDeletes: [VersionVector] = []
        for tombstone in document.tombstones.values {
            for version in tombstone.deleted.versions {
                if ours.contains(version.rev.device) { vectors.append(version.value.seen) } else { othersDeletes.append(version.value.seen) }
            }
        }
        for vector in vectors {
            for (id, counter) in vector.entries where ours.contains(id) && counter <= bound { left[id] = max(left[id] ?? 0, counter) }
        }
        // Another device's delete keeps what it had seen, whatever its counter: the clock stays
        // at or above it (a document's `seen` never runs past its clock).
        for vector in othersDeletes {
            for (id, counter) in vector.entries where ours.contains(id) { left[id] = max(left[id] ?? 0, counter) }
        }
        for (id, counter) in document.clock.entries where ours.contains(id) && counter > bound { document.clock[id] = left[id] ?? 0 }
        let limit = document.clock
        func clamped(_ vector: VersionVector) -> VersionVector {
            var result = vector
            for (id, counter) in vector.entries where counter > limit[id] { result[id] = limit[id] }
            return result
        }
        document.mapDeletions { rev, deletion in ours.contains(rev.device) ? Deletion(at: deletion.at, seen: clamped(deletion.seen)) : deletion }
        for (id, ack) in document.acks { document.acks[id] = clamped(ack) }
        // Grants written from the future: signed again at the present counter when this home
        // holds the owner key. Otherwise they stay as the owner signed them: a signed grant is
        // valid whatever its stamp says, and dropping one took a laptop's seat (issue 40).
        for (member, grant) in grantsAhead.sorted(by: { $0.key < $1.key }) {
            guard let ownerKey, document.owner?.key == ownerKey.publicKey else {
                outcome.kept += 1
                continue
            }
            var regranted = document
            var hlc = clock
            regranted.members[member] = nil
            do {
                try regranted.grant(member, key: grant.key, role: grant.role, name: grant.name, box: grant.box, ownerKey: ownerKey, hlc: &hlc, now: now)
                document = regranted
                clock = hlc
                outcome.regranted += 1
            } catch {
                outcome.kept += 1
            }
        }
        return outcome
    }
}

extension TripDocument {
    /// Replaces the dot of every register version by `transform`'s (every register,
    /// `updateRegisters`); the clock is the caller's.
    mutating func mapRegisterVersions(_ transform: (Rev) -> Rev) {
        struct MapRevs: RegisterTransform {
            typealias Failure = Never
            let transform: (Rev) -> Rev
            func update<Value>(_ register: Register<Value>, at path: RegisterPath) -> Register<Value> {
                Register(versions: register.versions.map { Versioned(value: $0.value, rev: transform($0.rev)) }) ?? register
            }
        }
        withoutActuallyEscaping(transform) { transform in
            var map = MapRevs(transform: transform)
            updateRegisters(&map)
        }
    }

    /// Replaces every delete's value by `transform`'s (given the delete's dot and value).
    mutating func mapDeletions(_ transform: (Rev, Deletion) -> Deletion) {
        for (id, tombstone) in tombstones {
            let versions = tombstone.deleted.versions.map { Versioned(value: transform($0.rev, $0.value), rev: $0.rev) }
            if let deleted = Register(versions: versions) { tombstones[id] = Tombstone(deleted: deleted, item: tombstone.item) }
        }
    }
}
