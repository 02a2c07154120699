/// When a tombstone's body may be dropped (docs/FORMAT.md; the shared design page, "Compaction").
package struct RetentionPolicy: Hashable, Sendable {
    /// How long after the latest delete a body is kept at least (default 90 days).
    package var retentionSeconds: Int64

    /// Creates a policy.
    package init(retentionDays: Int = 90) {
        retentionSeconds = Int64(retentionDays) * 86_400
    }

    /// The default: 90 days.
    package static let standard = RetentionPolicy()
}

extension TripDocument {
    /// The ids of tombstones whose body may go at `now`: the body holds no value written while
    /// the item was deleted (typed work waits for a person: `editedWhileDeleted`), the retention
    /// has passed since the latest delete, and every device in `clock` has acknowledged (its
    /// `acks` entry covers) every delete dot and every dot in the body.
    ///
    /// Linear in the document: what every device acknowledged is computed once (`AckFloor`),
    /// not per tombstone and device.
    package func compactableTombstones(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> [ItemID] {
        let floor = AckFloor(self)
        return tombstones.compactMap { id, tombstone in
            guard !tombstone.item.isEmpty else { return nil }
            let dots = tombstone.deleted.versions.map(\.rev) + tombstone.item.dots.map(\.rev)
            let typed = Self.writtenWhileDeleted(tombstone.item.dots, deleted: tombstone.deleted)
            return mayCompact(deleted: tombstone.deleted, dots: dots, holdsTypedWork: !typed.isEmpty, now: now, policy: policy, floor: floor) ? id : nil
        }
    }

    /// The least, over the devices in the clock, of the greatest counter each acknowledged
    /// (`AckFloor.horizon`): a point of the trip's time every device had reached when it last
    /// published, in ms; nil when the clock is empty. What measures an age without trusting
    /// one laptop's wall clock.
    package var acknowledgedHorizon: UInt64? { AckFloor(self).horizon }

    /// The ids of detached attachments whose registers may go at `now`, by the same rule as
    /// tombstones: no value was written while detached (a caption typed after the detach is
    /// typed work too), the retention has passed since the latest detach, and every device
    /// has acknowledged every dot the attachment holds.
    package func compactableAttachments(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> [AttachmentID] {
        let floor = AckFloor(self)
        return attachments.compactMap { id, attachment in
            guard let deleted = attachment.deleted, attachment.dots.contains(where: { $0.field != "deleted" }) else { return nil }
            let typed = !editedWhileDetached(id).isEmpty
            return mayCompact(deleted: deleted, dots: attachment.dots.map(\.rev), holdsTypedWork: typed, now: now, policy: policy, floor: floor) ? id : nil
        }
    }

    /// When the retention of a tombstone's or detached attachment's body ends (the latest
    /// delete in `deleted` plus the policy's retention), acknowledgements aside; nil when it
    /// holds typed work, which is kept until a person restores it or deletes it again.
    package func retentionEnd(of deleted: Register<Deletion>, holdsTypedWork: Bool, policy: RetentionPolicy = .standard) -> UTCTimestamp? {
        guard !holdsTypedWork, let latest = deleted.versions.map(\.value.at).max() else { return nil }
        return UTCTimestamp(secondsSinceEpoch: latest.secondsSinceEpoch + policy.retentionSeconds)
    }

    /// The one compaction rule: no typed work, the retention has passed since the latest
    /// delete in `deleted` both by this laptop's wall clock and by every device's own
    /// acknowledged counters (a laptop whose clock runs years ahead decides nothing alone:
    /// docs/DESIGN.md, "Compaction waits for every laptop's time"), and every device in `clock`
    /// has acknowledged every one of `dots`.
    private func mayCompact(
        deleted: Register<Deletion>, dots: [Rev], holdsTypedWork: Bool, now: UTCTimestamp, policy: RetentionPolicy, floor: AckFloor
    ) -> Bool {
        guard let end = retentionEnd(of: deleted, holdsTypedWork: holdsTypedWork, policy: policy), now >= end else { return false }
        let latestDelete = deleted.versions.map(\.rev.counter).max() ?? 0
        guard floor.allReached(latestDelete, plus: UInt64(max(policy.retentionSeconds, 0)) * 1000) else { return false }
        return dots.allSatisfy(floor.sees)
    }

    /// Drops the bodies of compactable tombstones and the registers of compactable detached
    /// attachments; the stubs (id and `deleted`) stay for good, so a stale copy can never bring
    /// the item or the attachment back, and the attachment's bytes, named by nothing any more,
    /// go at the next `gc` (docs/DESIGN.md, "Attachments"). Returns how many were compacted.
    @discardableResult
    package mutating func compact(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> Int {
        let ids = compactableTombstones(now: now, policy: policy)
        for id in ids { tombstones[id]?.item = ItemFields() }
        let detached = compactableAttachments(now: now, policy: policy)
        for id in detached { attachments[id] = Attachment(deleted: attachments[id]?.deleted) }
        return ids.count + detached.count
    }

    /// Tombstone bodies that hold values written while the item was deleted (dots no delete had
    /// seen): "edited while deleted: restore?". Such a body is never compacted.
    package func editedWhileDeleted(_ id: ItemID) -> [(field: ItemField, rev: Rev)] {
        guard let tombstone = tombstones[id] else { return [] }
        return Self.writtenWhileDeleted(tombstone.item.dots, deleted: tombstone.deleted)
    }

    /// The values of a detached attachment written while it was detached (dots no detach had
    /// seen), such as a caption typed on a laptop that had not seen the detach. Such an
    /// attachment is never compacted.
    package func editedWhileDetached(_ id: AttachmentID) -> [(field: String, rev: Rev)] {
        guard let attachment = attachments[id], let deleted = attachment.deleted else { return [] }
        return Self.writtenWhileDeleted(attachment.dots.filter { $0.field != "deleted" }, deleted: deleted)
    }

    /// The dots no delete of `deleted` had seen. A dot is seen by some delete exactly when the
    /// union (pointwise maximum) of the deletes' `seen` sees it, so one union is enough: linear
    /// in the deletes and the dots, never their product.
    static func writtenWhileDeleted<Field>(_ dots: [(field: Field, rev: Rev)], deleted: Register<Deletion>) -> [(field: Field, rev: Rev)] {
        var seen = deleted.value.seen
        for conflict in deleted.conflicts { seen.formUnion(conflict.value.seen) }
        return dots.filter { !seen.sees($0.rev) }
    }
}
