import TripSyncCore

/// Every conflict of a trip as `conflicts --json` prints it: one entry per conflicting field
/// (`{"item", "field", "title", "current", "alternatives"}`), then one per item edited while
/// deleted (`{"item", "field": null, "kind": "deleted-while-edited", "title", "deletedBy", "edits"}`),
/// then the trip's name (`{"item": null, "field": "name", "kind": "trip-name", "title", "current",
/// "alternatives"}`) and attachment captions (`{"item", "attachment", "name", "field": "caption",
/// "kind": "attachment-caption", "title", "current", "alternatives"}`).
package struct ConflictReport: Encodable, Sendable {
    /// The conflicts.
    package var list: ConflictList
    /// The trip they are in (for titles and device names).
    package var document: TripDocument

    /// The report of `document`'s conflicts.
    package init(_ document: TripDocument) {
        self.document = document
        list = ConflictList(document)
    }

    /// A JSON array.
    package func encode(to encoder: any Encoder) throws {
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
        for conflict in list.registers {
            try array.encode(RegisterEntry(conflict: conflict, document: document))
        }
    }

    struct RegisterEntry: Encodable {
        var conflict: RegisterConflict
        var document: TripDocument
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            switch conflict.subject {
            case .tripName:
                try container.put(String?.none, "item")
                try container.put("name", "field")
                try container.put("trip-name", "kind")
                try container.put(document.trip.name.value, "title")
            case .tripZone:
                try container.put(String?.none, "item")
                try container.put("zone", "field")
                try container.put("trip-zone", "kind")
                try container.put(document.trip.name.value, "title")
            case .caption(let id, let item):
                try container.put(item.description, "item")
                try container.put(id.description, "attachment")
                try container.put(document.attachments[id]?.name?.value ?? "", "name")
                try container.put("caption", "field")
                try container.put("attachment-caption", "kind")
                try container.put(document.items[item]?.title?.value ?? "", "title")
            }
            try container.put(Version(conflict.current, document), "current")
            try container.put(conflict.alternatives.map { Version($0, document) }, "alternatives")
        }
    }

    struct Version: JSONReport {
        var value: FieldValue
        var device: String
        var deviceName: String
        init(_ version: FieldConflict.Version, _ document: TripDocument) {
            value = version.value
            device = version.device.description
            deviceName = document.deviceName(version.device)
        }
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("value", value),
                .field("device", device),
                .field("deviceName", deviceName),
            ]
        }
    }

    struct FieldEntry: JSONReport {
        var item: ItemID
        var field: String
        var title: String
        var current: Version
        var alternatives: [Version]
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("item", item.description),
                .field("field", field),
                .field("title", title),
                .field("current", current),
                .field("alternatives", alternatives),
            ]
        }
    }

    struct Edit: JSONReport {
        var field: String
        var value: FieldValue
        var device: String
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("field", field),
                .field("value", value),
                .field("device", device),
            ]
        }
    }

    struct DeletedEntry: JSONReport {
        var item: ItemID
        var title: String?
        var deletedBy: [String]
        var edits: [Edit]
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("item", item.description),
                .field("field", String?.none),
                .field("kind", "deleted-while-edited"),
                .field("title", title),
                .field("deletedBy", deletedBy),
                .field("edits", edits),
            ]
        }
    }
}
