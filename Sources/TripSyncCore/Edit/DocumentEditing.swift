/// The values of a new item. Where it goes in the order is said when it is added
/// (`TripEditor.addItem(_:at:)`), never by a key of its own.
public struct NewItem: Hashable, Sendable {
    /// The title (1–200 characters).
    public var title: String
    /// The order key: chosen by the editor at the place the item is added (`ItemPosition`); the
    /// package's simulations set it directly.
    package var sortKey: String
    /// When it starts.
    public var start: TripTime?
    /// When it ends.
    public var end: TripTime?
    /// Where.
    public var place: String?
    /// A note.
    public var note: String?

    /// Creates the values of a new item.
    public init(title: String, start: TripTime? = nil, end: TripTime? = nil, place: String? = nil, note: String? = nil) {
        self.init(title: title, sortKey: "", start: start, end: end, place: place, note: note)
    }

    /// Creates the values of a new item with its order key (the package's fixtures and tests).
    package init(title: String, sortKey: String, start: TripTime? = nil, end: TripTime? = nil, place: String? = nil, note: String? = nil) {
        self.title = title
        self.sortKey = sortKey
        self.start = start
        self.end = end
        self.place = place
        self.note = note
    }
}

/// Whether a text shows anything: a title of only whitespace or invisible characters (spaces,
/// no-break spaces, zero-width spaces, fillers) is refused when typed. Readers accept such a
/// title (`TextRule` counts characters), so the check lives in the editing layer.
package enum VisibleText {
    /// Whether every scalar of `text` is whitespace or a default-ignorable code point (an
    /// empty text is blank too).
    package static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }
    }
}

/// One field and the value an edit gives it.
package struct FieldWrite: Hashable, Sendable {
    /// The field.
    package var field: ItemField
    /// Its new value.
    package var value: FieldValue

    /// A write of `value` to `field`.
    package init(_ field: ItemField, _ value: FieldValue) {
        self.field = field
        self.value = value
    }
}

/// What an edit of several fields did.
public struct EditOutcome: Hashable, Sendable {
    /// The fields written, in the order given (a field given its current value is not).
    public var changed: [ItemField]
    /// The conflicts the writes replaced: each written field that held conflicting values,
    /// with those values and their writers, as they were before the edit.
    public var replaced: [FieldConflict]

    /// The fields written whose value someone else changed after the person saw it (an
    /// `ItemEdit` with `.revs`): the new value is the field's value and the other one is kept
    /// beside it as a conflict, to settle with Keep this.
    public var kept: [ItemField] = []

    /// Creates an outcome.
    package init(changed: [ItemField], replaced: [FieldConflict], kept: [ItemField] = []) {
        self.changed = changed
        self.replaced = replaced
        self.kept = kept
    }
}

/// A value for one field, for generic edits and conflict resolution.
public enum FieldValue: Hashable, Sendable {
    /// A title, sortKey, place or note (nil clears place and note).
    case text(String?)
    /// A start or end (nil clears it).
    case time(TripTime?)
}

/// Local writes on a document by its own device (`deviceID`). Each write stamps a new rev from
/// the hybrid logical clock and raises `clock`; a write replaces every value it has seen. The
/// writes are `package`: apps edit through `TripStore.edit`, which owns the one clock; the
/// fixtures and tests of this package drive them directly to simulate devices.
extension TripDocument {
    /// Issues the next rev for this document's device.
    package mutating func stamp(_ hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) -> Rev {
        try Self.stamp(&hlc, &clock, device: deviceID, now: now)
    }

    /// Issues the next rev of `device` from `hlc` and includes it in `clock`.
    static func stamp(_ hlc: inout HybridLogicalClock, _ clock: inout VersionVector, device: DeviceID, now: UInt64) throws(EditError) -> Rev {
        hlc.observe(clock.maxCounter)
        guard let counter = hlc.next(nowMilliseconds: now) else {
            throw EditError(.clockAhead, "this laptop's counter has reached the largest a rev can hold (its clock was once set hundreds of thousands of years ahead); set the date and time right and run the command again")
        }
        let rev = Rev(counter: counter, device: device)
        clock.include(rev)
        return rev
    }

    /// Refuses a value that readers of the file would refuse (`TextRule`, `SortKeyRules`, zone
    /// ids of IANA shape) and a new value readers would warn about or a person would not mean
    /// (`checkNew`: a blank title, a zone that is not in this machine's tz database), naming the
    /// field: an edit never writes a trip others cannot read. `addItem` and `set` also refuse
    /// an end before its start (`checkOrder`).
    package static func check(_ field: ItemField, _ value: FieldValue) throws(EditError) {
        try checkReadable(field, value)
        try checkNew(field, value)
    }

