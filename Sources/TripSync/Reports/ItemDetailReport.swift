import TripSyncCore

/// One item as `show ITEM --json` prints it: `{"id", "deleted", "compacted", "deletes": [{"at",
/// "device", "deviceName"}], "fields": [{"field", "value", "device", "deviceName", "writtenAt",
/// "editedWhileDeleted", "alternatives": [VALUE]}], "conflicts", "editedWhileDeleted": [{"field",
/// VALUE...}], "attachments": [ATTACHMENT]}` (ATTACHMENT as `attachments --json` prints one) where VALUE is `{"value", "device", "deviceName", "writtenAt",
/// "editedWhileDeleted"}` and `writtenAt` the UTC time of the write.
package struct ItemDetailReport: JSONReport, Sendable {
    /// The item.
    package var detail: ItemDetail
    /// Its attachments (`attachments --json` entries).
    package var attachments: [AttachmentReport]

    /// The report of `detail`, with its attachments.
    package init(_ detail: ItemDetail, attachments: [AttachmentEntry] = []) {
        self.detail = detail
        self.attachments = attachments.map(AttachmentReport.init)
    }

    /// The JSON object.
    package var reportFields: [ReportField] {
        [
            .field("id", detail.id.description),
            .field("deleted", detail.isDeleted),
            .field("compacted", detail.isCompacted),
            .field("deletes", detail.deletes.map(Delete.init)),
            .field("fields", detail.fields.map(Field.init)),
            .field("conflicts", detail.conflicted.count),
            .field("editedWhileDeleted", detail.editsWhileDeleted.map { Field(field: $0.field, value: $0.value, alternatives: nil) }),
            .field("attachments", attachments),
            .field("mapURL", mapURL),
        ]
    }

    /// The current place's map link (`MapLink`), nil without a place.
    package var mapURL: String? {
        guard let place = detail.fields.first(where: { $0.field == .place }), case .text(let text?) = place.current.value else { return nil }
        return MapLink.url(for: text)
    }

    struct Delete: JSONReport {
        var delete: ItemDetail.Delete
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("at", delete.at.description),
                .field("device", delete.device.description),
                .field("deviceName", delete.deviceName),
            ]
        }
    }

    struct Field: JSONReport {
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
        var reportFields: [ReportField] {
            [
                .optional("field", field?.rawValue),
                .field("value", value.value),
                .field("device", value.device.description),
                .field("deviceName", value.deviceName),
                .field("writtenAt", value.writtenAt.description),
                .field("editedWhileDeleted", value.editedWhileDeleted),
                .optional("alternatives", alternatives.map { $0.map { Field(field: nil, value: $0, alternatives: nil) } }),
            ]
        }
    }
}
