/// One field with concurrent values a person should settle.
public struct FieldConflict: Hashable, Sendable {
    /// One value with the device that wrote it.
    public struct Version: Hashable, Sendable {
        /// The value as text ("(empty)" for a cleared field).
        public var text: String
        /// The value itself.
        public var value: FieldValue
        /// The device that wrote it.
        public var device: DeviceID
        /// The rev of the write.
        package var rev: Rev
    }

    /// The item.
    public var item: ItemID
    /// The field.
    public var field: ItemField
    /// The value shown now.
    public var current: Version
    /// The other values, newest first (values equal to the current one left out).
    public var alternatives: [Version]
}

extension FieldConflict {
    /// The conflict of one field of an item, or nil when the field holds one value (or several
    /// equal ones): what `ConflictList` lists, and what a write to the field replaces.
    package init?(item id: ItemID, field: ItemField, in item: ItemFields) {
        let versions = ConflictList.versions(item, field)
        guard versions.count > 1, let current = versions.first else { return nil }
        let alternatives = versions.dropFirst().filter { $0.value != current.value }
        guard !alternatives.isEmpty else { return nil }
        self.init(item: id, field: field, current: current, alternatives: Array(alternatives))
    }

    /// The current value and the alternatives, each value once (the first writer of it kept).
    public var distinctVersions: [Version] {
        var seen: [FieldValue] = []
        var result: [Version] = []
        for version in [current] + alternatives where !seen.contains(version.value) {
            seen.append(version.value)
            result.append(version)
        }
        return result
    }
}

/// A deleted item that holds edits made while it was deleted.
public struct DeletedWhileEdited: Hashable, Sendable {
    /// The item.
    public var item: ItemID
    /// Its title, when its body still holds one.
    public var title: String?
    /// Devices that deleted it.
    public var deletedBy: [DeviceID]
    /// The edits no delete had seen.
    public var edits: [FieldConflict.Version]
    /// The fields of those edits, parallel to `edits`.
    public var fields: [ItemField]
}

/// Every conflict of a document, in a stable order.
public struct ConflictList: Sendable {
    /// Fields with visible conflicts, by item id then field.
    public var fields: [FieldConflict]
    /// Tombstones edited while deleted, by item id.
    public var deletedWhileEdited: [DeletedWhileEdited]
    /// Registers outside the items with visible conflicts: the trip's name, then attachment
    /// captions (docs/DESIGN.md, "Attachments").
    public var registers: [RegisterConflict]

    /// Lists the conflicts of `document`.
    public init(_ document: TripDocument) {
        var fields: [FieldConflict] = []
        for id in document.items.keys.sorted() {
            guard let item = document.items[id] else { continue }
            for field in ItemField.allCases {
                if let conflict = FieldConflict(item: id, field: field, in: item) { fields.append(conflict) }
            }
        }
        var deleted: [DeletedWhileEdited] = []
        for id in document.tombstones.keys.sorted() {
            guard let tombstone = document.tombstones[id] else { continue }
            let edited = document.editedWhileDeleted(id)
            guard !edited.isEmpty else { continue }
            var edits: [FieldConflict.Version] = []
            var editFields: [ItemField] = []
            for (field, rev) in edited {
                if let version = ConflictList.versions(tombstone.item, field).first(where: { $0.rev == rev }) {
                    edits.append(version)
                    editFields.append(field)
                }
            }
            deleted.append(
                DeletedWhileEdited(
                    item: id, title: tombstone.item.title?.value, deletedBy: tombstone.deleted.versions.map(\.rev.device),
                    edits: edits, fields: editFields))
        }
        self.fields = fields
        deletedWhileEdited = deleted
        registers = RegisterConflict.all(in: document)
    }

    /// Every version of a field, winner first.
    package static func versions(_ item: ItemFields, _ field: ItemField) -> [FieldConflict.Version] {
        func text(_ value: String?) -> String { value ?? "(empty)" }
        func time(_ value: TripTime?) -> String {
            switch value {
            case nil: return "(empty)"
            case .date(let date)?: return date.description
            case .local(let local, let zone)?: return "\(local) \(zone)"
            }
        }
        switch field {
        case .title: return item.title?.versions.map { .init(text: $0.value, value: .text($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        case .sortKey: return item.sortKey?.versions.map { .init(text: $0.value, value: .text($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        case .place: return item.place?.versions.map { .init(text: text($0.value), value: .text($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        case .note: return item.note?.versions.map { .init(text: text($0.value), value: .text($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        case .start: return item.start?.versions.map { .init(text: time($0.value), value: .time($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        case .end: return item.end?.versions.map { .init(text: time($0.value), value: .time($0.value), device: $0.rev.device, rev: $0.rev) } ?? []
        }
    }
}

extension TripDocument {
    /// A person's name for a device, or "device " and the first 8 digits of its id. In an owned
    /// trip the name comes from the device's owner-signed grant only: `devices` is a register
    /// any editor's file can write under any id, so it never names a device there. An open
    /// trip (no owner, every device may write) uses `devices`.
    public func deviceName(_ device: DeviceID) -> String {
        let name = owner == nil ? devices[device]?.name.value : (members[device]?.name ?? effectiveGrant(of: device)?.name)
        return name ?? "device \(device.description.prefix(8))"
    }
}
