/// An item of a trip as an app reads it: plain values, the ones shown now, with the values
/// two people wrote at once beside them (`conflicts`) and whether it is deleted. A view made
/// from the document (`TripDocument.item(_:)`, `itemsInOrder`, `deletedItems`); the registers,
/// revs and tombstones it is made from are the library's own (docs/DESIGN.md, "The public API
/// an app reads"). A field the item does not hold reads as empty (nil, or "" for the title).
public struct TripItem: Hashable, Sendable {
    /// The item's id.
    public var id: ItemID
    /// The title shown.
    public var title: String
    /// When it starts, nil when it has no time.
    public var start: TripTime?
    /// When it ends, nil when it has no end.
    public var end: TripTime?
    /// Where, nil when no place is given.
    public var place: String?
    /// The note, nil when there is none.
    public var note: String?
    /// Whether the item is deleted (`TripEditor.restore` brings it back with everything it held).
    public var isDeleted: Bool
    /// Each field holding values written at once by different people: the value shown and the
    /// others, to settle with `TripEditor.resolve` (of a live item; by field).
    public var conflicts: [FieldConflict]
    /// The registers it is a view of (for `seen(_:)`).
    package var fields: ItemFields

    /// The view of `fields`, the item with id `id`.
    package init(_ id: ItemID, _ fields: ItemFields, deleted: Bool) {
        self.id = id
        self.fields = fields
        title = fields.title?.value ?? ""
        start = fields.start?.value ?? nil
        end = fields.end?.value ?? nil
        place = fields.place?.value ?? nil
        note = fields.note?.value ?? nil
        isDeleted = deleted
        conflicts = ItemField.allCases.compactMap { FieldConflict(item: id, field: $0, in: fields) }
    }
}

extension TripItem {
    /// What a person shown this item saw of `field`: the value shown and its conflicts, for an
    /// `ItemEdit` of it (`edit.set(.title, to: "…", seen: item.seen(.title))`). Applied, the
    /// edit keeps beside its own value any value written since this view was read (another
    /// tab, a sync), as a conflict, where `.current` would replace it.
    public func seen(_ field: ItemField) -> ItemEdit.Seen {
        .revs(Set(ConflictList.versions(fields, field).map(\.rev)))
    }
}

extension TripDocument {
    /// The trip's name.
    public var name: String { trip.name.value }
    /// The trip's zone (an IANA id), nil when it has none.
    public var zone: String? { trip.zone?.value ?? nil }

    /// The item with id `id`, live or deleted; nil when the trip has none.
    public func item(_ id: ItemID) -> TripItem? {
        if let fields = items[id] { return TripItem(id, fields, deleted: false) }
        return tombstones[id].map { TripItem(id, $0.item, deleted: true) }
    }

    /// The live items, by their order key (the place `TripEditor.move` and `addItem(_:at:)`
    /// give), then id.
    public var itemsInOrder: [TripItem] {
        items.map { (key: $0.value.sortKey?.value ?? "", id: $0.key, fields: $0.value) }
            .sorted { ($0.key, $0.id) < ($1.key, $1.id) }
            .map { TripItem($0.id, $0.fields, deleted: false) }
    }

    /// The deleted items, by id.
    public var deletedItems: [TripItem] {
        tombstones.keys.sorted().compactMap { id in tombstones[id].map { TripItem(id, $0.item, deleted: true) } }
    }
}
