import TripSyncPlatform

/// Why two documents cannot be merged.
package struct MergeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of refusal.
    package enum Kind: Hashable, Sendable {
        /// The documents are of different trips.
        case differentTrips
        /// An input's counters run more than the allowed skew ahead of our wall clock.
        case clockFromTheFuture
        /// An input is not taken by the acceptance of sync (another owner, an owner claim for an
        /// open trip, an unsigned or older copy of an owned trip, a non-member's file).
        case notAccepted
    }

    /// The kind of refusal.
    package var kind: Kind
    /// What a person reads.
    package var message: String
    /// The JSON Pointer of the register involved, when there is one.
    package var pointer: String?

    /// Creates an error.
    package init(_ kind: Kind, message: String, pointer: String? = nil) {
        self.kind = kind
        self.message = message
        self.pointer = pointer
    }

    /// The message, with the pointer when known.
    package var description: String { (pointer.map { $0 + ": " } ?? "") + message }
}

/// The pure merge at the centre of TripSync (docs/DESIGN.md, "The register rule"): commutative,
/// associative and idempotent for consistent inputs, so files merge in any order, any number of
/// times; after a device fork it stays commutative and idempotent and keeps values rather than
/// the last law (docs/DESIGN.md, "Forks").
package enum DocumentMerger {
    /// Merges two documents of one trip; the output's `deviceId` is `writer`, nothing else in
    /// it depends on which input came first.
    ///
    /// Two values under one dot (a forked device) are both kept; `forks(_:_:)` names them.
    ///
    /// - Throws: `MergeError` when the trips differ.
    package static func merge(_ a: TripDocument, _ b: TripDocument, writer: DeviceID) throws(MergeError) -> TripDocument {
        var document = a
        _ = try mergeInPlace(&document, b, writer: writer, report: false)
        return document
    }

    /// Merges like `merge(_:_:writer:)` and also returns every register where the two inputs
    /// hold different values under one dot (a device that wrote twice with the same counter: a
    /// copied home or one restored from an old copy). Both values are kept in the result.
    package static func mergeFindingForks(
        _ a: TripDocument, _ b: TripDocument, writer: DeviceID
    ) throws(MergeError) -> (document: TripDocument, forks: [SameDotFork]) {
        var document = a
        var forks: [SameDotFork] = []
        _ = try mergeInPlace(&document, b, writer: writer, report: false, forks: &forks)
        return (document, forks)
    }

    /// Merges `b` into `a` (replaced by the merge; untouched when it throws) and returns what
    /// `b` brought when `report` is set: the same numbers as `MergeContribution(before: a,
    /// after: merged)`, computed from the ids the merge changes. When the caller holds no other
    /// copy of `a`, its maps are changed in place instead of being copied.
    static func mergeInPlace(
        _ a: inout TripDocument, _ b: TripDocument, writer: DeviceID, report: Bool
    ) throws(MergeError) -> MergeContribution {
        var forks: [SameDotFork] = []
        return try mergeInPlace(&a, b, writer: writer, report: report, forks: &forks)
    }

    /// `mergeInPlace`, appending the registers that hold two values under one dot to `forks`.
    package static func mergeInPlace(
        _ a: inout TripDocument, _ b: TripDocument, writer: DeviceID, report: Bool, forks: inout [SameDotFork]
    ) throws(MergeError) -> MergeContribution {
        guard a.tripID == b.tripID else {
            throw MergeError(.differentTrips, message: "the files are of different trips (\(a.tripID) and \(b.tripID)), expected one trip")
        }
        var context = RegisterMerge(clockA: a.clock, clockB: b.clock)
        var result = TripDocument(
            tripID: a.tripID, deviceID: writer, clock: a.clock.union(b.clock),
            trip: TripInfo(name: a.trip.name))
        // Trip-level registers.
        if let name = context.merge(a.trip.name, b.trip.name, pointer: "/trip/name") {
            result.trip.name = name
        } else {
            // Both names were replaced by writes neither holds: impossible for consistent inputs.
            result.trip.name = a.trip.name.rev > b.trip.name.rev ? a.trip.name : b.trip.name
        }
        // The trip's zone (schema 5): the register rule. Absent means never set (a zone once
        // set is cleared by writing null, never removed), so one side's register is kept whole.
        if let zoneA = a.trip.zone, let zoneB = b.trip.zone {
            result.trip.zone = context.merge(zoneA, zoneB, pointer: "/trip/zone")
        } else {
            result.trip.zone = a.trip.zone ?? b.trip.zone
        }
        // Devices.
        for id in Set(a.devices.keys).union(b.devices.keys) {
            let name = context.merge(a.devices[id]?.name, b.devices[id]?.name, pointer: "/devices/\(id)/name")
            if let name { result.devices[id] = DeviceInfo(name: name) }
        }
        // Items and tombstones: every id on either side, each merged once. Most ids are the same
        // on both sides, or on one side only and unseen by the other: those are kept as they are,
        // so the result starts from A's maps and changes only what the merge decides. The
        // changes are collected first (reading A and B only), then applied to A's maps.
        // What B brings is counted as each change is found (on the cores that find them).
        let scan = changedItems(a, b, context: &context, counts: report)
        let changes = scan.changes
        var brought = scan.brought
        if report { brought.countTrip(before: a.trip, after: result.trip) }
        // Acks: pointwise maximum per device.
        result.acks = a.acks
        for (device, vector) in b.acks {
            result.acks[device] = (result.acks[device] ?? VersionVector()).union(vector)
        }
        // Owner and grants (docs/DESIGN.md, "Members and roles"): one owner on both sides gives
        // per device the grant with the greater rev; two owners keep the winning side's grants
        // (the others are signed by another key). No grant is filtered by a fact of the other side.
        result.owner = TripOwner.merged(a.owner, b.owner)
        if a.owner?.key == b.owner?.key {
            result.members = a.members.merging(b.members, uniquingKeysWith: MemberGrant.winner)
        } else {
            result.members = result.owner?.key == a.owner?.key ? a.members : b.members
        }
        // Successions (schema 5): the union by new id; one new id with two different
        // successions keeps one by a fixed order (`Succession.winner`); which one holds is decided
        // after the merge, by validity (`TripDocument.adopt`).
        result.successions = a.successions.merging(b.successions, uniquingKeysWith: Succession.winner)
        // Attachments (docs/DESIGN.md, "Attachments"): few, merged id by id like items.
        result.attachments = a.attachments
        for (id, attachment) in b.attachments {
            let mine = a.attachments[id]
            if let mine, mine.hasSameBytes(as: attachment) { continue }
            let merged = context.mergeAttachment(mine, attachment, id: id)
            result.attachments[id] = merged
            if report { brought.count(mine, merged) }
        }
        for (id, attachment) in a.attachments where b.attachments.index(forKey: id) == nil {
            let merged = context.mergeAttachment(attachment, nil, id: id)
            result.attachments[id] = merged
            if report { brought.count(attachment, merged) }
        }
        // A's maps move into the result (no copy when the caller gave up its own).
        swap(&result.items, &a.items)
        swap(&result.tombstones, &a.tombstones)
        for (id, outcome) in changes {
            switch outcome {
            case .live(let fields):
                result.items[id] = fields
                result.tombstones[id] = nil
            case .deleted(let tombstone):
                result.tombstones[id] = tombstone
                result.items[id] = nil
            }
        }
        a = result
        forks += context.forks
        return brought
    }

    /// Ids whose merged entry differs from A's, with the outcome, how many of the visited ids
    /// A holds, and (when `counts`) what the changes bring.
    private struct Scan: Sendable {
        var changes: [(id: ItemID, outcome: RegisterMerge.ItemOutcome)] = []
        var matchedA = 0
        var forks: [SameDotFork] = []
        /// Whether `brought` counts the changes.
        var counts: Bool
        var brought = MergeContribution()

        init(counts: Bool) { self.counts = counts }

        /// One id whose merged entry differs from its entry in `a`.
        @inline(__always)
        mutating func record(_ id: ItemID, _ outcome: RegisterMerge.ItemOutcome, a: TripDocument) {
            if counts { brought.count(id, outcome, before: a) }
            changes.append((id, outcome))
        }

        mutating func append(_ other: Scan) {
            changes += other.changes
            matchedA += other.matchedA
            forks += other.forks
            brought.add(other.brought)
        }
    }

    /// B's live items at least this many are scanned in two halves on two cores.
    package static let parallelItemThreshold = 4096

    /// The ids whose entry in the merge differs from A's, with their merged outcome, in the order
    /// the merge visits them (B's items, B's tombstones, then ids only A holds). Reads only.
    private static func changedItems(_ a: TripDocument, _ b: TripDocument, context: inout RegisterMerge, counts: Bool) -> Scan {
        var scan = Scan(counts: counts)
        if b.items.count >= parallelItemThreshold {
            // Each half is read-only work on A and B; the halves join in order.
            let shared = context
            let middle = b.items.index(b.items.startIndex, offsetBy: b.items.count / 2)
            let halves = ParallelMap.map([b.items.startIndex..<middle, middle..<b.items.endIndex]) { range -> Scan in
                var context = shared
                context.forks = []
                var part = Scan(counts: counts)
                for (id, fields) in b.items[range] { visit(id, b: fields, deletedB: nil, a: a, context: &context, into: &part) }
                part.forks = context.forks
                return part
            }
            for half in halves { scan.append(half) }
            context.forks += scan.forks
        } else {
            for (id, fields) in b.items { visit(id, b: fields, deletedB: nil, a: a, context: &context, into: &scan) }
        }
        for (id, tombstone) in b.tombstones {
            // An id in both of B's maps (an unvalidated B) must not count as two matches of A's ids.
            if b.items.index(forKey: id) != nil { scan.matchedA -= a.items.index(forKey: id) != nil || a.tombstones.index(forKey: id) != nil ? 1 : 0 }
            visit(id, b: tombstone.item, deletedB: tombstone.deleted, a: a, context: &context, into: &scan)
        }
        // Only A has it: keep what B has not seen. (Nothing to look for when B held every id of A.)
        if scan.matchedA < a.items.count + a.tombstones.count {
            for (id, fields) in a.items where b.items.index(forKey: id) == nil && b.tombstones.index(forKey: id) == nil {
                if !context.unseenByB(fields, nil) {
                    scan.record(id, context.mergeItem(fields: (fields, nil), deleted: (nil, nil), isLive: (true, false), id: id), a: a)
                }
            }
            for (id, tombstone) in a.tombstones where b.items.index(forKey: id) == nil && b.tombstones.index(forKey: id) == nil {
                if !context.unseenByB(tombstone.item, tombstone.deleted) {
                    scan.record(id, context.mergeItem(fields: (tombstone.item, nil), deleted: (tombstone.deleted, nil), isLive: (false, false), id: id), a: a)
                }
            }
        }
        return scan
    }

    /// Merges one id of B's (live when `deletedB` is nil) with A's entry, recording the outcome
    /// when it differs from A's.
    @inline(__always)
    private static func visit(
        _ id: ItemID, b fieldsB: ItemFields, deletedB: Register<Deletion>?, a: TripDocument,
        context: inout RegisterMerge, into scan: inout Scan
    ) {
        let liveA = a.items[id]
        let tombA = liveA == nil ? a.tombstones[id] : nil
        if liveA == nil && tombA == nil {
            // Only B has it: keep what A has not seen.
            if context.unseenByA(fieldsB, deletedB) {
                scan.record(id, deletedB.map { .deleted(Tombstone(deleted: $0, item: fieldsB)) } ?? .live(fieldsB), a: a)
                return
            }
        } else {
            scan.matchedA += 1
            if let liveA, deletedB == nil, liveA == fieldsB {
                return  // identical live items
            } else if let tombA, let deletedB, tombA.deleted == deletedB, tombA.item == fieldsB {
                return  // identical tombstones
            }
        }
        scan.record(id, context.mergeItem(
            fields: (liveA ?? tombA?.item, fieldsB), deleted: (tombA?.deleted, deletedB),
            isLive: (liveA != nil, deletedB == nil), id: id), a: a)
    }

}