    /// The rules readers refuse a file for.
    static func checkReadable(_ field: ItemField, _ value: FieldValue) throws(EditError) {
        func text(_ text: String?, _ rule: TextRule, what: String) throws(EditError) {
            guard let text else { return }
            if let violation = rule.violation(in: text) { throw EditError("\(field.rawValue): " + rule.message(for: violation, what: what)) }
        }
        func time(_ time: TripTime?) throws(EditError) {
            if case .local(_, let zone)? = time, !ZoneID.isWellFormed(zone) {
                throw EditError("\(field.rawValue): " + ZoneID.expectation(found: zone))
            }
        }
        switch (field, value) {
        case (.title, .text(let value?)): try text(value, .title, what: "a title")
        case (.sortKey, .text(let value?)):
            guard SortKeyRules.isValid(value) else {
                throw EditError("sortKey: expected \(SortKeyRules.requirement), found \"\(value.prefix(140))\"")
            }
        case (.place, .text(let value)): try text(value, .place, what: "a place")
        case (.note, .text(let value)): try text(value, .note, what: "a note")
        case (.start, .time(let value)), (.end, .time(let value)): try time(value)
        default: throw EditError("\(field.rawValue) cannot take that value")
        }
    }

    /// Refuses a new value that readers accept but that no person means: a title of only
    /// whitespace or invisible characters (`VisibleText.isBlank`), and a time in a zone that is
    /// not a real zone of this machine's tz database (`ZoneDatabase.isTypeable`: `PST`, `GMT+1`
    /// or a misspelt id, which readers would show as "unknown zone" or take as an offset).
    /// Values a register already holds (resolving a conflict keeps one) are not new.
    package static func checkNew(_ field: ItemField, _ value: FieldValue) throws(EditError) {
        switch (field, value) {
        case (.title, .text(let title?)) where VisibleText.isBlank(title):
            throw EditError("title: expected a title with a visible character, found only spaces")
        case (.start, .time(.local(_, let zone)?)), (.end, .time(.local(_, let zone)?)):
            if ZoneID.isWellFormed(zone), !ZoneDatabase.isTypeable(zone) {
                throw EditError(
                    "\(field.rawValue): zone \"\(zone.prefix(70))\" is not a zone of this machine's time zone database; "
                        + "expected an IANA id such as Europe/Lisbon or America/Los_Angeles (abbreviations like PST and offsets like GMT+1 are not zones)")
            }
        default: break
        }
    }

    /// Refuses an end before its start (compared as instants across zones, by `ZoneRules`, the
    /// comparison readers warn "end-before-start" by); an end equal to the start is fine.
    package static func checkOrder(start: TripTime?, end: TripTime?) throws(EditError) {
        guard let start, let end, ZoneRules.shared.isBefore(end, start) else { return }
        func text(_ time: TripTime) -> String {
            switch time {
            case .date(let date): return date.description
            case .local(let local, let zone): return "\(local) \(zone)"
            }
        }
        throw EditError(.endBeforeStart, "end: the end (\(text(end))) is before the start (\(text(start))); expected an end at or after the start")
    }

    /// Adds a live item with every field stamped; returns nothing (the id is the caller's).
    /// Values readers would refuse are refused here (`check`), and nothing is written.
    package mutating func addItem(_ id: ItemID, _ values: NewItem, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard items[id] == nil, tombstones[id] == nil else { throw EditError(.itemExists, "item \(id) already exists") }
        try Self.check(.title, .text(values.title))
        try Self.check(.sortKey, .text(values.sortKey))
        try Self.check(.start, .time(values.start))
        try Self.check(.end, .time(values.end))
        try Self.check(.place, .text(values.place))
        try Self.check(.note, .text(values.note))
        try Self.checkOrder(start: values.start, end: values.end)
        items[id] = ItemFields(
            title: Register(value: values.title, rev: try stamp(&hlc, now: now)),
            sortKey: Register(value: values.sortKey, rev: try stamp(&hlc, now: now)),
            start: Register(value: values.start, rev: try stamp(&hlc, now: now)),
            end: Register(value: values.end, rev: try stamp(&hlc, now: now)),
            place: Register(value: values.place, rev: try stamp(&hlc, now: now)),
            note: Register(value: values.note, rev: try stamp(&hlc, now: now)))
    }

