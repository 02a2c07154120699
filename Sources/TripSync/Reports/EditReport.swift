import TripSyncCore

/// What one edit of an item did (`edit --json`): `{"item", "changed": [FIELD], "replaced":
/// [{"field", "value", "device", "deviceName"}]}`, each replaced conflicting value once.
package struct EditReport: JSONReport, Sendable {
    /// One value a write replaced, with its writer.
    package struct Replaced: JSONReport, Hashable, Sendable {
        /// The field.
        package var field: ItemField
        /// The value it held.
        package var value: FieldValue
        /// The text a person reads for it.
        package var text: String
        /// Who wrote it.
        package var device: DeviceID
        /// Their name in the trip.
        package var deviceName: String

        /// `{"field", "value", "device", "deviceName"}`.
        package var reportFields: [ReportField] {
            [
                .field("field", field.rawValue),
                .field("value", value),
                .field("device", device.description),
                .field("deviceName", deviceName),
            ]
        }
    }

    /// The item.
    package var item: ItemID
    /// The fields written, in the order given.
    package var changed: [ItemField]
    /// The conflicting values the writes replaced.
    package var replaced: [Replaced]

    /// The report of `outcome` on `item`, naming writers as `document` (before the edit) does.
    package init(item: ItemID, outcome: EditOutcome, namesFrom document: TripDocument) {
        self.item = item
        changed = outcome.changed
        replaced = outcome.replaced.flatMap { conflict in
            conflict.distinctVersions.map {
                Replaced(field: conflict.field, value: $0.value, text: $0.text, device: $0.device, deviceName: document.deviceName($0.device))
            }
        }
    }

    /// The JSON object.
    package var reportFields: [ReportField] {
        [
            .field("item", item.description),
            .field("changed", changed.map(\.rawValue)),
            .field("replaced", replaced),
        ]
    }
}

extension EditReport {
    /// The replaced values grouped by field, in the order the fields were written.
    package var replacedByField: [(field: ItemField, values: [Replaced])] {
        var groups: [(field: ItemField, values: [Replaced])] = []
        for value in replaced {
            if let index = groups.firstIndex(where: { $0.field == value.field }) {
                groups[index].values.append(value)
            } else {
                groups.append((value.field, [value]))
            }
        }
        return groups
    }
}