extension Versioned {
    /// A register holding just this value.
    var asRegister: Register<Value> { Register(value: value, rev: rev) }
}

/// The register rule, with the two inputs' clocks.
struct RegisterMerge {
    let clockA: VersionVector
    let clockB: VersionVector
    /// Registers found holding two values under one dot, in visiting order.
    var forks: [SameDotFork] = []

    /// The result of merging one item id.
    enum ItemOutcome {
        case live(ItemFields)
        case deleted(Tombstone)
    }

    /// Merges two registers (either may be absent = empty): keep every value whose dot the
    /// other side has not seen or still holds; the greatest rev wins. A version is one write:
    /// its dot and its value. Two values under one dot (a forked device: docs/DESIGN.md,
    /// "Forks") are two versions; each side still holds the dot, so both are kept and the pair
    /// is recorded in `forks`.
    @inline(__always)
    mutating func merge<V: ExactValue>(_ a: Register<V>?, _ b: Register<V>?, pointer: @autoclosure () -> String) -> Register<V>? {
        // Unwrapped one by one: a switch over the pair `(a, b)` copies both registers into a
        // tuple first (for a time register, through its type's value witnesses).
        guard let a else {
            guard let b else { return nil }
            return survivors(of: b, otherClock: clockA)
        }
        guard let b else { return survivors(of: a, otherClock: clockB) }
        // Fast path: the same single value on both sides.
        if a.conflicts.isEmpty && b.conflicts.isEmpty && a.rev == b.rev && a.value.hasSameBytes(as: b.value) {
            return a
        }
        var kept: [Versioned<V>] = []
        let versionsB = b.versions
        let versionsA = a.versions
        if versionsA.count * versionsB.count > WriteIndex<V>.scanLimit {
            // Many values (a hostile register holds up to 1,001): the same rule through
            // hashed indexes, linear instead of one scan of B per value of A.
            let indexA = WriteIndex(versionsA)
            let indexB = WriteIndex(versionsB)
            for version in versionsA {
                if indexB.holds(version) {
                    kept.append(version)
                } else if indexB.revs.contains(version.rev) {
                    forks.append(SameDotFork(rev: version.rev, pointer: pointer()))
                    kept.append(version)
                } else if !clockB.sees(version.rev) {
                    kept.append(version)
                }
            }
            for version in versionsB where !indexA.holds(version) {
                if !clockA.sees(version.rev) || indexA.revs.contains(version.rev) { kept.append(version) }
            }
            return Register(ordered: kept)
        }
        for version in versionsA {
            if versionsB.contains(where: { $0.isSameWrite(as: version) }) {
                kept.append(version)
            } else if versionsB.contains(where: { $0.rev == version.rev }) {
                forks.append(SameDotFork(rev: version.rev, pointer: pointer()))
                kept.append(version)
            } else if !clockB.sees(version.rev) {
                kept.append(version)
            }
        }
        for version in versionsB where !versionsA.contains(where: { $0.isSameWrite(as: version) }) {
            if !clockA.sees(version.rev) || versionsA.contains(where: { $0.rev == version.rev }) { kept.append(version) }
        }
        return Register(ordered: kept)
    }

