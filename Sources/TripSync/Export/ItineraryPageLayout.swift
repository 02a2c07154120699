import TripSyncCore

/// The itinerary arranged for the page: the days (each item under its own local date, in the
/// itinerary's order), the days a multi-day item continues into, and the deleted items edited
/// while deleted, under their own dates too.
struct ItineraryPageLayout: Sendable {
    /// How an item is drawn.
    enum Kind: Hashable, Sendable {
        /// A whole day, or several (a band).
        case allDay
        /// Timed, starting and ending in different zones: departure to arrival (a flight).
        case travel
        /// Timed, ending on a later local date in the same zone (a stay: a band with times).
        case stay
        /// Timed, with or without an end on the same date.
        case timed
    }

    /// A multi-day item on one of its later days.
    struct Continuation: Sendable {
        /// The item.
        var entry: ItineraryEntry
        /// Which day of the item this is (2 for the day after its start).
        var dayNumber: Int
        /// How many local dates the item covers.
        var dayCount: Int
    }

    /// A deleted item that holds edits made while it was deleted.
    struct Ghost: Sendable {
        /// What the conflict list says about it.
        var entry: DeletedWhileEdited
        /// Its start as the tombstone holds it, resolved.
        var start: ShownTime?
    }

    /// One day of the page.
    struct Day: Sendable {
        /// The local date.
        var date: LocalDate
        /// Items of this date, in the itinerary's order.
        var entries: [ItineraryEntry]
        /// Multi-day items that started earlier and still run on this date.
        var continuing: [Continuation]
        /// Deleted items edited while deleted whose start is this date.
        var ghosts: [Ghost]
    }

    /// Days in calendar order: every date with an item, a continuation or a ghost.
    var days: [Day]
    /// Items with no start.
    var unscheduled: [ItineraryEntry]
    /// Deleted items edited while deleted that have no start.
    var unscheduledGhosts: [Ghost]

    /// The most days a continuation is drawn over (a hostile file may span 9,999 years).
    static let maxContinuationDays = 31

    /// Lays out `itinerary` with the deleted items of `conflicts`.
    init(_ itinerary: Itinerary, conflicts: ConflictList, document: TripDocument, zones: ZoneRules) {
        var byDate: [LocalDate: Day] = [:]
        func day(_ date: LocalDate) -> Day { byDate[date] ?? Day(date: date, entries: [], continuing: [], ghosts: []) }
        for itineraryDay in itinerary.days {
            var page = day(itineraryDay.date)
            page.entries = itineraryDay.entries
            byDate[itineraryDay.date] = page
        }
        for itineraryDay in itinerary.days {
            for entry in itineraryDay.entries {
                let count = Self.dayCount(entry)
                guard count > 1, count <= Self.maxContinuationDays else { continue }
                for number in 2...count {
                    guard let date = LocalDate(daysSinceEpoch: itineraryDay.date.daysSinceEpoch + number - 1) else { break }
                    var page = day(date)
                    page.continuing.append(Continuation(entry: entry, dayNumber: number, dayCount: count))
                    byDate[date] = page
                }
            }
        }
        var unscheduledGhosts: [Ghost] = []
        for deleted in conflicts.deletedWhileEdited {
            let start = document.tombstones[deleted.item]?.item.start?.value.map { Itinerary.show($0, zones) }
            let ghost = Ghost(entry: deleted, start: start)
            if let date = start?.time.localDate {
                var page = day(date)
                page.ghosts.append(ghost)
                byDate[date] = page
            } else {
                unscheduledGhosts.append(ghost)
            }
        }
        days = byDate.keys.sorted().compactMap { byDate[$0] }
        unscheduled = itinerary.unscheduled
        self.unscheduledGhosts = unscheduledGhosts
    }

    /// How `entry` is drawn.
    static func kind(_ entry: ItineraryEntry) -> Kind {
        guard case .local(_, let startZone)? = entry.start?.time else { return .allDay }
        if case .local(_, let endZone)? = entry.end?.time, endZone != startZone, entry.durationSeconds.map({ $0 >= 0 }) ?? true {
            return .travel
        }
        return dayCount(entry) > 1 ? .stay : .timed
    }

    /// How many local dates an item covers, from its start's date to its end's (a timed end at
    /// 00:00 ends the day before); 1 without an end, or when the end comes before the start.
    static func dayCount(_ entry: ItineraryEntry) -> Int {
        guard let start = entry.start?.time, let end = entry.end?.time else { return 1 }
        if let duration = entry.durationSeconds, duration < 0 { return 1 }
        var last = end.localDate.daysSinceEpoch
        if case .local(let local, _) = end, local.hour == 0, local.minute == 0, last > start.localDate.daysSinceEpoch { last -= 1 }
        let count = last - start.localDate.daysSinceEpoch + 1
        return max(1, count)
    }
}