    /// Writes one field of a live item. Returns false (and writes nothing) when the value is
    /// already current and there is no conflict to settle; with `force` it always writes (used
    /// to resolve a conflict by keeping the current value). A value readers would refuse is
    /// refused (`check`), and so is a new start or end that puts the end before the start
    /// (`checkOrder`); a value the register already holds is checked only against what readers
    /// refuse.
    @discardableResult
    package mutating func set(
        _ field: ItemField, of id: ItemID, to value: FieldValue, force: Bool = false, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> Bool {
        !(try write([FieldWrite(field, value)], of: id, force: force, hlc: &hlc, now: now).changed.isEmpty)
    }

    /// Writes several fields of a live item as one edit: every value is checked first (as
    /// `set` checks one), the end against the start the edit leaves, and nothing is written
    /// when any is refused. A field given its current value is not written. The outcome names
    /// the fields written and the conflicts those writes replaced (each write has seen every
    /// value of its register, so their conflicting values are gone from the field).
    package mutating func set(
        _ writes: [FieldWrite], of id: ItemID, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> EditOutcome {
        try write(writes, of: id, force: false, hlc: &hlc, now: now)
    }

    /// Applies a person's edit of an item (`ItemEdit`): only the fields it changes are written,
    /// each checked as `set` checks it; a field whose register holds a value the person did not
    /// see (written since by someone else) keeps that value as a conflict beside the new one.
    package mutating func apply(
        _ edit: ItemEdit, suggestedZone: String?, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> EditOutcome {
        let original = try liveItem(edit.item)
        let pairs = try edit.writes(of: original, suggestedZone: suggestedZone)
        var seen: [ItemField: Set<Rev>] = [:]
        for (write, what) in pairs { if let revs = what.seenRevs { seen[write.field] = revs } }
        return try write(pairs.map(\.0), of: edit.item, force: false, seen: seen, hlc: &hlc, now: now)
    }

    private mutating func write(
        _ writes: [FieldWrite], of id: ItemID, force: Bool, seen: [ItemField: Set<Rev>] = [:], hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> EditOutcome {
        let original = try liveItem(id)
        var checksOrder = false
        var start = original.start?.value ?? nil
        var end = original.end?.value ?? nil
        for write in writes {
            try Self.checkReadable(write.field, write.value)
            let held = ConflictList.versions(original, write.field).contains { $0.value == write.value }
            if !held {
                try Self.checkNew(write.field, write.value)
                if write.field == .start || write.field == .end { checksOrder = true }
            }
            switch (write.field, write.value) {
            case (.start, .time(let time)): start = time
            case (.end, .time(let time)): end = time
            default: break
            }
        }
        if checksOrder { try Self.checkOrder(start: start, end: end) }
        // Stamp on copies, so a refused stamp (a clock far ahead) leaves everything as it was.
        var newClock = clock
        var newHLC = hlc
        let device = deviceID
        func stamp() throws(EditError) -> Rev {
            try Self.stamp(&newHLC, &newClock, device: device, now: now)
        }
        // A write replaces what the person saw; a value written since (a rev not seen) stays
        // beside it as a conflict, never reverted (`ItemEdit.Seen.revs`).
        var keptBeside = false
        func write<V>(_ register: inout Register<V>?, _ newValue: V, seen: Set<Rev>?) throws(EditError) -> Bool {
            keptBeside = false
            let unseen = seen.map { seen in register?.versions.filter { !seen.contains($0.rev) } ?? [] } ?? []
            if !unseen.isEmpty {
                if register?.value == newValue { return false }  // someone else typed the same since
                register = Register(versions: [Versioned(value: newValue, rev: try stamp())] + unseen)
                keptBeside = true
                return true
            }
            if let current = register, current.value == newValue, current.conflicts.isEmpty || !force { return false }
            register = Register(value: newValue, rev: try stamp())
            return true
        }
        var item = original
        var outcome = EditOutcome(changed: [], replaced: [])
        for entry in writes {
            let changed: Bool
            let saw = seen[entry.field]
            switch (entry.field, entry.value) {
            case (.title, .text(let text?)): changed = try write(&item.title, text, seen: saw)
            case (.sortKey, .text(let text?)): changed = try write(&item.sortKey, text, seen: saw)
            case (.place, .text(let text)): changed = try write(&item.place, text, seen: saw)
            case (.note, .text(let text)): changed = try write(&item.note, text, seen: saw)
            case (.start, .time(let time)): changed = try write(&item.start, time, seen: saw)
            case (.end, .time(let time)): changed = try write(&item.end, time, seen: saw)
            default: throw EditError("\(entry.field.rawValue) cannot take that value")
            }
            guard changed else { continue }
            if keptBeside {
                if !outcome.kept.contains(entry.field) { outcome.kept.append(entry.field) }
            } else if !outcome.changed.contains(entry.field), let conflict = FieldConflict(item: id, field: entry.field, in: original) {
                outcome.replaced.append(conflict)
            }
            if !outcome.changed.contains(entry.field) { outcome.changed.append(entry.field) }
        }
        if !outcome.changed.isEmpty {
            items[id] = item
            clock = newClock
            hlc = newHLC
        }
        return outcome
    }

    /// Deletes a live item: its registers move into a tombstone whose delete value records when
    /// (`at`, wall clock) and what this replica had seen. A deleted item edited while deleted
    /// (`editedWhileDeleted`) may be deleted again: the new delete has seen the edits, replaces
    /// the earlier deletes, and the retention counts from it (the shared design, "Compaction").
    package mutating func deleteItem(_ id: ItemID, at: UTCTimestamp, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        if let tombstone = tombstones[id], !editedWhileDeleted(id).isEmpty {
            let seen = clock
            let rev = try stamp(&hlc, now: now)
            tombstones[id] = Tombstone(deleted: Register(value: Deletion(at: at, seen: seen), rev: rev), item: tombstone.item)
            return
        }
        guard let item = items[id] else {
            throw tombstones[id] != nil ? EditError(.itemDeleted, "item \(id) is already deleted") : EditError(.noSuchItem, "no item \(id)")
        }
        let seen = clock
        let rev = try stamp(&hlc, now: now)
        items[id] = nil
        tombstones[id] = Tombstone(deleted: Register(value: Deletion(at: at, seen: seen), rev: rev), item: item)
    }

    /// Brings a deleted item back with everything it held (edits made while deleted included):
    /// every field is re-stamped with a new dot, a field missing from a compacted tombstone gets
    /// a default, and the delete values (all seen here) are replaced.
    package mutating func restoreItem(_ id: ItemID, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard let tombstone = tombstones[id] else {
            throw items[id] != nil ? EditError(.itemNotDeleted, "item \(id) is not deleted") : EditError(.noSuchItem, "no deleted item \(id)")
        }
        var item = tombstone.item
        func restamp<V>(_ register: inout Register<V>?, default value: V) throws(EditError) {
            var restored = register ?? Register(value: value, rev: Rev(counter: 1, device: deviceID))
            restored.rev = try stamp(&hlc, now: now)
            register = restored
        }
        try restamp(&item.title, default: "Restored item")
        try restamp(&item.sortKey, default: "V")
        try restamp(&item.start, default: nil)
        try restamp(&item.end, default: nil)
        try restamp(&item.place, default: nil)
        try restamp(&item.note, default: nil)
        tombstones[id] = nil
        items[id] = item
    }

    /// The live item `id`; throws `.itemDeleted` (restore it first) or `.noSuchItem`.
    package func liveItem(_ id: ItemID) throws(EditError) -> ItemFields {
        guard let item = items[id] else {
            throw tombstones[id] != nil ? EditError(.itemDeleted, "item \(id) is deleted; restore it first") : EditError(.noSuchItem, "no item \(id)")
        }
        return item
    }

    /// Names this document's device `name` in the trip (one device-name write), unless it is
    /// named so already; a name readers would refuse, or one of only spaces, is refused. Only
    /// in an open trip: in an owned one a member's name is in its owner-signed grant, and a
    /// write a viewer or a waiting device made would stay in its replica alone for good.
    package mutating func nameDevice(_ name: String, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        if owner != nil || devices[deviceID]?.name.value == name { return }
        if let violation = TextRule.name.violation(in: name) {
            throw EditError("device name: " + TextRule.name.message(for: violation, what: "a device name"))
        }
        let rev = try stamp(&hlc, now: now)
        var info = devices[deviceID] ?? DeviceInfo(name: Register(value: name, rev: rev))
        info.name.write(name, rev: rev)
        devices[deviceID] = info
    }

    /// Refuses a trip name readers would refuse (`TextRule.name`) or one of only spaces.
    package static func check(name: String) throws(EditError) {
        if let violation = TextRule.name.violation(in: name) {
            throw EditError("name: " + TextRule.name.message(for: violation, what: "a trip name"))
        }
        if VisibleText.isBlank(name) { throw EditError("name: expected a name with a visible character, found only spaces") }
    }

    /// Marks that this device has published its state: its `acks` entry becomes its clock.
    package mutating func acknowledgeOwnState() {
        acks[deviceID] = clock
    }
}