    /// The values of a register present on one side only that the other side has not seen.
    @inline(__always)
    private func survivors<V>(of register: Register<V>, otherClock: VersionVector) -> Register<V>? {
        if register.conflicts.isEmpty {
            return otherClock.sees(register.rev) ? nil : register
        }
        return Register(versions: register.versions.filter { !otherClock.sees($0.rev) })
    }

    /// Whether no dot of an item is seen by A's clock (so merging with A's absence keeps it whole).
    func unseenByA(_ fields: ItemFields, _ deleted: Register<Deletion>?) -> Bool { unseen(fields, deleted, by: clockA) }

    /// Whether no dot of an item is seen by B's clock.
    func unseenByB(_ fields: ItemFields, _ deleted: Register<Deletion>?) -> Bool { unseen(fields, deleted, by: clockB) }

    private func unseen(_ fields: ItemFields, _ deleted: Register<Deletion>?, by clock: VersionVector) -> Bool {
        func ok<V>(_ register: Register<V>?) -> Bool {
            guard let register else { return true }
            if clock.sees(register.rev) { return false }
            return register.conflicts.allSatisfy { !clock.sees($0.rev) }
        }
        return ok(fields.title) && ok(fields.sortKey) && ok(fields.start) && ok(fields.end) && ok(fields.place)
            && ok(fields.note) && ok(deleted)
    }

