import TripSyncCore

/// The one place that decides whether this home must take a new device id (docs/DESIGN.md,
/// "Forks"): its own high-water mark ran ahead of the wall clock, its replica holds writes of
/// ours its identity never issued, or a file published under our id and key shows another copy
/// of this home. A claim about our counters carried in another member's file is never a reason
/// to re-key: only our own key signs our counters, so that file is refused instead.
package enum ForkCheck {
    /// What to do with one input file.
    package enum Decision: Equatable {
        /// Nothing of ours is in question: merge it.
        case merge
        /// A file under our id and key shows another copy of this home: re-key, then merge.
        case rekey(String)
        /// Another member's file claims counters of ours we never issued: skip it.
        case refuse(String)
    }

    /// The reason this home's clock ran ahead: its high-water mark is more than 24 hours past
    /// the wall clock `now` (a clock that was wrong, then fixed). Nil when it did not.
    package static func clockRanAhead(_ identity: DeviceIdentity, now: UInt64) -> String? {
        guard identity.highWater > now + ClockGuard.maxSkewMilliseconds else { return nil }
        let hours = Double(identity.highWater - now) / 3_600_000
        let days = (hours / 24).rounded()
        let lead = days >= 2 ? "\(Int(days)) days" : "\(Int(hours.rounded())) hours"
        return "this laptop's clock was \(lead) ahead of the real time when it last wrote (device \(identity.deviceID))"
    }

    /// The reason to re-key when the home's own replica holds writes of our id above what the
    /// identity ever issued (`device.json` older than the trip: copied or restored). Nil when not.
    package static func replica(_ document: TripDocument, identity: DeviceIdentity) -> String? {
        let ours = document.clock[identity.deviceID]
        guard ours > identity.highWater else { return nil }
        return "this home's identity is older than its trip \(document.trip.name.value) (device \(identity.deviceID) wrote up to \(ours), the home remembers \(identity.highWater))"
    }

    /// What to do with `input` (read from `path`, written by `writer`) before merging it into
    /// `local`: evidence of another copy of this home is a reason to re-key only in a file
    /// published under our own id (which membership checked is signed by our key); in any other
    /// file it is a claim nobody but us may make, and the file is refused. `ownForks` are the
    /// dots of ours under which the merge found two values.
    ///
    /// In an open trip nothing is signed and every device may write as any other, so evidence
    /// counts wherever it is found (as before members existed). In an owned trip it counts in a
    /// file under our id, or in a file of a device that a succession signed by our key
    /// (`ourKey`) names as our successor: a copy of this home that already took a new id.
    package static func decide(
        _ input: TripDocument, local: TripDocument?, identity: DeviceIdentity, clock: HybridLogicalClock, ownForks: [SameDotFork], path: String,
        writer: String, owned: Bool, ourKey: PublicKey?
    ) -> Decision {
        let me = identity.deviceID
        var evidence: String?
        let claimed = max(input.clock[me], input.acks.values.map { $0[me] }.max() ?? 0)
        let issued = max(identity.highWater, local?.clock[me] ?? 0)
        if claimed > issued {
            evidence = "holds writes of device \(me) up to \(claimed), more than this installation ever issued (\(issued))"
        } else if let foreign = foreignWrite(in: input, identity: identity, clock: clock) {
            evidence = "holds a write under this device's id (rev \(foreign)) that this installation never made"
        } else if let local, let published = input.acks[me]?[me], published > (local.acks[me]?[me] ?? 0) {
            evidence = "saw this device publish up to \(published), later than anything this home remembers publishing (\(local.acks[me]?[me] ?? 0))"
        } else if let first = ownForks.first {
            evidence = "holds another value under this device's rev \(first.rev) at \(first.pointer)"
        }
        guard let evidence else { return .merge }
        if !owned || input.deviceID == me { return .rekey("\(path) \(evidence)") }
        if let ourKey, let succession = input.successions[input.deviceID], succession.from == me,
            succession.isSigned(by: ourKey, trip: input.tripID, to: input.deviceID)
        {
            return .rekey("\(path) \(evidence) (its writer succeeds this device, by a hand-over signed with this device's key: a copy of this home)")
        }
        return .refuse(
            "written by \(writer), it \(evidence); only this device's own key signs this device's counters, so the claim is held against the file and this laptop keeps its id")
    }

    /// The first write under our id in `document` that neither this installation's record
    /// (`DeviceIdentity.issued`) nor this sync's clock issued: made by another copy of this home.
    package static func foreignWrite(in document: TripDocument, identity: DeviceIdentity, clock: HybridLogicalClock) -> Rev? {
        let me = identity.deviceID
        guard document.clock[me] > 0 else { return nil }  // it holds nothing of ours
        var first: Rev?
        for rev in document.allDots() where rev.device == me && !identity.issuedHere(rev.counter) && !clock.issued.contains(rev.counter) {
            if first.map({ rev < $0 }) ?? true { first = rev }
        }
        return first
    }
}

extension TripDocument {
    /// Every dot of every register version (trip name and zone, device names, items, tombstones,
    /// attachments).
    package func allDots() -> [Rev] {
        var result: [Rev] = []
        func add<V>(_ register: Register<V>?) {
            guard let register else { return }
            for version in register.versions { result.append(version.rev) }
        }
        func addItem(_ item: ItemFields) {
            add(item.title); add(item.sortKey); add(item.start); add(item.end); add(item.place); add(item.note)
        }
        add(trip.name)
        add(trip.zone)
        for info in devices.values { add(info.name) }
        for item in items.values { addItem(item) }
        for tombstone in tombstones.values {
            add(tombstone.deleted)
            addItem(tombstone.item)
        }
        for attachment in attachments.values {
            add(attachment.item); add(attachment.blob); add(attachment.name); add(attachment.caption); add(attachment.deleted)
        }
        return result
    }
}
