/// One edit of an item as a person made it, built the same way by every face (the CLI's `edit`,
/// the page's Save, an app): only the fields the person changed, each with the revs of the
/// values they saw when they started (docs/DESIGN.md, "One edit value").
///
/// Applied (`TripEditor.apply`), a field not in the edit is not written; a changed field whose
/// register still holds only what the person saw is written as any edit is; a changed field
/// someone else wrote since (another tab, the CLI, a sync) keeps that value beside the new one,
/// as a conflict a person settles with Keep this: never a silent revert.
public struct ItemEdit: Hashable, Sendable {
    /// What the person saw of a field before changing it: `current`, or the values an item
    /// showed (`TripItem.seen(_:)`, the value and its conflicts), whose revs are the library's.
    public struct Seen: Hashable, Sendable {
        /// The revs of the values seen; nil for `current`.
        package var seenRevs: Set<Rev>?

        /// Whatever the field holds when the edit is applied (a command typed against the trip
        /// as it is now: the CLI's `edit`). Its conflicting values are replaced, as before.
        public static let current = Seen(seenRevs: nil)

        /// The values with these revs (the value a form showed and the conflicts shown with
        /// it); any other value the field holds then was written since, and is kept.
        package static func revs(_ revs: Set<Rev>) -> Seen { Seen(seenRevs: revs) }
    }

    /// A time of day, or none (a whole day).
    public enum TimeOfDay: Hashable, Sendable {
        /// No time: the value becomes a whole day.
        case allDay
        /// A time on the value's day.
        case at(hour: Int, minute: Int)
    }

    /// A change to a start or an end: the whole value, or some of its parts.
    public enum TimeChange: Hashable, Sendable {
        /// The whole value (nil clears it).
        case whole(TripTime?)
        /// Only the parts given; each part not given keeps what the value holds when the edit
        /// is applied (`ItemEdit.changed(_:to:fallbackZone:field:)` is the one rule).
        case parts(day: LocalDate?, time: TimeOfDay?, zone: String?)
    }

    /// A field's change.
    package enum Change: Hashable, Sendable {
        /// A title, place or note (nil clears a place or note).
        case text(String?)
        /// A start or an end.
        case time(TimeChange)
    }

    /// The item edited.
    public let item: ItemID
    /// The fields changed, in the order they were given, each with what the person saw.
    package var changes: [(field: ItemField, change: Change, seen: Seen)] {
        storage.map { ($0.field, $0.change, $0.seen) }
    }

    private struct Entry: Hashable, Sendable {
        var field: ItemField
        var change: Change
        var seen: Seen
    }

    private var storage: [Entry] = []

    /// An edit of `item` that changes nothing yet.
    public init(item: ItemID) {
        self.item = item
    }

    /// Whether no field is changed.
    public var isEmpty: Bool { storage.isEmpty }

    /// Changes a title, place or note (`nil` clears a place or note); a later change of the
    /// same field replaces an earlier one.
    public mutating func set(_ field: ItemField, to text: String?, seen: Seen = .current) {
        put(Entry(field: field, change: .text(text), seen: seen))
    }

    /// Changes the start or the end, whole or in part.
    public mutating func set(_ field: ItemField, to time: TimeChange, seen: Seen = .current) {
        put(Entry(field: field, change: .time(time), seen: seen))
    }

    private mutating func put(_ entry: Entry) {
        if let index = storage.firstIndex(where: { $0.field == entry.field }) {
            storage[index] = entry
        } else {
            storage.append(entry)
        }
    }

    /// What the person saw of `field`, when the edit changes it.
    package func seen(_ field: ItemField) -> Seen? {
        storage.first { $0.field == field }?.seen
    }

    /// The start and end the edit leaves `item` with, by the one rule for editing part of a time
    /// (`changed(_:to:fallbackZone:field:)`): the start first, from its value now, then the end.
    /// When the start's zone changes and the end is a time in the start's old zone, the end
    /// moves to the new zone at the same wall time before any change of its own parts (an end
    /// given a zone takes that one); an end in another zone (a flight's arrival) stays. `suggestedZone` is the zone a new time takes when none is given
    /// or held (the trip's).
    package func times(of item: ItemFields, suggestedZone: String?) throws(EditError) -> (start: TripTime?, end: TripTime?) {
        let oldStart = item.start?.value ?? nil
        let oldEnd = item.end?.value ?? nil
        var start = oldStart
        if case .time(let change)? = storage.first(where: { $0.field == .start })?.change {
            start = try Self.changed(oldStart, to: change, fallbackZone: suggestedZone, field: .start)
        }
        var end = oldEnd
        if let oldZone = oldStart?.zone, let newZone = start?.zone, oldZone != newZone, case .local(let local, oldZone)? = oldEnd {
            end = .local(local, zone: newZone)
        }
        if case .time(let change)? = storage.first(where: { $0.field == .end })?.change {
            end = try Self.changed(end, to: change, fallbackZone: start?.zone ?? suggestedZone, field: .end)
        }
        return (start, end)
    }

    /// The one rule for editing part of a time: a part given replaces that part of `value`, a
    /// part not given keeps it. A day alone keeps the time and zone; a time alone keeps the
    /// day and zone (a whole-day value takes `fallbackZone`); a zone alone keeps the day and
    /// the wall time (a whole-day value stays one). Throws `.invalidValue` when a time is given
    /// to a value without a day, or a time has no zone to be in.
    package static func changed(_ value: TripTime?, to change: TimeChange, fallbackZone: String?, field: ItemField) throws(EditError) -> TripTime? {
        guard case .parts(let day, let time, let zone) = change else {
            if case .whole(let whole) = change { return whole }
            return value
        }
        guard let date = day ?? value?.localDate else {
            throw EditError(.invalidValue, "\(field.rawValue): the item has no day yet; give a day")
        }
        let clock: (hour: Int, minute: Int)?
        switch time {
        case .allDay?: clock = nil
        case .at(let hour, let minute)?: clock = (hour, minute)
        case nil:
            if case .local(let local, _)? = value { clock = (local.hour, local.minute) } else { clock = nil }
        }
        guard let clock else { return .date(date) }
        guard let local = LocalDateTime(date: date, hour: clock.hour, minute: clock.minute) else {
            throw EditError(.invalidValue, "\(field.rawValue): \(clock.hour):\(clock.minute) is not a time of day")
        }
        guard let chosen = zone ?? value?.zone ?? fallbackZone else {
            throw EditError(.invalidValue, "\(field.rawValue): a time needs a zone; give one")
        }
        return .local(local, zone: chosen)
    }

    /// The writes the edit makes on `item`, each with what the person saw: a time only where it
    /// changes the value (or the end moves with the start's zone).
    func writes(of item: ItemFields, suggestedZone: String?) throws(EditError) -> [(FieldWrite, Seen)] {
        let (start, end) = try times(of: item, suggestedZone: suggestedZone)
        var writes: [(FieldWrite, Seen)] = []
        for entry in storage {
            switch entry.change {
            case .text(let text): writes.append((FieldWrite(entry.field, .text(text)), entry.seen))
            case .time:
                guard entry.field == .start || entry.field == .end else { throw EditError("\(entry.field.rawValue) cannot take a time") }
                writes.append((FieldWrite(entry.field, .time(entry.field == .start ? start : end)), entry.seen))
            }
        }
        if !storage.contains(where: { $0.field == .end }), end != (item.end?.value ?? nil) {
            writes.append((FieldWrite(.end, .time(end)), .current))
        }
        return writes
    }
}