    /// Merges one item id: its registers and its delete register. Deleted while any delete dot survives.
    mutating func mergeItem(
        fields: (ItemFields?, ItemFields?), deleted: (Register<Deletion>?, Register<Deletion>?),
        isLive: (Bool, Bool), id: ItemID
    ) -> ItemOutcome {
        let a = fields.0 ?? ItemFields()
        let b = fields.1 ?? ItemFields()
        // Read from each side's storage and merged into one new storage, in the order the forks
        // are recorded (title, sortKey, start, end, place, note, deleted).
        let x = a.storage
        let y = b.storage
        let title = merge(x.title, y.title, pointer: "/items/\(id)/title")
        let sortKey = merge(x.sortKey, y.sortKey, pointer: "/items/\(id)/sortKey")
        let start = merge(x.start, y.start, pointer: "/items/\(id)/start")
        let end = merge(x.end, y.end, pointer: "/items/\(id)/end")
        let place = merge(x.place, y.place, pointer: "/items/\(id)/place")
        let note = merge(x.note, y.note, pointer: "/items/\(id)/note")
        var merged = ItemFields(title: title, sortKey: sortKey, start: start, end: end, place: place, note: note)
        if let mergedDeleted = merge(deleted.0, deleted.1, pointer: "/items/\(id)/deleted") {
            return .deleted(Tombstone(deleted: mergedDeleted, item: merged))
        }
        if !merged.isComplete {
            // Only inconsistent inputs get here (a field the other side claims to have replaced
            // without holding the replacement). Never lose a value: keep every version either
            // side holds for the missing field.
            fill(&merged.title, a.title, b.title)
            fill(&merged.sortKey, a.sortKey, b.sortKey)
            fill(&merged.start, a.start, b.start)
            fill(&merged.end, a.end, b.end)
            fill(&merged.place, a.place, b.place)
            fill(&merged.note, a.note, b.note)
        }
        // No delete dot survives: each was replaced by a restore the other side holds, so the
        // item is live again, even when both sides are tombstones (each side deleted again after
        // restoring past the other's delete: r0 restores past its delete d0, then receives r1's
        // delete d1; r1 restores past d1, then merges an old copy holding d0). Keep it deleted,
        // with every delete, only for inputs no history produces: a field with no value left,
        // or a tombstone whose dots the other side claims to have seen without holding the id.
        let absentOnOneSide = fields.0 == nil || fields.1 == nil
        if !merged.isComplete || (!isLive.0 && !isLive.1 && absentOnOneSide) {
            if let register = Register(ordered: WriteIndex.union(deleted.0?.versions ?? [], deleted.1?.versions ?? [])) {
                return .deleted(Tombstone(deleted: register, item: merged))
            }
        }
        return .live(merged)
    }

