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
    /// fits (the neighbours' keys leave no room within the longest key, or one is invalid).
    package func sortKey(in document: TripDocument, moving: ItemID? = nil) throws(EditError) -> String {
        // One pass over the items and no sort: the bounds are the nearest keys on either side of
        // the neighbour's (or the greatest and least), compared as their UTF-8 bytes, the order
        // the view and every replica keep. Keys equal to the neighbour's are passed over.
        func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
        /// The greatest key below `bound` (or of all), or the least above it, of the items but `moving`.
        func nearest(greatest: Bool, beyond bound: String?) -> String? {
            var best: String?
            for (id, item) in document.items where id != moving {
                guard let key = item.sortKey?.value else { continue }
                if let bound, greatest ? !precedes(key, bound) : !precedes(bound, key) { continue }
                if let current = best, greatest ? !precedes(current, key) : !precedes(key, current) { continue }
                best = key
            }
            return best
        }
        func neighbour(_ id: ItemID, _ relation: String) throws(EditError) -> String {
            if id == moving { throw EditError("cannot place an item \(relation) itself") }
            guard let key = document.items[id]?.sortKey?.value else { throw EditError(.noSuchItem, "no item \(id)") }
            return key
        }
        var lower: String?
        var upper: String?
        switch self {
        case .after(let id):
            lower = try neighbour(id, "after")
            upper = nearest(greatest: false, beyond: lower)
        case .before(let id):
            upper = try neighbour(id, "before")
            lower = nearest(greatest: true, beyond: upper)
        case .first: upper = nearest(greatest: false, beyond: nil)
        case .last: lower = nearest(greatest: true, beyond: nil)
        }
        guard let key = SortKey.between(lower, upper) else {
            throw EditError(
                .noRoom,
                "no order key fits there: the neighbours' keys leave no room within \(SortKeyRules.maxLength) digits, or one is not a valid key; move a neighbour first")
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
