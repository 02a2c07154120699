/// One item whole, as `show ITEM` prints it: every field with who wrote its value and when,
/// the conflicting values with their writers, and, for a deleted item, who deleted it, when,
/// and which values were written while it was deleted.
package struct ItemDetail: Sendable {
    /// One value of a field with its write.
    package struct Value: Sendable {
        /// The value as text ("(empty)" for a cleared field).
        package var text: String
        /// The value itself.
        package var value: FieldValue
        /// The device that wrote it and its name in the trip.
        package var device: DeviceID
        /// `TripDocument.deviceName` of `device`.
        package var deviceName: String
        /// The rev of the write.
        package var rev: Rev
        /// When it was written: the rev's counter read as wall-clock milliseconds (the hybrid
        /// logical clock stamps writes with the writer's clock, so this is about when it was typed).
        package var writtenAt: UTCTimestamp
        /// Whether it was written while the item was deleted (no delete had seen it).
        package var editedWhileDeleted: Bool
    }

    /// One field: its value shown now and the other values of a conflict, newest first.
    package struct Field: Sendable {
        /// The field.
        package var field: ItemField
        /// The value shown now.
        package var current: Value
        /// Concurrent values that differ from `current` (a conflict when not empty).
        package var alternatives: [Value]
    }

    /// One delete of the item.
    package struct Delete: Sendable {
        /// When (the deleting device's wall clock).
        package var at: UTCTimestamp
        /// Who.
        package var device: DeviceID
        /// `TripDocument.deviceName` of `device`.
        package var deviceName: String
    }

    /// The item.
    package var id: ItemID
    /// The fields the item holds, in reading order: title, start, end, place, note, sortKey.
    package var fields: [Field]
    /// The deletes that keep it deleted (empty for a live item; two after concurrent deletes).
    package var deletes: [Delete]
    /// Whether the item is deleted (restorable with `TripEditor.restore`).
    package var isDeleted: Bool { !deletes.isEmpty }
    /// Whether a deleted item's body was compacted away (a restore gives its fields defaults).
    package var isCompacted: Bool
    /// The fields that hold a conflict.
    package var conflicted: [ItemField] { fields.filter { !$0.alternatives.isEmpty }.map(\.field) }
    /// Values written while the item was deleted ("edited while deleted: restore?"), by field.
    package var editsWhileDeleted: [(field: ItemField, value: Value)]

    /// The order fields are read in.
    package static let fieldOrder: [ItemField] = [.title, .start, .end, .place, .note, .sortKey]

    /// The item `id` of `document`, live or deleted; nil when the document holds neither.
    package init?(_ id: ItemID, in document: TripDocument) {
        let item: ItemFields
        var edited: Set<Rev> = []
        if let live = document.items[id] {
            item = live
            deletes = []
        } else if let tombstone = document.tombstones[id] {
            item = tombstone.item
            edited = Set(document.editedWhileDeleted(id).map(\.rev))
            deletes = tombstone.deleted.versions.map { Delete(at: $0.value.at, device: $0.rev.device, deviceName: document.deviceName($0.rev.device)) }
        } else {
            return nil
        }
        self.id = id
        isCompacted = !deletes.isEmpty && item.dots.isEmpty
        func value(_ version: FieldConflict.Version) -> Value {
            Value(
                text: version.text, value: version.value, device: version.device, deviceName: document.deviceName(version.device), rev: version.rev,
                writtenAt: UTCTimestamp(millisecondsSinceEpoch: version.rev.counter), editedWhileDeleted: edited.contains(version.rev))
        }
        var fields: [Field] = []
        var editsWhileDeleted: [(field: ItemField, value: Value)] = []
        for field in ItemDetail.fieldOrder {
            let versions = ConflictList.versions(item, field)
            guard let current = versions.first else { continue }
            // Values equal to the shown one are no conflict (two people typed the same).
            let others = versions.dropFirst().filter { $0.value != current.value }
            fields.append(Field(field: field, current: value(current), alternatives: others.map(value)))
            editsWhileDeleted += versions.filter { edited.contains($0.rev) }.map { (field, value($0)) }
        }
        self.fields = fields
        self.editsWhileDeleted = editsWhileDeleted
    }
}
