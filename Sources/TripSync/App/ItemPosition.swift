import TripSyncCore

/// Where an item goes in the order of items that share a day and time: its `sortKey` is
/// chosen between the neighbours' keys (`SortKey.between`), so no other item is rewritten.
public enum ItemPosition: Hashable, Sendable {
    /// Right after this item.
    case after(ItemID)
    /// Right before this item.
    case before(ItemID)
    /// Before every item.
    case first
    /// After every item.
    case last

    /// The order key for this position among the live items of `document`, leaving out
    /// `moving` (the item being placed). Throws `.noSuchItem` for a neighbour that is not a
    /// live item, `.invalidValue` for placing an item next to itself, and `.noRoom` when no key
    /// fits (a neighbour's key is at the edge of the key space).
    public func sortKey(in document: TripDocument, moving: ItemID? = nil) throws(EditError) -> String {
        // Keys compared as their UTF-8 bytes (the order the view and every replica keep),
        // copied into arrays once rather than walked as `String.UTF8View` at each comparison.
        var keyed: [(id: ItemID, key: String, bytes: [UInt8])] = []
        keyed.reserveCapacity(document.items.count)
        for (id, item) in document.items where id != moving {
            if let key = item.sortKey?.value { keyed.append((id, key, Array(key.utf8))) }
        }
        let ordered = keyed.sorted { $0.bytes == $1.bytes ? $0.id < $1.id : $0.bytes.lexicographicallyPrecedes($1.bytes) }
        func index(of id: ItemID, _ relation: String) throws(EditError) -> Int {
            if id == moving { throw EditError("cannot place an item \(relation) itself") }
            guard let index = ordered.firstIndex(where: { $0.id == id }) else { throw EditError(.noSuchItem, "no item \(id)") }
            return index
        }
        var lower: String?
        var upper: String?
        switch self {
        case .after(let id):
            let at = try index(of: id, "after")
            lower = ordered[at].key
            upper = ordered[(at + 1)...].first(where: { $0.key != lower })?.key
        case .before(let id):
            let at = try index(of: id, "before")
            upper = ordered[at].key
            lower = ordered[..<at].last(where: { $0.key != upper })?.key
        case .first: upper = ordered.first?.key
        case .last: lower = ordered.last?.key
        }
        guard let key = SortKey.between(lower, upper) else {
            throw EditError(.noRoom, "no order key fits there (a neighbour's key is invalid); move a neighbour first")
        }
        return key
    }
}

extension TripDocument {
    /// The zone most items start in (ties: the zone id that sorts first), nil when no item has
    /// a timed start: the zone for a new timed item when none is typed or set for the home.
    public var mostUsedZone: String? {
        var counts: [String: Int] = [:]
        for item in items.values { if let zone = item.start?.value?.zone { counts[zone, default: 0] += 1 } }
        return counts.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }?.key
    }
}
