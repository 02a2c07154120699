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

    /// The reason this home's clock ran far ahead: its high-water mark is more than
    /// `ClockGuard.recoveryLeadMilliseconds` past the wall clock `now` (a clock that was wrong,
    /// then fixed), and the trips `others` (the greatest counter of any other device in each of
    /// this home's replicas) do not show this clock behind instead: when another device's
    /// counters run ahead too, it is this clock that is wrong now, and nothing is re-keyed
    /// (`ClockReading.behind`). A smaller lead is no reason either: counters go on from the
    /// home's own, never backwards. Nil when there is no reason.
    package static func clockRanAhead(_ identity: DeviceIdentity, now: UInt64, others: () -> UInt64) -> String? {
        guard identity.highWater > now + ClockGuard.recoveryLeadMilliseconds else { return nil }
        guard others() <= now + ClockGuard.maxSkewMilliseconds else { return nil }
        return "this laptop's clock was \(ClockGuard.span(identity.highWater - now)) ahead of the real time when it last wrote (device \(identity.deviceID))"
    }

    /// The reason to re-key when the home's own replica holds writes of our id above what the
    /// identity ever issued (`device.json` older than the trip: copied or restored). Nil when not.
    package static func replica(_ document: TripDocument, identity: DeviceIdentity) -> String? {
        let ours = document.clock[identity.deviceID]
        guard ours > issued(identity, vetted: nil) else { return nil }
        return "this home's identity is older than its trip \(document.trip.name.value) (device \(identity.deviceID) wrote up to \(ours), the home remembers \(identity.highWater))"
    }

    /// The high-water rule, the one every decision uses: the highest counter of ours this
    /// installation vouches for is its identity's high-water mark, or what a replica already
    /// opened as ours (`vetted`: checked by `replica(_:identity:)` when it was opened) holds of
    /// ours, whichever is higher. A count of ours above it was written by another copy.
    static func issued(_ identity: DeviceIdentity, vetted: TripDocument?) -> UInt64 {
        max(identity.highWater, vetted?.clock[identity.deviceID] ?? 0)
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
        let issued = ForkCheck.issued(identity, vetted: local)
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
    /// Every dot of every register version (`walkRegisters`: trip name and zone, device names,
    /// items, tombstones, attachments).
    package func allDots() -> [Rev] {
        var result: [Rev] = []
        forEachVersionRev { _, rev in result.append(rev) }
        return result
    }
}
