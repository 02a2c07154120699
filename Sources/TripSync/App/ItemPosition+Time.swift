import TripSyncCore
import TripSyncPlatform

/// Where the order key decides, and where the time does: a day lists whole-day items first,
/// then timed items by their instant; the order key (`move`) only settles items that tie on
/// that (the same day and the same time, or no start at all).
extension ItemPosition {
    /// Refuses a move whose result the day's times would override: a neighbour of another
    /// time or day, or `first`/`last` for an item no other item ties with. The message names
    /// both times and says what would move the item (its time). Nothing is checked for an
    /// item or neighbour that is not live (`sortKey(in:moving:)` refuses those).
    package func checkTimeAllows(_ moving: ItemID, in document: TripDocument, zones: ZoneRules = ZoneRules()) throws(EditError) {
        let itinerary = Itinerary(document, zones: zones)
        var slots: [ItemID: (list: String, entry: ItineraryEntry)] = [:]
        for day in itinerary.days { for entry in day.entries { slots[entry.id] = ("\(day.date)", entry) } }
        for entry in itinerary.unscheduled { slots[entry.id] = ("unscheduled", entry) }
        guard let item = slots[moving] else { return }
        func tied(_ a: (list: String, entry: ItineraryEntry), _ b: (list: String, entry: ItineraryEntry)) -> Bool {
            a.list == b.list && Self.timeRank(a.entry) == Self.timeRank(b.entry)
        }
        let hint = "a day lists its items by time, and the order only settles items of the same time"
        let remedy = "to move it, change its time"
        let facts = ErrorFacts(item: moving.description, thing: "item")
        switch self {
        case .after(let other), .before(let other):
            guard let neighbour = slots[other], other != moving else { return }
            if !tied(item, neighbour) {
                let relation = { if case .after = self { return "after" } else { return "before" } }()
                throw EditError(
                    .orderNeedsTime,
                    "cannot move \"\(Self.title(item.entry))\" \(relation) \"\(Self.title(neighbour.entry))\": the first is at \(Self.when(item)) and the second at \(Self.when(neighbour)); \(hint)",
                    remedy: remedy, facts: facts)
            }
        case .first, .last:
            if !slots.values.contains(where: { $0.entry.id != moving && tied(item, $0) }) {
                throw EditError(
                    .orderNeedsTime,
                    "cannot move \"\(Self.title(item.entry))\" \(self == .first ? "first" : "last"): no other item is at its time (\(Self.when(item))); \(hint)",
                    remedy: remedy, facts: facts)
            }
        }
    }

    /// The part of the day's order that comes before the order key: whole-day or no start (0,
    /// 0), else timed (1, the instant `Itinerary.order` uses).
    private static func timeRank(_ entry: ItineraryEntry) -> [Int64] {
        guard let start = entry.start, case .local = start.time else { return [0, 0] }
        return [1, Itinerary.sortInstant(start)]
    }

    private static func title(_ entry: ItineraryEntry) -> String { entry.fields.title?.value ?? "(untitled)" }

    /// `2027-06-08 12:30 (Europe/Lisbon)`, `2027-06-08 (all day)`, `no start`.
    private static func when(_ slot: (list: String, entry: ItineraryEntry)) -> String {
        guard let start = slot.entry.start else { return "no start" }
        switch start.time {
        case .date: return "\(slot.list) (all day)"
        case .local(_, let zone): return "\(slot.list) \(LocalTimeFormat.hhmm(start.time)) (\(zone))"
        }
    }
}
