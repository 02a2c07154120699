/// A removed device judged by its own dots (docs/DESIGN.md, "A removed device is judged by its
/// own dots"): whatever it wrote above its removal's `seen` (an edit, a new item, a delete, an
/// attachment, its counters backdated or not) is taken by no replica that holds the removal,
/// whichever member's file relays it. The merge is not touched: each side is filtered before
/// it, here, so the merge stays the pure, lawful function it is.
extension TripDocument {
    /// Whether the document may hold a write above `bounds` (removed device → the removal's
    /// `seen` of it): its clock goes past one. A document whose clock does not can hold none
    /// (no dot is above its clock), so the filter below costs nothing for most files.
    package func mayHoldLateWrites(_ bounds: [DeviceID: UInt64]) -> Bool {
        bounds.contains { clock[$0.key] > $0.value }
    }

    /// Drops every version written by a device of `bounds` with a counter above its bound.
    /// Where that empties a register, the versions `other` (the other side of the merge about
    /// to run) holds there take its place: the value the late write had replaced, so the merge
    /// keeps it instead of losing it. An item, device name or attachment made by a late write
    /// alone goes; a delete made by one alone is undone (the item lives on). A register with
    /// nothing else to keep (neither side knows what the late write replaced) keeps it: a
    /// document never loses a field it needs. The clock is kept, so a replica that merges the
    /// result drops those versions too. Returns how many versions were dropped and kept.
    package mutating func dropLateWrites(_ bounds: [DeviceID: UInt64], restoringFrom other: TripDocument?) -> (dropped: Int, kept: Int) {
        guard mayHoldLateWrites(bounds) else { return (0, 0) }
        var filter = LateWriteFilter(bounds: bounds)
        // The trip's registers: never emptied.
        trip.name = filter.strip(trip.name, restore: other?.trip.name, required: true) ?? trip.name
        if let zone = trip.zone { trip.zone = filter.strip(zone, restore: other?.trip.zone, required: true) ?? zone }
        for (id, info) in devices where filter.touches(info.name) {
            if let name = filter.strip(info.name, restore: other?.devices[id]?.name, required: false) {
                devices[id] = DeviceInfo(name: name)
            } else {
                devices[id] = nil
            }
        }
        for (id, fields) in items where filter.touches(fields) {
            items[id] = filter.strip(fields, restore: other?.items[id] ?? other?.tombstones[id]?.item)
        }
        for (id, tombstone) in tombstones where filter.touches(tombstone.item) || filter.touches(tombstone.deleted) {
            let fields = filter.strip(tombstone.item, restore: other?.tombstones[id]?.item ?? other?.items[id])
            if let deleted = filter.strip(tombstone.deleted, restore: other?.tombstones[id]?.deleted, required: false) {
                tombstones[id] = fields.map { Tombstone(deleted: deleted, item: $0) }
            } else {
                // Deleted by a late write alone: the item lives on (as the other side has it).
                tombstones[id] = nil
                if let fields { items[id] = fields }
            }
        }
        for (id, attachment) in attachments {
            guard filter.touches(attachment) else { continue }
            let restore = other?.attachments[id]
            var next = attachment
            next.item = filter.strip(attachment.item, restore: restore?.item)
            next.blob = filter.strip(attachment.blob, restore: restore?.blob)
            next.name = filter.strip(attachment.name, restore: restore?.name)
            next.caption = filter.strip(attachment.caption, restore: restore?.caption)
            next.deleted = filter.strip(attachment.deleted, restore: restore?.deleted, required: false)
            if next.item == nil && next.blob == nil && next.name == nil && next.caption == nil {
                attachments[id] = nil
            } else {
                // Whatever else was emptied keeps its late version: a live attachment holds all four.
                next.item = next.item ?? filter.reinstate(attachment.item)
                next.blob = next.blob ?? filter.reinstate(attachment.blob)
                next.name = next.name ?? filter.reinstate(attachment.name)
                next.caption = next.caption ?? filter.reinstate(attachment.caption)
                attachments[id] = next
            }
        }
        return (filter.dropped, filter.kept)
    }
}

/// The one rule of `dropLateWrites`, register by register.
private struct LateWriteFilter {
    let bounds: [DeviceID: UInt64]
    var dropped = 0
    var kept = 0

    func isLate(_ rev: Rev) -> Bool { bounds[rev.device].map { rev.counter > $0 } ?? false }

    func touches<V>(_ register: Register<V>) -> Bool { register.versions.contains { isLate($0.rev) } }

    func touches(_ fields: ItemFields) -> Bool {
        touches(fields.title) || touches(fields.sortKey) || touches(fields.start) || touches(fields.end) || touches(fields.place) || touches(fields.note)
    }

    private func touches<V>(_ register: Register<V>?) -> Bool { register.map { touches($0) } ?? false }

    /// The register without its late versions, else the other side's versions that are not
    /// late, else (`required`) the register as it was (counted as kept) or nil (counted as
    /// dropped).
    mutating func strip<V>(_ register: Register<V>?, restore: Register<V>?, required: Bool = false) -> Register<V>? {
        guard let register else { return nil }
        let versions = register.versions
        let good = versions.filter { !isLate($0.rev) }
        if good.count == versions.count { return register }
        if let kept = Register(versions: good) {
            dropped += versions.count - good.count
            return kept
        }
        if let back = Register(versions: restore?.versions.filter { !isLate($0.rev) } ?? []) {
            dropped += versions.count
            return back
        }
        if required {
            kept += versions.count
            return register
        }
        dropped += versions.count
        return nil
    }

    /// A register `strip` emptied (or nil) kept whole after all: its versions counted as kept,
    /// not dropped.
    mutating func reinstate<V>(_ register: Register<V>?) -> Register<V>? {
        if let register {
            dropped -= register.versions.count
            kept += register.versions.count
        }
        return register
    }

    func touches(_ attachment: Attachment) -> Bool {
        touches(attachment.item) || touches(attachment.blob) || touches(attachment.name) || touches(attachment.caption) || touches(attachment.deleted)
    }

    /// An item's fields without their late versions; nil when every field was a late write's
    /// alone (an item a removed device made). A field emptied while others stay keeps its
    /// late version.
    mutating func strip(_ fields: ItemFields, restore: ItemFields?) -> ItemFields? {
        var next = fields
        let title = strip(fields.title, restore: restore?.title)
        let sortKey = strip(fields.sortKey, restore: restore?.sortKey)
        let start = strip(fields.start, restore: restore?.start)
        let end = strip(fields.end, restore: restore?.end)
        let place = strip(fields.place, restore: restore?.place)
        let note = strip(fields.note, restore: restore?.note)
        if title == nil && sortKey == nil && start == nil && end == nil && place == nil && note == nil { return nil }
        next.title = title ?? reinstate(fields.title)
        next.sortKey = sortKey ?? reinstate(fields.sortKey)
        next.start = start ?? reinstate(fields.start)
        next.end = end ?? reinstate(fields.end)
        next.place = place ?? reinstate(fields.place)
        next.note = note ?? reinstate(fields.note)
        return next
    }
}
