/// Why a local edit was refused.
public struct EditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What a person reads.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The values of a new item.
public struct NewItem: Hashable, Sendable {
    /// The title (1–200 characters).
    public var title: String
    /// The order key.
    public var sortKey: String
    /// When it starts.
    public var start: TripTime?
    /// When it ends.
    public var end: TripTime?
    /// Where.
    public var place: String?
    /// A note.
    public var note: String?

    /// Creates the values of a new item.
    public init(title: String, sortKey: String, start: TripTime? = nil, end: TripTime? = nil, place: String? = nil, note: String? = nil) {
        self.title = title
        self.sortKey = sortKey
        self.start = start
        self.end = end
        self.place = place
        self.note = note
    }
}

/// A value for one field, for generic edits and conflict resolution.
public enum FieldValue: Hashable, Sendable {
    /// A title, sortKey, place or note (nil clears place and note).
    case text(String?)
    /// A start or end (nil clears it).
    case time(TripTime?)
}

/// Local writes on a document by its own device (`deviceID`). Each write stamps a new rev from
/// the hybrid logical clock and raises `clock`; a write replaces every value it has seen.
extension TripDocument {
    /// Issues the next rev for this document's device.
    mutating func stamp(_ hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) -> Rev {
        hlc.observe(clock.maxCounter)
        guard let counter = hlc.next(nowMilliseconds: now) else {
            throw EditError("this replica's clock has run more than 24 hours ahead of the wall clock; refusing to write so one bad clock cannot poison the trip")
        }
        let rev = Rev(counter: counter, device: deviceID)
        clock.include(rev)
        return rev
    }

    /// Refuses a value that readers of the file would refuse (`TextRule`, `SortKeyRules`, zone
    /// ids of IANA shape), naming the field: an edit never writes a trip others cannot read.
    public static func check(_ field: ItemField, _ value: FieldValue) throws(EditError) {
        func text(_ text: String?, _ rule: TextRule, what: String) throws(EditError) {
            guard let text else { return }
            if let violation = rule.violation(in: text) { throw EditError("\(field.rawValue): " + rule.message(for: violation, what: what)) }
        }
        func time(_ time: TripTime?) throws(EditError) {
            if case .local(_, let zone)? = time, !ZoneID.isWellFormed(zone) {
                throw EditError("\(field.rawValue): " + ZoneID.expectation(found: zone))
            }
        }
        switch (field, value) {
        case (.title, .text(let value?)): try text(value, .title, what: "a title")
        case (.sortKey, .text(let value?)):
            guard SortKeyRules.isValid(value) else {
                throw EditError("sortKey: expected \(SortKeyRules.requirement), found \"\(value.prefix(140))\"")
            }
        case (.place, .text(let value)): try text(value, .place, what: "a place")
        case (.note, .text(let value)): try text(value, .note, what: "a note")
        case (.start, .time(let value)), (.end, .time(let value)): try time(value)
        default: throw EditError("\(field.rawValue) cannot take that value")
        }
    }

    /// Adds a live item with every field stamped; returns nothing (the id is the caller's).
    /// Values readers would refuse are refused here (`check`), and nothing is written.
    public mutating func addItem(_ id: ItemID, _ values: NewItem, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard items[id] == nil, tombstones[id] == nil else { throw EditError("item \(id) already exists") }
        try Self.check(.title, .text(values.title))
        try Self.check(.sortKey, .text(values.sortKey))
        try Self.check(.start, .time(values.start))
        try Self.check(.end, .time(values.end))
        try Self.check(.place, .text(values.place))
        try Self.check(.note, .text(values.note))
        items[id] = ItemFields(
            title: Register(value: values.title, rev: try stamp(&hlc, now: now)),
            sortKey: Register(value: values.sortKey, rev: try stamp(&hlc, now: now)),
            start: Register(value: values.start, rev: try stamp(&hlc, now: now)),
            end: Register(value: values.end, rev: try stamp(&hlc, now: now)),
            place: Register(value: values.place, rev: try stamp(&hlc, now: now)),
            note: Register(value: values.note, rev: try stamp(&hlc, now: now)))
    }

    /// Writes one field of a live item. Returns false (and writes nothing) when the value is
    /// already current and there is no conflict to settle; with `force` it always writes (used
    /// to resolve a conflict by keeping the current value). A value readers would refuse is
    /// refused (`check`).
    @discardableResult
    public mutating func set(
        _ field: ItemField, of id: ItemID, to value: FieldValue, force: Bool = false, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> Bool {
        guard var item = items[id] else {
            throw EditError(tombstones[id] != nil ? "item \(id) is deleted; restore it first" : "no item \(id)")
        }
        try Self.check(field, value)
        func write<V>(_ register: inout Register<V>?, _ newValue: V) throws(EditError) -> Bool {
            if let current = register, current.value == newValue, current.conflicts.isEmpty || !force { return false }
            register = Register(value: newValue, rev: try stamp(&hlc, now: now))
            return true
        }
        let changed: Bool
        switch (field, value) {
        case (.title, .text(let text?)): changed = try write(&item.title, text)
        case (.sortKey, .text(let text?)): changed = try write(&item.sortKey, text)
        case (.place, .text(let text)): changed = try write(&item.place, text)
        case (.note, .text(let text)): changed = try write(&item.note, text)
        case (.start, .time(let time)): changed = try write(&item.start, time)
        case (.end, .time(let time)): changed = try write(&item.end, time)
        default: throw EditError("\(field.rawValue) cannot take that value")
        }
        if changed { items[id] = item }
        return changed
    }

    /// Deletes a live item: its registers move into a tombstone whose delete value records when
    /// (`at`, wall clock) and what this replica had seen.
    public mutating func deleteItem(_ id: ItemID, at: UTCTimestamp, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard let item = items[id] else {
            throw EditError(tombstones[id] != nil ? "item \(id) is already deleted" : "no item \(id)")
        }
        let seen = clock
        let rev = try stamp(&hlc, now: now)
        items[id] = nil
        tombstones[id] = Tombstone(deleted: Register(value: Deletion(at: at, seen: seen), rev: rev), item: item)
    }

    /// Brings a deleted item back with everything it held (edits made while deleted included):
    /// every field is re-stamped with a new dot, a field missing from a compacted tombstone gets
    /// a default, and the delete values (all seen here) are replaced.
    public mutating func restoreItem(_ id: ItemID, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard let tombstone = tombstones[id] else {
            throw EditError(items[id] != nil ? "item \(id) is not deleted" : "no deleted item \(id)")
        }
        var item = tombstone.item
        func restamp<V>(_ register: inout Register<V>?, default value: V) throws(EditError) {
            var restored = register ?? Register(value: value, rev: Rev(counter: 1, device: deviceID))
            restored.rev = try stamp(&hlc, now: now)
            register = restored
        }
        try restamp(&item.title, default: "Restored item")
        try restamp(&item.sortKey, default: "V")
        try restamp(&item.start, default: nil)
        try restamp(&item.end, default: nil)
        try restamp(&item.place, default: nil)
        try restamp(&item.note, default: nil)
        tombstones[id] = nil
        items[id] = item
    }

    /// Marks that this device has published its state: its `acks` entry becomes its clock.
    public mutating func acknowledgeOwnState() {
        acks[deviceID] = clock
    }
}
