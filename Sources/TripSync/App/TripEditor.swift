import TripSyncCore
import TripSyncPlatform

/// The trip as one `TripStore.edit` sees it: reads see every write made so far, and every write
/// is stamped here with this device's next rev (docs/DESIGN.md, "The app API"). The editor has
/// no way to save; what it holds becomes durable only when the `edit` closure returns, and a
/// closure that throws leaves the store as it was.
public struct TripEditor {
    /// The trip with this edit's writes so far.
    public internal(set) var document: TripDocument
    /// This installation's device.
    public let deviceID: DeviceID
    /// This home's older local default zone for the trip (set by `new --zone` before the trip's
    /// zone was a register of the trip), when any.
    public let defaultZone: String?
    var clock: HybridLogicalClock
    let now: UInt64
    /// Whether anything was written.
    var wrote = false

    init(document: TripDocument, clock: HybridLogicalClock, defaultZone: String?, now: UInt64) {
        self.document = document
        self.deviceID = document.deviceID
        self.clock = clock
        self.defaultZone = defaultZone
        self.now = now
    }

    /// The zone a new timed value takes when none is typed: the trip's zone (`trip.zone`, the
    /// same on every replica), else this home's older local default; nil when the trip has
    /// none (the caller then uses this machine's zone and says so). Never guessed from items.
    public var suggestedZone: String? { tripZone ?? defaultZone }

    /// The live (or, with `.deleted`, deleted) item that `text` names: an id or an id prefix
    /// (`ItemLookup`).
    package func item(_ text: String, in scope: ItemLookup.Scope = .live) throws(EditError) -> ItemID {
        try ItemLookup.find(text, in: document, scope: scope)
    }

    /// Adds an item at `position` (its order key is chosen there) and returns its new id. Every value is checked as readers check it (`TripDocument.check`).
    @discardableResult
    public mutating func addItem(_ values: NewItem, at position: ItemPosition) throws(TripError) -> ItemID {
        try TripError.typed {
            var placed = values
            placed.sortKey = try position.sortKey(in: document)
            return try addItem(placed)
        }
    }

    /// Adds an item with the order key in `values` and returns its new id (the package's
    /// fixtures; an app says where with `addItem(_:at:)`).
    @discardableResult
    package mutating func addItem(_ values: NewItem) throws(EditError) -> ItemID {
        let id = Identifier.random()
        try document.addItem(id, values, hlc: &clock, now: now)
        wrote = true
        return id
    }

    /// Writes several fields of a live item as one edit (nothing when any value is refused);
    /// the outcome names the fields written and the conflicts they replaced.
    @discardableResult
    package mutating func set(_ writes: [FieldWrite], of id: ItemID) throws(EditError) -> EditOutcome {
        let outcome = try document.set(writes, of: id, hlc: &clock, now: now)
        if !outcome.changed.isEmpty { wrote = true }
        return outcome
    }

    /// Applies a person's edit of an item (`ItemEdit`, the one edit every face builds): only the
    /// fields it changes are written, a part of a time by the library's one rule, and a field
    /// someone else changed after the person saw it keeps that value beside the new one as a
    /// conflict (`EditOutcome.kept`). Nothing is written when any value is refused.
    @discardableResult
    public mutating func apply(_ edit: ItemEdit) throws(TripError) -> EditOutcome {
        try TripError.typed {
            let outcome = try document.apply(edit, suggestedZone: suggestedZone, hlc: &clock, now: now)
            if !outcome.changed.isEmpty { wrote = true }
            return outcome
        }
    }

    /// Writes one field of a live item; false when it already held `value` without conflict.
    @discardableResult
    public mutating func set(_ field: ItemField, of id: ItemID, to value: FieldValue) throws(TripError) -> Bool {
        try TripError.typed {
            !(try set([FieldWrite(field, value)], of: id).changed.isEmpty)
        }
    }

    /// Gives a live item a new order key at `position`; false when nothing changed. Refused
    /// (`.invalidValue`, naming both times) where the day's times decide the place instead
    /// (`ItemPosition.checkTimeAllows`).
    @discardableResult
    public mutating func move(_ id: ItemID, to position: ItemPosition) throws(TripError) -> Bool {
        try TripError.typed {
            _ = try document.liveItem(id)
            try position.checkTimeAllows(id, in: document)
            return try set(.sortKey, of: id, to: .text(try position.sortKey(in: document, moving: id)))
        }
    }

    /// Deletes a live item; its fields stay in a tombstone, restorable.
    public mutating func delete(_ id: ItemID) throws(TripError) {
        try TripError.typed {
            try document.deleteItem(id, at: UTCTimestamp(millisecondsSinceEpoch: now), hlc: &clock, now: now)
            wrote = true
        }
    }

    /// Brings a deleted item back with everything it held.
    public mutating func restore(_ id: ItemID) throws(TripError) {
        try TripError.typed {
            try document.restoreItem(id, hlc: &clock, now: now)
            wrote = true
        }
    }

    /// Settles a field's conflict by writing the chosen value anew (a write that has seen every
    /// value, so the conflict is gone on every replica); returns the value kept. Throws
    /// `.noConflict` when the field holds one value, `.noValueOfMine` for `.mine` when this
    /// device wrote none of them, `.invalidValue` for an alternative number out of range.
    @discardableResult
    public mutating func resolve(_ field: ItemField, of id: ItemID, keeping choice: ConflictChoice) throws(TripError) -> FieldConflict.Version {
        try TripError.typed {
            let item = try document.liveItem(id)
            guard let conflict = FieldConflict(item: id, field: field, in: item) else {
                throw EditError(.noConflict, "\(field.rawValue) of this item has no conflict")
            }
            let chosen = try choose(choice, current: conflict.current, alternatives: conflict.alternatives, all: ConflictList.versions(item, field))
            _ = try document.set(field, of: id, to: chosen.value, force: true, hlc: &clock, now: now)
            wrote = true
            return chosen
        }
    }

