/// A conflict of a register outside an item's fields: the trip's name, or the caption of a
/// shown attachment. Listed by `conflicts`, counted with the fields, settled by `resolve`.
public struct RegisterConflict: Hashable, Sendable {
    /// Whose register it is.
    public enum Subject: Hashable, Sendable {
        /// The trip's name (two laptops renamed it at once).
        case tripName
        /// The trip's zone (two laptops set it at once).
        case tripZone
        /// The caption of attachment `id`, of item `item`.
        case caption(AttachmentID, item: ItemID)
    }

    /// The register.
    public var subject: Subject
    /// The value shown now.
    public var current: FieldConflict.Version
    /// The other values, newest first (values equal to the current one left out).
    public var alternatives: [FieldConflict.Version]
    /// Every version, winner first, duplicates kept (for "mine": any value this device wrote).
    package var versions: [FieldConflict.Version]

    /// The conflict of `register`, or nil when it holds one value (or several equal ones).
    package init?(_ subject: Subject, _ register: Register<String?>) {
        let versions = register.versions.map { FieldConflict.Version(text: $0.value ?? "(empty)", value: .text($0.value), device: $0.rev.device, rev: $0.rev) }
        guard let current = versions.first else { return nil }
        let alternatives = versions.dropFirst().filter { $0.value != current.value }
        guard !alternatives.isEmpty else { return nil }
        self.subject = subject
        self.current = current
        self.alternatives = Array(alternatives)
        self.versions = versions
    }

    /// The conflict of the trip's name, or nil when it holds one value.
    package static func tripName(of document: TripDocument) -> RegisterConflict? {
        let name = document.trip.name
        guard let names = Register<String?>(versions: name.versions.map { Versioned(value: Optional($0.value), rev: $0.rev) }) else { return nil }
        return RegisterConflict(.tripName, names)
    }

    /// The conflict of the trip's zone, or nil when it holds one value (or was never set).
    package static func tripZone(of document: TripDocument) -> RegisterConflict? {
        document.trip.zone.flatMap { RegisterConflict(.tripZone, $0) }
    }

    /// The conflicts of `document` outside its items: the trip's name first, then its zone,
    /// then the captions of shown attachments by attachment id.
    static func all(in document: TripDocument) -> [RegisterConflict] {
        var result: [RegisterConflict] = []
        if let conflict = tripName(of: document) { result.append(conflict) }
        if let conflict = tripZone(of: document) { result.append(conflict) }
        for id in document.attachments.keys.sorted() where document.isShown(id) {
            guard let attachment = document.attachments[id], let item = attachment.item?.value, let caption = attachment.caption else { continue }
            if let conflict = RegisterConflict(.caption(id, item: item), caption) { result.append(conflict) }
        }
        return result
    }
}

extension RegisterConflict.Subject {
    /// The attachment whose caption it is; nil for the trip's name and zone.
    public var attachment: AttachmentID? {
        if case .caption(let id, _) = self { return id }
        return nil
    }
}
