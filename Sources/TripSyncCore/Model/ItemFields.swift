import TripSyncPlatform

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
///
/// A value type with copy-on-write storage: copying an item (into a dictionary, out of one, into
/// a merged document) costs one reference count, not one per string, and a dictionary of items
/// holds one pointer per slot instead of six inline registers.
package struct ItemFields: Hashable, Sendable {
    /// The six registers, shared between copies until one of them is mutated.
    final class Storage: @unchecked Sendable {
        /// Whether any register holds conflicts (false: no register has a visible conflict),
        /// kept up to date by every write, so scans over many items can skip most of them.
        @exclusivity(unchecked) var hasConflicts = false
        @exclusivity(unchecked) var title: Register<String>?
        @exclusivity(unchecked) var sortKey: Register<String>?
        @exclusivity(unchecked) var start: Register<TripTime?>?
        @exclusivity(unchecked) var end: Register<TripTime?>?
        @exclusivity(unchecked) var place: Register<String?>?
        @exclusivity(unchecked) var note: Register<String?>?
        /// The bytes this item was read from, when they are exactly what the canonical writer
        /// writes for it (`TripFileReader.keepsItemBytes`); the writer copies them. Dropped by
        /// every change, and never copied to new storage.
        @exclusivity(unchecked) var canonicalBytes: CanonicalBytes?

        init() {}

        init(
            title: Register<String>?, sortKey: Register<String>?, start: Register<TripTime?>?,
            end: Register<TripTime?>?, place: Register<String?>?, note: Register<String?>?
        ) {
            self.title = title
            self.sortKey = sortKey
            self.start = start
            self.end = end
            self.place = place
            self.note = note
            refresh()
        }

        /// After a register changed: recomputes `hasConflicts`; the read bytes no longer say it.
        @inline(__always)
        func changed() {
            refresh()
            canonicalBytes = nil
        }

        /// Recomputes `hasConflicts`.
        @inline(__always)
        func refresh() {
            hasConflicts = !(title?.conflicts.isEmpty ?? true) || !(sortKey?.conflicts.isEmpty ?? true)
                || !(start?.conflicts.isEmpty ?? true) || !(end?.conflicts.isEmpty ?? true)
                || !(place?.conflicts.isEmpty ?? true) || !(note?.conflicts.isEmpty ?? true)
        }

        /// Whether all six registers are present, read in place.
        var isComplete: Bool {
            title != nil && sortKey != nil && start != nil && end != nil && place != nil && note != nil
        }

        func copy() -> Storage {
            Storage(title: title, sortKey: sortKey, start: start, end: end, place: place, note: note)
        }
    }

    /// Every empty body shares this storage until it is written to.
    private static let emptyStorage = Storage()

    var storage: Storage

    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Wraps decoded storage (the decoder fills it in place).
    init(storage: Storage) {
        storage.refresh()
        self.storage = storage
    }

    /// Whether any register holds conflicts; false means none has a visible conflict.
    @inline(__always)
    var hasConflicts: Bool { storage.hasConflicts }

    /// Whether both values share one storage (then they are certainly equal).
    @inline(__always)
    package func isIdentical(to other: ItemFields) -> Bool { storage === other.storage }

    /// The title register.
    package var title: Register<String>? {
        _read { yield storage.title }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.title
        }
    }
    /// The order key register.
    package var sortKey: Register<String>? {
        _read { yield storage.sortKey }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.sortKey
        }
    }
    /// The start register.
    package var start: Register<TripTime?>? {
        _read { yield storage.start }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.start
        }
    }
    /// The end register.
    package var end: Register<TripTime?>? {
        _read { yield storage.end }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.end
        }
    }
    /// The place register.
    package var place: Register<String?>? {
        _read { yield storage.place }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.place
        }
    }
    /// The note register.
    package var note: Register<String?>? {
        _read { yield storage.note }
        _modify {
            makeUnique()
            defer { storage.changed() }
            yield &storage.note
        }
    }

    /// An item body with no registers.
    package init() {
        storage = ItemFields.emptyStorage
    }

    /// Creates an item body.
    package init(
        title: Register<String>?, sortKey: Register<String>?, start: Register<TripTime?>?,
        end: Register<TripTime?>?, place: Register<String?>?, note: Register<String?>?
    ) {
        storage = Storage(title: title, sortKey: sortKey, start: start, end: end, place: place, note: note)
    }

    /// Field by field equality (shared storage is equal without looking). Revs are compared
    /// first (cheap), then values byte for byte: text that differs only in Unicode
    /// normalisation is a different value here, unlike `String ==`.
    package static func == (lhs: ItemFields, rhs: ItemFields) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let a = lhs.storage
        let b = rhs.storage
        guard a.title?.rev == b.title?.rev, a.sortKey?.rev == b.sortKey?.rev, a.start?.rev == b.start?.rev,
            a.end?.rev == b.end?.rev, a.place?.rev == b.place?.rev, a.note?.rev == b.note?.rev
        else { return false }
        return FastEquality.same(a.title, b.title, FastEquality.text) && FastEquality.same(a.sortKey, b.sortKey, FastEquality.text)
            && FastEquality.same(a.start, b.start, FastEquality.time) && FastEquality.same(a.end, b.end, FastEquality.time)
            && FastEquality.same(a.place, b.place, FastEquality.optionalText) && FastEquality.same(a.note, b.note, FastEquality.optionalText)
    }

    /// Hashes every field.
    package func hash(into hasher: inout Hasher) {
        let s = storage
        hasher.combine(s.title)
        hasher.combine(s.sortKey)
        hasher.combine(s.start)
        hasher.combine(s.end)
        hasher.combine(s.place)
        hasher.combine(s.note)
    }

    /// Whether every field is present (as a live item requires).
    package var isComplete: Bool { storage.isComplete }

    /// Whether no field is present.
    package var isEmpty: Bool {
        title == nil && sortKey == nil && start == nil && end == nil && place == nil && note == nil
    }

    /// The fields that are present.
    package var presentFields: [ItemField] {
        ItemField.allCases.filter { hasField($0) }
    }

    /// Whether the given field is present.
    package func hasField(_ field: ItemField) -> Bool {
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
    package var dots: [(field: ItemField, rev: Rev)] {
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

/// A range of a file's bytes that holds one item exactly as the canonical writer writes it,
/// with the buffer it lies in (kept alive by this reference).
struct CanonicalBytes: @unchecked Sendable {
    /// What keeps the file's JSON alive while this item holds its bytes.
    let owner: Keeper
    /// The item's value (`{...}`) within the file's JSON (valid while `owner` lives). Held
    /// apart from `owner` so that writing an item reads two words instead of copying the
    /// reference (a retain and a release per item).
    let buffer: UnsafeBufferPointer<UInt8>

    /// `range` of the bytes `owner` keeps.
    init(owner: Keeper, range: Range<Int>) {
        self.owner = owner
        let bytes = owner.bytes
        buffer = UnsafeBufferPointer(start: bytes.base.map { $0 + range.lowerBound }, count: bytes.base == nil ? 0 : range.count)
    }

    /// A reference to a file's JSON for the items of one run. Each task that decodes a run of
    /// a file's items makes its own, so the items it decodes retain an object no other thread
    /// touches; if they all retained the file's `OwnedBytes`, the threads would contend for
    /// that one reference count at every item.
    final class Keeper: Sendable {
        /// The file's JSON.
        let bytes: OwnedBytes

        init(_ bytes: OwnedBytes) { self.bytes = bytes }
    }
}

/// A deleted item: the `deleted` register and the item's registers, which keep merging so a
/// restore brings everything back.
package struct Tombstone: Hashable, Sendable {
    /// The delete register; concurrent deletes leave one value each (the others in conflicts).
    package var deleted: Register<Deletion>
    /// The item's registers as they were, plus edits made while it was deleted.
    package var item: ItemFields

    /// Creates a tombstone.
    package init(deleted: Register<Deletion>, item: ItemFields) {
        self.deleted = deleted
        self.item = item
    }
}

/// Trip-level registers.
package struct TripInfo: Hashable, Sendable {
    /// The trip's name.
    package var name: Register<String>
    /// The trip's zone (schema 5): the IANA zone id that times without one are read in, or null
    /// when cleared; nil when never set (a trip migrated from schema 4). A register like `name`.
    package var zone: Register<String?>?

    /// Creates trip-level registers.
    package init(name: Register<String>, zone: Register<String?>? = nil) {
        self.name = name
        self.zone = zone
    }
}

/// What the trip knows about one device.
package struct DeviceInfo: Hashable, Sendable {
    /// A name a person gave the device, such as "Sam's laptop".
    package var name: Register<String>

    /// Creates a device record.
    package init(name: Register<String>) {
        self.name = name
    }
}

/// Equality with the same meaning as `==` (strings compare by Unicode canonical equivalence),
/// but answering from the bytes when they are identical, which is the common case when two
/// copies of a trip are compared (and spares normalizing non-ASCII text).
enum FastEquality {
    @inline(__always)
    static func text(_ a: String, _ b: String) -> Bool {
        let sameBytes = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                guard x.count == y.count else { return false }
                guard let first = x.baseAddress, let second = y.baseAddress else { return x.count == 0 }
                return Memory.equal(first, second, x.count)
            }
        }
        if let known = sameBytes ?? nil { return known }
        // Exact bytes, never Unicode canonical equivalence: "Graça" precomposed and decomposed
        // are different values (different canonical files, different fingerprints).
        return a.utf8.elementsEqual(b.utf8)
    }

    @inline(__always)
    static func optionalText(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return text(x, y)
        default: return false
        }
    }

    @inline(__always)
    static func time(_ a: TripTime?, _ b: TripTime?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.local(let x, let zoneX)?, .local(let y, let zoneY)?): return x == y && text(zoneX, zoneY)
        case (.date(let x)?, .date(let y)?): return x == y
        default: return false
        }
    }

    /// Two optional registers: same rev, value and conflicts.
    @inline(__always)
    static func same<V>(_ a: Register<V>?, _ b: Register<V>?, _ equal: (V, V) -> Bool) -> Bool {
        // Unwrapped one by one, not switched over as the pair `(a, b)` (which copies both).
        guard let x = a else { return b == nil }
        guard let y = b else { return false }
        guard x.rev == y.rev, x.conflicts.count == y.conflicts.count, equal(x.value, y.value) else { return false }
        for index in x.conflicts.indices {
            let cx = x.conflicts[index]
            let cy = y.conflicts[index]
            guard cx.rev == cy.rev, equal(cx.value, cy.value) else { return false }
        }
        return true
    }
}