    /// Settles the conflict of a shown attachment's caption, as `resolve` settles a field's.
    @discardableResult
    public mutating func resolveCaption(of id: AttachmentID, keeping choice: ConflictChoice) throws(TripError) -> FieldConflict.Version {
        try TripError.typed {
            let attachment = try document.liveAttachment(id)
            guard document.isShown(id), let item = attachment.item?.value, let caption = attachment.caption, let conflict = RegisterConflict(.caption(id, item: item), caption) else {
                throw EditError(.noConflict, "the caption of this attachment has no conflict")
            }
            let chosen = try choose(choice, current: conflict.current, alternatives: conflict.alternatives, all: conflict.versions)
            guard case .text(let caption) = chosen.value else { throw EditError("a caption is text") }
            _ = try document.setCaption(id, to: caption, hlc: &clock, now: now)
            wrote = true
            return chosen
        }
    }

    /// Settles the conflict of the trip's name (two laptops renamed it at once).
    @discardableResult
    public mutating func resolveName(keeping choice: ConflictChoice) throws(TripError) -> FieldConflict.Version {
        try TripError.typed {
            guard let conflict = RegisterConflict.tripName(of: document) else {
                throw EditError(.noConflict, "the trip's name has no conflict")
            }
            let chosen = try choose(choice, current: conflict.current, alternatives: conflict.alternatives, all: conflict.versions)
            guard case .text(let name?) = chosen.value else { throw EditError("a trip's name is text") }
            let rev = try document.stamp(&clock, now: now)
            document.trip.name.write(name, rev: rev)
            wrote = true
            return chosen
        }
    }

    /// Settles the conflict of the trip's zone (two laptops set it at once).
    @discardableResult
    public mutating func resolveZone(keeping choice: ConflictChoice) throws(TripError) -> FieldConflict.Version {
        try TripError.typed {
            guard let conflict = RegisterConflict.tripZone(of: document) else {
                throw EditError(.noConflict, "the trip's zone has no conflict")
            }
            let chosen = try choose(choice, current: conflict.current, alternatives: conflict.alternatives, all: conflict.versions)
            guard case .text(let zone) = chosen.value else { throw EditError("a trip's zone is a zone id or none") }
            let rev = try document.stamp(&clock, now: now)
            document.trip.zone?.write(zone, rev: rev)
            wrote = true
            return chosen
        }
    }

    /// The live attachment `text` names (its id, or a prefix of at least four characters).
    public func attachment(_ text: String) throws(TripError) -> AttachmentID {
        try TripError.typed {
            let live = document.attachments.keys.filter { document.attachments[$0]?.isDetached == false }
            switch ItemLookup.match(text, among: Array(live), id: \.description) {
            case .one(let id): return id
            case .tooShort: throw EditError(.shortItemPrefix, "an attachment is named by its id or an id prefix of at least \(ItemLookup.minimumPrefix) characters, got '\(text)'")
            case .several(let ids): throw EditError(.ambiguousItem, "'\(text)' matches \(ids.count) attachments; type more of the id")
            case .none:
                throw EditError(.noSuchAttachment, "no attachment matches '\(text)'", remedy: "the trip's attachments list names them", facts: ErrorFacts(item: text, thing: "attachment"))
            }
        }
    }

    /// The version `choice` names: the current one, this device's, or alternative N.
    private func choose(
        _ choice: ConflictChoice, current: FieldConflict.Version, alternatives: [FieldConflict.Version], all: [FieldConflict.Version]
    ) throws(EditError) -> FieldConflict.Version {
        switch choice {
        case .current: return current
        case .mine:
            guard let mine = all.first(where: { $0.device == deviceID }) else {
                throw EditError(.noValueOfMine, "this device wrote none of the values; keep the current one or a numbered alternative")
            }
            return mine
        case .alternative(let number):
            guard number >= 1, number <= alternatives.count else {
                throw EditError("there are \(alternatives.count) alternatives (1…\(alternatives.count)); got \(number)")
            }
            return alternatives[number - 1]
        }
    }

    /// Renames the trip: one write of the trip's name register, merged like any field (two
    /// devices renaming at once leave a conflict). False when the name is already `name` with no
    /// conflict. Throws `EditError` for a name readers would refuse. Names unique in a home are
    /// `TripStore.rename`'s check, which sees the home's other trips.
    @discardableResult
    package mutating func rename(to name: String) throws(EditError) -> Bool {
        try TripDocument.check(name: name)
        if document.trip.name.value == name && !document.trip.name.hasVisibleConflict { return false }
        let rev = try document.stamp(&clock, now: now)
        document.trip.name.write(name, rev: rev)
        wrote = true
        return true
    }

    /// Names this device in the trip (a device-name write) when it is not named so yet.
    mutating func registerDevice(name: String) throws(EditError) {
        try document.nameDevice(name, hlc: &clock, now: now)
    }
}

/// Which value of a conflicting field to keep (`TripEditor.resolve`).
public enum ConflictChoice: Hashable, Sendable {
    /// The value shown now.
    case current
    /// The value this device wrote.
    case mine
    /// The alternative numbered N (from 1) in `FieldConflict.alternatives`.
    case alternative(Int)
}
