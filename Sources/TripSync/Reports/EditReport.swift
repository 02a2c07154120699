import TripSyncCore

/// What one edit of an item did (`edit --json`): `{"item", "changed": [FIELD], "replaced":
/// [{"field", "value", "device", "deviceName"}]}`, each replaced conflicting value once.
public struct EditReport: JSONReport, Sendable {
    /// One value a write replaced, with its writer.
    public struct Replaced: JSONReport, Hashable, Sendable {
        /// The field.
        public var field: ItemField
        /// The value it held.
        public var value: FieldValue
        /// The text a person reads for it.
        public var text: String
        /// Who wrote it.
        public var device: DeviceID
        /// Their name in the trip.
        public var deviceName: String

        /// `{"field", "value", "device", "deviceName"}`.
        public var reportFields: [ReportField] {
            [
                .field("field", field.rawValue),
                .field("value", value),
                .field("device", device.description),
                .field("deviceName", deviceName),
            ]
        }
    }

    /// The item.
    public var item: ItemID
    /// The fields written, in the order given.
    public var changed: [ItemField]
    /// The conflicting values the writes replaced.
    public var replaced: [Replaced]

    /// The report of `outcome` on `item`, naming writers as `document` (before the edit) does.
    public init(item: ItemID, outcome: EditOutcome, namesFrom document: TripDocument) {
        self.item = item
        changed = outcome.changed
        replaced = outcome.replaced.flatMap { conflict in
            conflict.distinctVersions.map {
                Replaced(field: conflict.field, value: $0.value, text: $0.text, device: $0.device, deviceName: document.deviceName($0.device))
            }
        }
    }

    /// The JSON object.
    public var reportFields: [ReportField] {
        [
            .field("item", item.description),
            .field("changed", changed.map(\.rawValue)),
            .field("replaced", replaced),
        ]
    }
}

extension EditReport {
    /// The replaced values grouped by field, in the order the fields were written.
    public var replacedByField: [(field: ItemField, values: [Replaced])] {
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
