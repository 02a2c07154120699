import TripSyncCore

/// Re-keying after a device fork (docs/DESIGN.md, "Forks"): a cloned home or a replica restored from
/// an old copy wrote under our device id with counters we also used.
public enum Rekey {
    /// Moves every value of ours (device `old`) written after the split that `input` does not
    /// hold under the same dot with the same value to a new dot of `new`, then merges `input`
    /// treating its `old` dots after the split as unseen, so the other copy's writes under the
    /// old id survive too. The split is the last state of ours both copies share: our last
    /// published clock (`acks[old][old]`), no later than the last write of ours both hold alike,
    /// or 0 when unknown. A spurious conflict is possible; a loss is not.
    public static func merge(
        _ ours: TripDocument, with input: TripDocument, old: DeviceID, new: DeviceID, clock: inout HybridLogicalClock, now: UInt64
    ) throws -> TripDocument {
        var document = ours
        let held = heldDots(input)
        // The split is no later than the last write of ours both copies hold alike: a home that
        // published its own post-split writes (so its acks cover them) must not count them as
        // shared, or the other copy's writes after the split would be taken as seen.
        var shared: UInt64 = 0
        for (rev, values) in heldDots(ours) where rev.device == old && rev.counter > shared {
            if let other = held[rev], !other.isDisjoint(with: values) { shared = rev.counter }
        }
        let split = min(ours.acks[old]?[old] ?? 0, input.clock[old], shared)
        var moved: Set<UInt64> = []
        func restamp<V>(_ register: Register<V>?) throws -> Register<V>? {
            guard let register else { return nil }
            var versions: [Versioned<V>] = []
            for version in register.versions {
                if version.rev.device == old, version.rev.counter > split, held[version.rev]?.contains(AnyHashable(version.value)) != true {
                    // The write keeps its counter under the new id (a dot no one else has), so it
                    // keeps its place in time: a later value the other copy typed still wins over
                    // it, and it shows as a conflict instead of beating that value. Only a second
                    // value of ours under one counter (a fork already in this register) takes a
                    // fresh counter.
                    var counter = version.rev.counter
                    if !moved.insert(counter).inserted {
                        guard let fresh = clock.next(nowMilliseconds: now) else {
                            throw EditError(.clockAhead, "this replica's clock has run more than 24 hours ahead of the wall clock")
                        }
                        counter = fresh
                    }
                    clock.recordIssued(counter)
                    let rev = Rev(counter: counter, device: new)
                    document.clock.include(rev)
                    versions.append(Versioned(value: version.value, rev: rev))
                } else {
                    versions.append(version)
                }
            }
            return Register(versions: versions)
        }
        func restampItem(_ item: ItemFields) throws -> ItemFields {
            ItemFields(
                title: try restamp(item.title), sortKey: try restamp(item.sortKey), start: try restamp(item.start),
                end: try restamp(item.end), place: try restamp(item.place), note: try restamp(item.note))
        }
        if let name = try restamp(document.trip.name) { document.trip.name = name }
        if document.trip.zone != nil { document.trip.zone = try restamp(document.trip.zone) }
        for (id, info) in document.devices {
            if let name = try restamp(info.name) { document.devices[id] = DeviceInfo(name: name) }
        }
        for (id, item) in document.items { document.items[id] = try restampItem(item) }
        for (id, tombstone) in document.tombstones {
            let deleted = try restamp(tombstone.deleted) ?? tombstone.deleted
            document.tombstones[id] = Tombstone(deleted: deleted, item: try restampItem(tombstone.item))
        }
        for (id, attachment) in document.attachments {
            document.attachments[id] = Attachment(
                item: try restamp(attachment.item), blob: try restamp(attachment.blob), name: try restamp(attachment.name),
                caption: try restamp(attachment.caption), deleted: try restamp(attachment.deleted))
        }
        // Merge with our claim on the old id withdrawn, so the other copy's old-id writes count as unseen.
        let claimed = document.clock[old]
        var withdrawn = document
        withdrawn.clock[old] = split
        withdrawn.deviceID = new
        var merged = try DocumentMerger.merge(withdrawn, input, writer: new)
        merged.clock[old] = max(merged.clock[old], claimed)
        // Our device entry moves to the new id under a new write.
        if let info = merged.devices[old], merged.devices[new] == nil, let counter = clock.next(nowMilliseconds: now) {
            let rev = Rev(counter: counter, device: new)
            merged.clock.include(rev)
            merged.devices[new] = DeviceInfo(name: Register(value: info.name.value, rev: rev))
        }
        return merged
    }

    /// Every dot of a document with its value, per register value (for "holds the same dot with
    /// the same value").
    static func heldDots(_ document: TripDocument) -> [Rev: Set<AnyHashable>] {
        var result: [Rev: Set<AnyHashable>] = [:]
        func add<V>(_ register: Register<V>?) {
            guard let register else { return }
            for version in register.versions { result[version.rev, default: []].insert(AnyHashable(version.value)) }
        }
        add(document.trip.name)
        add(document.trip.zone)
        for info in document.devices.values { add(info.name) }
        func addItem(_ item: ItemFields) {
            add(item.title); add(item.sortKey); add(item.start); add(item.end); add(item.place); add(item.note)
        }
        for item in document.items.values { addItem(item) }
        for tombstone in document.tombstones.values {
            add(tombstone.deleted)
            addItem(tombstone.item)
        }
        for attachment in document.attachments.values {
            add(attachment.item); add(attachment.blob); add(attachment.name); add(attachment.caption); add(attachment.deleted)
        }
        return result
    }
}