    /// Merges one attachment id, as `mergeItem` merges an item: detached while any detach dot
    /// survives. An attachment is never dropped (none is ever removed from a trip).
    mutating func mergeAttachment(_ a: Attachment?, _ b: Attachment?, id: AttachmentID) -> Attachment {
        let x = a ?? Attachment()
        let y = b ?? Attachment()
        var merged = Attachment()
        merged.blob = merge(x.blob, y.blob, pointer: "/attachments/\(id)/blob")
        merged.caption = merge(x.caption, y.caption, pointer: "/attachments/\(id)/caption")
        merged.item = merge(x.item, y.item, pointer: "/attachments/\(id)/item")
        merged.name = merge(x.name, y.name, pointer: "/attachments/\(id)/name")
        merged.deleted = merge(x.deleted, y.deleted, pointer: "/attachments/\(id)/deleted")
        if merged.deleted != nil { return merged }
        if !merged.isComplete {
            // Inconsistent inputs only (see `mergeItem`): keep every version of a missing field.
            fill(&merged.blob, x.blob, y.blob)
            fill(&merged.caption, x.caption, y.caption)
            fill(&merged.item, x.item, y.item)
            fill(&merged.name, x.name, y.name)
        }
        // No detach dot survives: a restore replaced each, unless the inputs are inconsistent
        // (as for items: a field with no value, or both detached with the id on one side only).
        let detachedBoth = x.deleted != nil && y.deleted != nil
        if !merged.isComplete || (detachedBoth && (a == nil || b == nil)) || (x.deleted != nil && b == nil) || (y.deleted != nil && a == nil) {
            merged.deleted = Register(ordered: WriteIndex.union(x.deleted?.versions ?? [], y.deleted?.versions ?? []))
        }
        return merged
    }

    private func fill<V: ExactValue>(_ target: inout Register<V>?, _ a: Register<V>?, _ b: Register<V>?) {
        guard target == nil else { return }
        target = Register(ordered: WriteIndex.union(a?.versions ?? [], b?.versions ?? []))
    }
}

/// A register where two merged states hold different values under one dot: the device of the
/// dot wrote twice with the same counter (docs/DESIGN.md, "Forks"). Both values are kept.
package struct SameDotFork: Hashable, Sendable {
    /// The dot both values carry; its device is the forked one.
    package var rev: Rev
    /// The JSON Pointer of the register.
    package var pointer: String

    /// Creates a record.
    package init(rev: Rev, pointer: String) {
        self.rev = rev
        self.pointer = pointer
    }
}

extension MergeError: TripSyncError {
    /// `.refused`: the inputs of a merge that cannot be made.
    package var errorKind: TripSyncErrorKind { .refused }
}
