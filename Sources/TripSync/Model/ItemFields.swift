/// The editable fields of an itinerary item, in canonical (byte) order of their names.
public enum ItemField: String, CaseIterable, Hashable, Sendable, Comparable {
    /// When the item ends (a time or a day), or null.
    case end
    /// Free text, newlines allowed, or null.
    case note
    /// Where it happens, or null.
    case place
    /// The fractional order key among items of the same day and time.
    case sortKey
    /// When the item starts (a time or a day), or null for an unscheduled item.
    case start
    /// The title, never empty.
    case title

    /// Orders as the canonical writer does (byte order of the names).
    public static func < (lhs: ItemField, rhs: ItemField) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}

/// The registers of one item. A live item holds all six; a tombstone's body may hold any subset
/// (fields dropped by compaction, or written by a late edit to a compacted stub).
public struct ItemFields: Hashable, Sendable {
    /// The title register.
    public var title: Register<String>?
    /// The order key register.
    public var sortKey: Register<String>?
    /// The start register.
    public var start: Register<TripTime?>?
    /// The end register.
    public var end: Register<TripTime?>?
    /// The place register.
    public var place: Register<String?>?
    /// The note register.
    public var note: Register<String?>?

    /// An item body with no registers.
    public init() {}

    /// Creates an item body.
    public init(
        title: Register<String>?, sortKey: Register<String>?, start: Register<TripTime?>?,
        end: Register<TripTime?>?, place: Register<String?>?, note: Register<String?>?
    ) {
        self.title = title
        self.sortKey = sortKey
        self.start = start
        self.end = end
        self.place = place
        self.note = note
    }

    /// Whether every field is present (as a live item requires).
    public var isComplete: Bool {
        title != nil && sortKey != nil && start != nil && end != nil && place != nil && note != nil
    }

    /// Whether no field is present.
    public var isEmpty: Bool {
        title == nil && sortKey == nil && start == nil && end == nil && place == nil && note == nil
    }

    /// The fields that are present.
    public var presentFields: [ItemField] {
        ItemField.allCases.filter { hasField($0) }
    }

    /// Whether the given field is present.
    public func hasField(_ field: ItemField) -> Bool {
        switch field {
        case .title: return title != nil
        case .sortKey: return sortKey != nil
        case .start: return start != nil
        case .end: return end != nil
        case .place: return place != nil
        case .note: return note != nil
        }
    }

    /// Every dot in the body, field by field (winners and conflicts).
    public var dots: [(field: ItemField, rev: Rev)] {
        var result: [(field: ItemField, rev: Rev)] = []
        func add<V>(_ field: ItemField, _ register: Register<V>?) {
            guard let register else { return }
            result.append((field, register.rev))
            for conflict in register.conflicts { result.append((field, conflict.rev)) }
        }
        add(.end, end)
        add(.note, note)
        add(.place, place)
        add(.sortKey, sortKey)
        add(.start, start)
        add(.title, title)
        return result
    }
}

/// A deleted item: the `deleted` register and the item's registers, which keep merging so a
/// restore brings everything back.
public struct Tombstone: Hashable, Sendable {
    /// The delete register; concurrent deletes leave one value each (the others in conflicts).
    public var deleted: Register<Deletion>
    /// The item's registers as they were, plus edits made while it was deleted.
    public var item: ItemFields

    /// Creates a tombstone.
    public init(deleted: Register<Deletion>, item: ItemFields) {
        self.deleted = deleted
        self.item = item
    }
}

/// Trip-level registers.
public struct TripInfo: Hashable, Sendable {
    /// The trip's name.
    public var name: Register<String>

    /// Creates trip-level registers.
    public init(name: Register<String>) {
        self.name = name
    }
}

/// What the trip knows about one device.
public struct DeviceInfo: Hashable, Sendable {
    /// A name a person gave the device, such as "Sam's laptop".
    public var name: Register<String>

    /// Creates a device record.
    public init(name: Register<String>) {
        self.name = name
    }
}
