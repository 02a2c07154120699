import TripSyncCore

/// A replica written while this laptop's clock ran ahead (wrong, then fixed) recovers by itself
/// (docs/DESIGN.md, "Clocks from the future"): every value of this home's device ids whose dot
/// lies more than 24 hours past the wall clock moves to a new dot of the current id at the
/// present counter, in the order it was typed, and every vector that saw the old dot sees the
/// new one. The old ids' clock entries then fall back to what is left of them, so the replica
/// is once more a document every reader takes; nobody else ever held those values (every
/// reader refuses a file from the future).
enum ClockRecovery {
    /// What the recovery did.
    struct Outcome {
        /// Values moved to new dots.
        var moved = 0
        /// Owner-signed grants that had to be signed again (this home holds the owner key) or,
        /// when it does not, dropped: their dots were from the future too.
        var regranted = 0
        var dropped = 0
    }

    /// Moves the values of `ours` above `now + 24 h` in `document` to new dots of `device`
    /// issued by `clock` (which must not itself be past the bound). Grants written from the
    /// future are signed again with `ownerKey` when given, else dropped.
    static func recover(
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
        document.mapDeletions { deletion in Deletion(at: deletion.at, seen: moved(deletion.seen)) }
        for (id, ack) in document.acks { document.acks[id] = moved(ack) }
        for new in mapping.values { document.clock.include(new) }
        // The old ids' entries fall back to their greatest dot left (none is past the bound now).
        var left: [DeviceID: UInt64] = [:]
        let grantDots = document.members.values.map(\.rev).filter { $0.counter <= bound }
        for rev in document.allDots() + grantDots where ours.contains(rev.device) { left[rev.device] = max(left[rev.device] ?? 0, rev.counter) }
        // Vectors that saw a counter within the bound keep it (an overwritten dot leaves none).
        var vectors: [VersionVector] = Array(document.acks.values) + document.members.values.compactMap(\.seen)
        for tombstone in document.tombstones.values { vectors += tombstone.deleted.versions.map(\.value.seen) }
        for vector in vectors {
            for (id, counter) in vector.entries where ours.contains(id) && counter <= bound { left[id] = max(left[id] ?? 0, counter) }
        }
        for (id, counter) in document.clock.entries where ours.contains(id) && counter > bound { document.clock[id] = left[id] ?? 0 }
        let limit = document.clock
        func clamped(_ vector: VersionVector) -> VersionVector {
            var result = vector
            for (id, counter) in vector.entries where counter > limit[id] { result[id] = limit[id] }
            return result
        }
        document.mapDeletions { deletion in Deletion(at: deletion.at, seen: clamped(deletion.seen)) }
        for (id, ack) in document.acks { document.acks[id] = clamped(ack) }
        // Grants written from the future: signed again at the present counter, or dropped.
        for (member, grant) in grantsAhead.sorted(by: { $0.key < $1.key }) {
            document.members[member] = nil
            if let ownerKey, document.owner?.key == ownerKey.publicKey {
                var hlc = clock
                do {
                    try document.grant(member, key: grant.key, role: grant.role, name: grant.name, ownerKey: ownerKey, hlc: &hlc, now: now)
                    clock = hlc
                    outcome.regranted += 1
                } catch {
                    outcome.dropped += 1
                }
            } else {
                outcome.dropped += 1
            }
        }
        return outcome
    }
}

extension TripDocument {
    /// Replaces the dot of every register version by `transform`'s (trip name and zone, device names,
    /// items, tombstones, attachments); the clock is the caller's.
    mutating func mapRegisterVersions(_ transform: (Rev) -> Rev) {
        func map<V>(_ register: Register<V>?) -> Register<V>? {
            guard let register else { return nil }
            return Register(versions: register.versions.map { Versioned(value: $0.value, rev: transform($0.rev)) })
        }
        func mapItem(_ item: ItemFields) -> ItemFields {
            ItemFields(
                title: map(item.title), sortKey: map(item.sortKey), start: map(item.start), end: map(item.end), place: map(item.place),
                note: map(item.note))
        }
        if let name = map(trip.name) { trip.name = name }
        trip.zone = map(trip.zone)
        for (id, info) in devices {
            if let name = map(info.name) { devices[id] = DeviceInfo(name: name) }
        }
        for (id, item) in items { items[id] = mapItem(item) }
        for (id, tombstone) in tombstones {
            tombstones[id] = Tombstone(deleted: map(tombstone.deleted) ?? tombstone.deleted, item: mapItem(tombstone.item))
        }
        for (id, attachment) in attachments {
            attachments[id] = Attachment(
                item: map(attachment.item), blob: map(attachment.blob), name: map(attachment.name), caption: map(attachment.caption),
                deleted: map(attachment.deleted))
        }
    }

    /// Replaces every delete's value by `transform`'s.
    mutating func mapDeletions(_ transform: (Deletion) -> Deletion) {
        for (id, tombstone) in tombstones {
            let versions = tombstone.deleted.versions.map { Versioned(value: transform($0.value), rev: $0.rev) }
            if let deleted = Register(versions: versions) { tombstones[id] = Tombstone(deleted: deleted, item: tombstone.item) }
        }
    }
}
