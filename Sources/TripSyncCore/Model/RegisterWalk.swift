/// Where a register sits in a trip document: the one list of a document's registers
/// (docs/DESIGN.md, "The register walk"). Every part of the code that must look at all of a
/// document's registers (fork checks, re-keys, delivery status, team metrics, membership,
/// conflict counts) walks them with `TripDocument.walkRegisters`, so a register added to the
/// document is added here once and every walk sees it.
package enum RegisterPath: Hashable, Sendable {
    /// `trip.name`.
    case tripName
    /// `trip.zone`.
    case tripZone
    /// The name a device gives itself (`devices[id].name`).
    case deviceName(DeviceID)
    /// A field of a live item.
    case itemField(ItemID, ItemField)
    /// The delete of a deleted item (`tombstones[id].deleted`).
    case deletion(ItemID)
    /// A field a deleted item keeps (edits made while deleted land here).
    case deletedItemField(ItemID, ItemField)
    /// A register of an attachment.
    case attachment(AttachmentID, AttachmentField)

    /// The registers of an attachment.
    package enum AttachmentField: String, CaseIterable, Hashable, Sendable {
        /// The item it is attached to.
        case item
        /// Its bytes (`BlobReference`).
        case blob
        /// Its file name.
        case name
        /// Its caption.
        case caption
        /// Its detach.
        case deleted
    }

    /// The kind of register, without ids: what a test compares against `Kind.allCases`.
    package enum Kind: Hashable, Sendable, CaseIterable {
        case tripName, tripZone, deviceName, deletion
        case itemField(ItemField)
        case deletedItemField(ItemField)
        case attachment(AttachmentField)

        /// Every kind of register a document holds.
        package static var allCases: [Kind] {
            [.tripName, .tripZone, .deviceName, .deletion] + ItemField.allCases.map(Kind.itemField)
                + ItemField.allCases.map(Kind.deletedItemField) + AttachmentField.allCases.map(Kind.attachment)
        }
    }

    /// The register's kind.
    package var kind: Kind {
        switch self {
        case .tripName: return .tripName
        case .tripZone: return .tripZone
        case .deviceName: return .deviceName
        case .itemField(_, let field): return .itemField(field)
        case .deletion: return .deletion
        case .deletedItemField(_, let field): return .deletedItemField(field)
        case .attachment(_, let field): return .attachment(field)
        }
    }

    /// The item the register belongs to (an item's field, a deletion, a deleted item's field).
    package var item: ItemID? {
        switch self {
        case .itemField(let id, _), .deletion(let id), .deletedItemField(let id, _): return id
        default: return nil
        }
    }

    /// Whether the register is the trip's content (trip, items, deletes, attachments), not a
    /// device naming itself.
    package var isContent: Bool {
        if case .deviceName = self { return false }
        return true
    }

    /// The register's JSON Pointer in the document (as merge reports forks).
    package var pointer: String {
        switch self {
        case .tripName: return "/trip/name"
        case .tripZone: return "/trip/zone"
        case .deviceName(let id): return "/devices/\(id)/name"
        case .itemField(let id, let field): return "/items/\(id)/\(field.rawValue)"
        case .deletion(let id): return "/tombstones/\(id)/deleted"
        case .deletedItemField(let id, let field): return "/tombstones/\(id)/item/\(field.rawValue)"
        case .attachment(let id, let field): return "/attachments/\(id)/\(field.rawValue)"
        }
    }
}

/// Looks at each register of a document (`TripDocument.walkRegisters`), whatever its value type.
package protocol RegisterVisitor {
    /// Called once for each register present in the document, with where it is.
    mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath)
}

/// Rewrites each register of a document (`TripDocument.updateRegisters`), whatever its value type.
package protocol RegisterTransform {
    /// What `update` throws (`Never` for a transform that cannot fail).
    associatedtype Failure: Error
    /// The register to keep at `path` in place of `register`.
    mutating func update<Value>(_ register: Register<Value>, at path: RegisterPath) throws(Failure) -> Register<Value>
}

