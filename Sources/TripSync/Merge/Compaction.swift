/// When a tombstone's body may be dropped (docs/FORMAT.md; the shared design page, "Compaction").
public struct RetentionPolicy: Hashable, Sendable {
    /// How long after the latest delete a body is kept at least (default 90 days).
    public var retentionSeconds: Int64

    /// Creates a policy.
    public init(retentionDays: Int = 90) {
        retentionSeconds = Int64(retentionDays) * 86_400
    }

    /// The default: 90 days.
    public static let standard = RetentionPolicy()
}

extension TripDocument {
    /// The ids of tombstones whose body may go at `now`: the retention has passed since the latest
    /// delete, and every device in `clock` has acknowledged (its `acks` entry covers) every
    /// delete dot and every dot in the body.
    public func compactableTombstones(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> [ItemID] {
        tombstones.compactMap { id, tombstone in
            guard !tombstone.item.isEmpty else { return nil }
            let dots = tombstone.deleted.versions.map(\.rev) + tombstone.item.dots.map(\.rev)
            return mayCompact(deleted: tombstone.deleted, dots: dots, now: now, policy: policy) ? id : nil
        }
    }

    /// The ids of detached attachments whose registers may go at `now`, by the same rule as
    /// tombstones: the retention has passed since the latest detach, and every device has
    /// acknowledged every dot the attachment holds.
    public func compactableAttachments(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> [AttachmentID] {
        attachments.compactMap { id, attachment in
            guard let deleted = attachment.deleted, attachment.dots.contains(where: { $0.field != "deleted" }) else { return nil }
            return mayCompact(deleted: deleted, dots: attachment.dots.map(\.rev), now: now, policy: policy) ? id : nil
        }
    }

    /// The one compaction rule: the retention has passed since the latest delete in `deleted`,
    /// and every device in `clock` has acknowledged (its `acks` entry covers) every one of `dots`.
    private func mayCompact(deleted: Register<Deletion>, dots: [Rev], now: UTCTimestamp, policy: RetentionPolicy) -> Bool {
        let latest = deleted.versions.map(\.value.at).max() ?? now
        guard now.secondsSinceEpoch - latest.secondsSinceEpoch >= policy.retentionSeconds else { return false }
        return clock.entries.keys.allSatisfy { device in acks[device].map { ack in dots.allSatisfy { ack.sees($0) } } ?? false }
    }

    /// Drops the bodies of compactable tombstones and the registers of compactable detached
    /// attachments; the stubs (id and `deleted`) stay for good, so a stale copy can never bring
    /// the item or the attachment back, and the attachment's bytes, named by nothing any more,
    /// go at the next `gc` (docs/DESIGN.md, "Attachments"). Returns how many were compacted.
    @discardableResult
    public mutating func compact(now: UTCTimestamp, policy: RetentionPolicy = .standard) -> Int {
        let ids = compactableTombstones(now: now, policy: policy)
        for id in ids { tombstones[id]?.item = ItemFields() }
        let detached = compactableAttachments(now: now, policy: policy)
        for id in detached { attachments[id] = Attachment(deleted: attachments[id]?.deleted) }
        return ids.count + detached.count
    }

    /// Tombstone bodies that hold values written while the item was deleted (dots no delete had
    /// seen): "edited while deleted: restore?".
    public func editedWhileDeleted(_ id: ItemID) -> [(field: ItemField, rev: Rev)] {
        guard let tombstone = tombstones[id] else { return [] }
        let deletes = tombstone.deleted.versions.map(\.value.seen)
        return tombstone.item.dots.filter { dot in !deletes.contains { $0.sees(dot.rev) } }
    }
}
