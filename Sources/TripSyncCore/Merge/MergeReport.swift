/// What one input brought to a merge, measured against the state merged before it.
public struct MergeContribution: Hashable, Sendable {
    /// Items that were not known before.
    public var itemsAdded = 0
    /// Fields of live items whose current value changed.
    public var fieldsChanged = 0
    /// Live items that became deleted.
    public var deletesApplied = 0
    /// Registers that gained a visible conflict.
    public var conflictsCreated = 0
    /// Deleted items that came back.
    public var itemsRestored = 0
    /// Attachments that were not known before (detached ones not counted).
    public var attachmentsAdded = 0
    /// Known attachments whose caption changed, or that were detached or brought back.
    public var attachmentsChanged = 0

    /// Creates an empty contribution.
    package init() {}

    /// Compares the state before and after merging one input (`TripDocument.merged(with:)`
    /// answers it).
    package init(before: TripDocument, after: TripDocument) {
        if before.items.isEmpty && before.tombstones.isEmpty {
            // Everything live is new: no lookups, and items without conflicts add nothing more.
            itemsAdded = after.items.count
            for item in after.items.values where item.hasConflicts {
                conflictsCreated += Self.newConflicts(ItemFields(), item)
            }
            countTrip(before: before.trip, after: after.trip)
            for attachment in after.attachments.values { count(nil, attachment) }
            return
        }
        for (id, item) in after.items {
            let old = before.items[id]
            if let old, old.isIdentical(to: item) { continue }
            countLive(item, old: old, wasDeleted: before.tombstones.index(forKey: id) != nil)
        }
        for id in after.tombstones.keys where before.items[id] != nil {
            deletesApplied += 1
        }
        countTrip(before: before.trip, after: after.trip)
        for (id, attachment) in after.attachments { count(before.attachments[id], attachment) }
    }

    /// Counts one id a merge changed in `before` (every other id keeps its entry from
    /// `before`, so contributes nothing): summed over every changed id, with `countTrip`, the
    /// same counts as `init(before:after:)`. Reads `before` only, so the ids can be counted on
    /// several threads, each into its own contribution (`add`).
    mutating func count(_ id: ItemID, _ outcome: RegisterMerge.ItemOutcome, before: TripDocument) {
        switch outcome {
        case .live(let item):
            countLive(item, old: before.items[id], wasDeleted: before.tombstones.index(forKey: id) != nil)
        case .deleted:
            if before.items.index(forKey: id) != nil { deletesApplied += 1 }
        }
    }

    /// Counts a live item of the result against its entry before: `old` when it was live,
    /// restored when it was deleted, added when it was unknown.
    private mutating func countLive(_ item: ItemFields, old: ItemFields?, wasDeleted: @autoclosure () -> Bool) {
        if let old {
            fieldsChanged += Self.changedFields(old, item)
            conflictsCreated += Self.newConflicts(old, item)
        } else if wasDeleted() {
            itemsRestored += 1
        } else {
            itemsAdded += 1
            conflictsCreated += Self.newConflicts(ItemFields(), item)
        }
    }

    /// Counts what merging changed about the trip's own registers (its name and zone).
    mutating func countTrip(before: TripInfo, after: TripInfo) {
        if before.name.value != after.name.value { fieldsChanged += 1 }
        conflictsCreated += Self.gained(before.name, after.name)
        if before.zone != after.zone, (before.zone?.value ?? nil) != (after.zone?.value ?? nil) { fieldsChanged += 1 }
        conflictsCreated += Self.gained(before.zone, after.zone)
    }

    /// Adds the counts of `other` (another part of the same merge).
    mutating func add(_ other: MergeContribution) {
        itemsAdded += other.itemsAdded
        fieldsChanged += other.fieldsChanged
        deletesApplied += other.deletesApplied
        conflictsCreated += other.conflictsCreated
        itemsRestored += other.itemsRestored
        attachmentsAdded += other.attachmentsAdded
        attachmentsChanged += other.attachmentsChanged
    }

    /// Counts what merging changed about one attachment (`old` nil: not known before).
    mutating func count(_ old: Attachment?, _ new: Attachment) {
        guard let old else {
            if !new.isDetached { attachmentsAdded += 1 }
            conflictsCreated += Self.gained(nil, new.caption)
            return
        }
        if old.caption?.value != new.caption?.value || old.isDetached != new.isDetached { attachmentsChanged += 1 }
        conflictsCreated += Self.gained(old.caption, new.caption)
    }

    /// Whether the input changed nothing.
    public var isEmpty: Bool { self == MergeContribution() }

    static func changedFields(_ a: ItemFields, _ b: ItemFields) -> Int {
        var count = 0
        if a.title?.value != b.title?.value { count += 1 }
        if a.sortKey?.value != b.sortKey?.value { count += 1 }
        if a.start?.value != b.start?.value { count += 1 }
        if a.end?.value != b.end?.value { count += 1 }
        if a.place?.value != b.place?.value { count += 1 }
        if a.note?.value != b.note?.value { count += 1 }
        return count
    }

    /// 1 when `y` shows a conflict `x` did not.
    static func gained<V>(_ x: Register<V>?, _ y: Register<V>?) -> Int {
        (y?.hasVisibleConflict == true && x?.hasVisibleConflict != true) ? 1 : 0
    }

    static func newConflicts(_ a: ItemFields, _ b: ItemFields) -> Int {
        return gained(a.title, b.title) + gained(a.sortKey, b.sortKey) + gained(a.start, b.start)
            + gained(a.end, b.end) + gained(a.place, b.place) + gained(a.note, b.note)
    }
}

extension TripDocument {
    /// The number of registers of the trip and its live items with a visible conflict
    /// (`walkRegisters`; device names, deleted items and attachments are not counted).
    package var visibleConflictCount: Int {
        struct Counter: RegisterVisitor {
            var count = 0
            mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath) {
                switch path {
                case .tripName, .tripZone, .itemField: if register.hasVisibleConflict { count += 1 }
                default: break
                }
            }
        }
        var counter = Counter()
        walkRegisters(&counter)
        return counter.count
    }
}
