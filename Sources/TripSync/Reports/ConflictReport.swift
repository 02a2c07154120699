/// Every conflict of a trip as `conflicts --json` prints it: one entry per conflicting field
/// (`{"item", "field", "title", "current", "alternatives"}`), then one per item edited while
/// deleted (`{"item", "field": null, "kind": "deleted-while-edited", "title", "deletedBy", "edits"}`).
public struct ConflictReport: Encodable, Sendable {
    /// The conflicts.
    public var list: ConflictList
    /// The trip they are in (for titles and device names).
    public var document: TripDocument

    /// The report of `document`'s conflicts.
    public init(_ document: TripDocument) {
        self.document = document
        list = ConflictList(document)
    }

    /// A JSON array.
    public func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        for conflict in list.fields {
            try array.encode(
                FieldEntry(
                    item: conflict.item, field: conflict.field.rawValue, title: document.items[conflict.item]?.title?.value ?? "",
                    current: Version(conflict.current, document), alternatives: conflict.alternatives.map { Version($0, document) }))
        }
        for entry in list.deletedWhileEdited {
            try array.encode(
                DeletedEntry(
                    item: entry.item, title: entry.title, deletedBy: entry.deletedBy.map(\.description),
                    edits: zip(entry.fields, entry.edits).map { Edit(field: $0.0.rawValue, value: $0.1.value, device: $0.1.device.description) }))
        }
    }

    struct Version: Encodable {
        var value: FieldValue
        var device: String
        var deviceName: String
        init(_ version: FieldConflict.Version, _ document: TripDocument) {
            value = version.value
            device = version.device.description
            deviceName = document.deviceName(version.device)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(value, "value")
            try container.put(device, "device")
            try container.put(deviceName, "deviceName")
        }
    }

    struct FieldEntry: Encodable {
        var item: ItemID
        var field: String
        var title: String
        var current: Version
        var alternatives: [Version]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(item.description, "item")
            try container.put(field, "field")
            try container.put(title, "title")
            try container.put(current, "current")
            try container.put(alternatives, "alternatives")
        }
    }

    struct Edit: Encodable {
        var field: String
        var value: FieldValue
        var device: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(field, "field")
            try container.put(value, "value")
            try container.put(device, "device")
        }
    }

    struct DeletedEntry: Encodable {
        var item: ItemID
        var title: String?
        var deletedBy: [String]
        var edits: [Edit]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(item.description, "item")
            try container.put(String?.none, "field")
            try container.put("deleted-while-edited", "kind")
            try container.put(title, "title")
            try container.put(deletedBy, "deletedBy")
            try container.put(edits, "edits")
        }
    }
}
