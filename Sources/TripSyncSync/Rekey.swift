import TripSyncCore

/// Re-keying after a device fork (docs/DESIGN.md, "Forks"): a cloned home or a replica restored from
/// an old copy wrote under our device id with counters we also used.
package enum Rekey {
    /// Moves every value of ours (device `old`) written after the split that `input` does not
    /// hold under the same dot with the same value to a new dot of `new`, then merges `input`
    /// treating its `old` dots after the split as unseen, so the other copy's writes under the
    /// old id survive too. The split is the last state of ours both copies share: our last
    /// published clock (`acks[old][old]`), no later than the last write of ours both hold alike,
    /// or 0 when unknown. A spurious conflict is possible; a loss is not.
    package static func merge(
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
        // Every register (`updateRegisters`, the one walk over a document's registers).
        var restamp = Restamp(old: old, new: new, split: split, held: held, clock: clock, now: now)
        try document.updateRegisters(&restamp)
        clock = restamp.clock
        document.clock = document.clock.union(restamp.included)
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
    /// the same value"), from every register (`walkRegisters`).
    static func heldDots(_ document: TripDocument) -> [Rev: Set<AnyHashable>] {
        struct Held: RegisterVisitor {
            var result: [Rev: Set<AnyHashable>] = [:]
            mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath) {
                for version in register.versions { result[version.rev, default: []].insert(AnyHashable(version.value)) }
            }
        }
        var held = Held()
        document.walkRegisters(&held)
        return held.result
    }

    /// Moves each value of ours (`old`) written after the split that the other copy does not
    /// hold under the same dot with the same value to a dot of `new`.
    private struct Restamp: RegisterTransform {
        typealias Failure = EditError
        let old: DeviceID
        let new: DeviceID
        let split: UInt64
        let held: [Rev: Set<AnyHashable>]
        var clock: HybridLogicalClock
        let now: UInt64
        var moved: Set<UInt64> = []
        /// The new dots, for the document's clock.
        var included = VersionVector()

        mutating func update<Value>(_ register: Register<Value>, at path: RegisterPath) throws(EditError) -> Register<Value> {
            var versions: [Versioned<Value>] = []
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
                            throw EditError(.clockAhead, "this laptop's counter has reached the largest a rev can hold (its clock was once set hundreds of thousands of years ahead); set the date and time right and run the command again")
                        }
                        counter = fresh
                    }
                    clock.recordIssued(counter)
                    let rev = Rev(counter: counter, device: new)
                    included.include(rev)
                    versions.append(Versioned(value: version.value, rev: rev))
                } else {
                    versions.append(version)
                }
            }
            return Register(versions: versions) ?? register
        }
    }
}