extension TripDocument {
    /// Visits every register of the document, each once: the trip's name and zone, each
    /// device's name, each live item's fields, each tombstone's delete and the fields its item
    /// keeps, and each attachment's registers. Registers a document lacks (an unset zone, an
    /// item field never written) are not visited.
    package func walkRegisters<Visitor: RegisterVisitor>(_ visitor: inout Visitor) {
        visitor.visit(trip.name, at: .tripName)
        if let zone = trip.zone { visitor.visit(zone, at: .tripZone) }
        for (id, info) in devices { visitor.visit(info.name, at: .deviceName(id)) }
        for (id, item) in items { item.walkRegisters(&visitor) { .itemField(id, $0) } }
        for (id, tombstone) in tombstones {
            visitor.visit(tombstone.deleted, at: .deletion(id))
            tombstone.item.walkRegisters(&visitor) { .deletedItemField(id, $0) }
        }
        for (id, attachment) in attachments {
            if let item = attachment.item { visitor.visit(item, at: .attachment(id, .item)) }
            if let blob = attachment.blob { visitor.visit(blob, at: .attachment(id, .blob)) }
            if let name = attachment.name { visitor.visit(name, at: .attachment(id, .name)) }
            if let caption = attachment.caption { visitor.visit(caption, at: .attachment(id, .caption)) }
            if let deleted = attachment.deleted { visitor.visit(deleted, at: .attachment(id, .deleted)) }
        }
    }

    /// Calls `body` with every version (value and conflicts) of every register
    /// (`walkRegisters`), with the register's path.
    package func forEachVersionRev(_ body: (RegisterPath, Rev) -> Void) {
        struct Revs: RegisterVisitor {
            let body: (RegisterPath, Rev) -> Void
            mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath) {
                for version in register.versions { body(path, version.rev) }
            }
        }
        withoutActuallyEscaping(body) { body in
            var visitor = Revs(body: body)
            walkRegisters(&visitor)
        }
    }

    /// Replaces every register of the document (the same ones `walkRegisters` visits) by what
    /// `transform` makes of it.
    package mutating func updateRegisters<Transform: RegisterTransform>(_ transform: inout Transform) throws(Transform.Failure) {
        trip.name = try transform.update(trip.name, at: .tripName)
        if let zone = trip.zone { trip.zone = try transform.update(zone, at: .tripZone) }
        for (id, info) in devices { devices[id] = DeviceInfo(name: try transform.update(info.name, at: .deviceName(id))) }
        for (id, item) in items { items[id] = try item.updatingRegisters(&transform) { .itemField(id, $0) } }
        for (id, tombstone) in tombstones {
            tombstones[id] = Tombstone(
                deleted: try transform.update(tombstone.deleted, at: .deletion(id)),
                item: try tombstone.item.updatingRegisters(&transform) { .deletedItemField(id, $0) })
        }
        for (id, attachment) in attachments {
            func update<Value>(_ register: Register<Value>?, _ field: RegisterPath.AttachmentField) throws(Transform.Failure) -> Register<Value>? {
                guard let register else { return nil }
                return try transform.update(register, at: .attachment(id, field))
            }
            attachments[id] = Attachment(
                item: try update(attachment.item, .item), blob: try update(attachment.blob, .blob), name: try update(attachment.name, .name),
                caption: try update(attachment.caption, .caption), deleted: try update(attachment.deleted, .deleted))
        }
    }
}

extension ItemFields {
    /// Visits each field register present, `path` naming it.
    func walkRegisters<Visitor: RegisterVisitor>(_ visitor: inout Visitor, path: (ItemField) -> RegisterPath) {
        if let title { visitor.visit(title, at: path(.title)) }
        if let sortKey { visitor.visit(sortKey, at: path(.sortKey)) }
        if let start { visitor.visit(start, at: path(.start)) }
        if let end { visitor.visit(end, at: path(.end)) }
        if let place { visitor.visit(place, at: path(.place)) }
        if let note { visitor.visit(note, at: path(.note)) }
    }

    /// The fields with each register present replaced by what `transform` makes of it.
    func updatingRegisters<Transform: RegisterTransform>(_ transform: inout Transform, path: (ItemField) -> RegisterPath) throws(Transform.Failure) -> ItemFields {
        func update<Value>(_ register: Register<Value>?, _ field: ItemField) throws(Transform.Failure) -> Register<Value>? {
            guard let register else { return nil }
            return try transform.update(register, at: path(field))
        }
        return ItemFields(
            title: try update(title, .title), sortKey: try update(sortKey, .sortKey), start: try update(start, .start),
            end: try update(end, .end), place: try update(place, .place), note: try update(note, .note))
    }
}
