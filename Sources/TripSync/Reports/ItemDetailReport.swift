import TripSyncCore

/// One item as `show ITEM --json` prints it: `{"id", "deleted", "compacted", "deletes": [{"at",
/// "device", "deviceName"}], "fields": [{"field", "value", "device", "deviceName", "writtenAt",
/// "editedWhileDeleted", "alternatives": [VALUE]}], "conflicts", "editedWhileDeleted": [{"field",
/// VALUE...}], "attachments": [ATTACHMENT]}` (ATTACHMENT as `attachments --json` prints one) where VALUE is `{"value", "device", "deviceName", "writtenAt",
/// "editedWhileDeleted"}` and `writtenAt` the UTC time of the write.
public struct ItemDetailReport: Encodable, Sendable {
    /// The item.
    public var detail: ItemDetail
    /// Its attachments (`attachments --json` entries).
    public var attachments: [AttachmentReport]

    /// The report of `detail`, with its attachments.
    public init(_ detail: ItemDetail, attachments: [AttachmentEntry] = []) {
        self.detail = detail
        self.attachments = attachments.map(AttachmentReport.init)
    }

    /// The JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(detail.id.description, "id")
        try container.put(detail.isDeleted, "deleted")
        try container.put(detail.isCompacted, "compacted")
        try container.put(detail.deletes.map(Delete.init), "deletes")
        try container.put(detail.fields.map(Field.init), "fields")
        try container.put(detail.conflicted.count, "conflicts")
        try container.put(detail.editsWhileDeleted.map { Field(field: $0.field, value: $0.value, alternatives: nil) }, "editedWhileDeleted")
        try container.put(attachments, "attachments")
        try container.put(mapURL, "mapURL")
    }

    /// The current place's map link (`MapLink`), nil without a place.
    public var mapURL: String? {
        guard let place = detail.fields.first(where: { $0.field == .place }), case .text(let text?) = place.current.value else { return nil }
        return MapLink.url(for: text)
    }

    struct Delete: Encodable {
        var delete: ItemDetail.Delete
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(delete.at.description, "at")
            try container.put(delete.device.description, "device")
            try container.put(delete.deviceName, "deviceName")
        }
    }

    struct Field: Encodable {
        var field: ItemField?
        var value: ItemDetail.Value
        var alternatives: [ItemDetail.Value]?
        init(_ field: ItemDetail.Field) {
            self.init(field: field.field, value: field.current, alternatives: field.alternatives)
        }
        init(field: ItemField?, value: ItemDetail.Value, alternatives: [ItemDetail.Value]?) {
            self.field = field
            self.value = value
            self.alternatives = alternatives
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            if let field { try container.put(field.rawValue, "field") }
            try container.put(value.value, "value")
            try container.put(value.device.description, "device")
            try container.put(value.deviceName, "deviceName")
            try container.put(value.writtenAt.description, "writtenAt")
            try container.put(value.editedWhileDeleted, "editedWhileDeleted")
            if let alternatives { try container.put(alternatives.map { Field(field: nil, value: $0, alternatives: nil) }, "alternatives") }
        }
    }
}
