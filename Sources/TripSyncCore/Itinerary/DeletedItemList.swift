/// The deleted items of a trip, as `show --deleted` lists them: each restorable, with who
/// deleted it and when, newest delete first.
package struct DeletedItemList: Sendable {
    /// One deleted item.
    package struct Entry: Sendable {
        /// The item, whole (`ItemDetail`: its fields, its deletes, edits made while deleted).
        package var detail: ItemDetail
        /// Its title, when its body still holds one.
        package var title: String? {
            guard case .text(let title)? = detail.fields.first(where: { $0.field == .title })?.current.value else { return nil }
            return title
        }
        /// The newest of its deletes.
        package var deletedAt: UTCTimestamp { detail.deletes.map(\.at).max() ?? UTCTimestamp(secondsSinceEpoch: 0) }
    }

    /// The deleted items, newest delete first, then by id.
    package var entries: [Entry]

    /// Lists the tombstones of `document`.
    package init(_ document: TripDocument) {
        entries = document.tombstones.keys.compactMap { ItemDetail($0, in: document).map(Entry.init) }
            .sorted { ($0.deletedAt.secondsSinceEpoch, $1.detail.id) > ($1.deletedAt.secondsSinceEpoch, $0.detail.id) }
    }
}
