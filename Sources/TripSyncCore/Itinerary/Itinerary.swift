import Foundation

/// A time as a person reads it: the stored local time, its zone, and what the zone's rules make of it.
package struct ShownTime: Hashable, Sendable {
    /// The stored value.
    package var time: TripTime
    /// The instant, when the zone is known here (timed values only).
    package var instant: ResolvedInstant?
    /// The zone's abbreviation or offset at that instant ("WEST", "EDT", "GMT+5:45").
    package var abbreviation: String?
    /// Whether the zone is unknown to this machine (shown as stored local time plus the id).
    package var zoneUnknown: Bool

    /// A note for gap and overlap times, nil otherwise.
    package var note: String? {
        guard let instant else { return nil }
        switch instant.resolution {
        case .exact: return nil
        case .gap(let shift):
            return "\(LocalTimeFormat.hhmm(time)) does not exist that day (the clocks go forward); moved forward \(LocalTimeFormat.duration(seconds: Int64(shift)))"
        case .overlap:
            return "\(LocalTimeFormat.hhmm(time)) happens twice that day (the clocks go back); the first is used"
        }
    }
}

/// One item as the itinerary shows it.
package struct ItineraryEntry: Hashable, Sendable {
    /// The item's id.
    package var id: ItemID
    /// The item's fields.
    package var fields: ItemFields
    /// Its start, resolved.
    package var start: ShownTime?
    /// Its end, resolved.
    package var end: ShownTime?
    /// Seconds from start to end by instants, when both are timed in known zones.
    package var durationSeconds: Int64?
    /// Fields with a conflict a person should see.
    package var conflictedFields: [ItemField]
}

/// One day of the itinerary.
package struct ItineraryDay: Hashable, Sendable {
    /// The local date the items belong to (each item's own local date).
    package var date: LocalDate
    /// Items in order: whole-day items by sortKey, then timed items by instant, sortKey, id.
    package var entries: [ItineraryEntry]
}

/// The itinerary of a trip: grouped by each item's own local date and shown in its own zone.
package struct Itinerary: Sendable {
    /// Days in calendar order.
    package var days: [ItineraryDay]
    /// Items with no start, by sortKey then id.
    package var unscheduled: [ItineraryEntry]

    /// Builds the itinerary of `document`'s live items, times resolved with this machine's
    /// time zone database.
    package init(_ document: TripDocument) {
        self.init(document, zones: ZoneRules())
    }

    /// Builds the itinerary of `document`'s live items, times resolved with `zones`.
    package init(_ document: TripDocument, zones: ZoneRules) {
        var byDate: [LocalDate: [ItineraryEntry]] = [:]
        var unscheduled: [ItineraryEntry] = []
        for (id, fields) in document.items {
            let start = fields.start?.value.map { Itinerary.show($0, zones) }
            let end = fields.end?.value.map { Itinerary.show($0, zones) }
            var duration: Int64?
            if let a = start?.instant, let b = end?.instant { duration = b.secondsSinceEpoch - a.secondsSinceEpoch }
            var conflicted: [ItemField] = []
            if fields.title?.hasVisibleConflict == true { conflicted.append(.title) }
            if fields.start?.hasVisibleConflict == true { conflicted.append(.start) }
            if fields.end?.hasVisibleConflict == true { conflicted.append(.end) }
            if fields.place?.hasVisibleConflict == true { conflicted.append(.place) }
            if fields.note?.hasVisibleConflict == true { conflicted.append(.note) }
            if fields.sortKey?.hasVisibleConflict == true { conflicted.append(.sortKey) }
            let entry = ItineraryEntry(id: id, fields: fields, start: start, end: end, durationSeconds: duration, conflictedFields: conflicted)
            if let date = start?.time.localDate { byDate[date, default: []].append(entry) } else { unscheduled.append(entry) }
        }
        days = byDate.keys.sorted().map { date in
            ItineraryDay(date: date, entries: byDate[date, default: []].sorted(by: Itinerary.order))
        }
        self.unscheduled = unscheduled.sorted(by: Itinerary.order)
    }

    /// The date of the itinerary's first day (`days.first?.date`) without building the
    /// itinerary: the least local date a live item starts on, each in its own zone, so no zone
    /// is looked up and nothing is sorted. Nil when no item has a start.
    package static func firstDate(of document: TripDocument) -> LocalDate? {
        var first: LocalDate?
        for fields in document.items.values {
            guard let date = fields.start?.value?.localDate else { continue }
            if let current = first, !(date < current) { continue }
            first = date
        }
        return first
    }

    /// A stored time as a person reads it: its instant, its zone's abbreviation then, its DST note.
    package static func shownTime(_ time: TripTime, _ zones: ZoneRules = ZoneRules()) -> ShownTime {
        show(time, zones)
    }

    package static func show(_ time: TripTime, _ zones: ZoneRules) -> ShownTime {
        switch time {
        case .date:
            return ShownTime(time: time, instant: nil, abbreviation: nil, zoneUnknown: false)
        case .local(let local, let zone):
            guard let instant = zones.resolve(local, zone: zone), let timeZone = zones.timeZone(zone) else {
                return ShownTime(time: time, instant: nil, abbreviation: nil, zoneUnknown: true)
            }
            let date = Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch))
            return ShownTime(time: time, instant: instant, abbreviation: LocalTimeFormat.abbreviation(timeZone, date, offset: instant.offsetSeconds, id: zone), zoneUnknown: false)
        }
    }

    /// Whole-day items first by sortKey; then timed items by instant (local time when the zone is
    /// unknown), sortKey, id.
    static func order(_ a: ItineraryEntry, _ b: ItineraryEntry) -> Bool {
        func rank(_ entry: ItineraryEntry) -> Int {
            if case .local? = entry.start?.time { return 1 }
            return 0
        }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        let instantA = a.start.map(sortInstant)
        let instantB = b.start.map(sortInstant)
        if instantA != instantB, let x = instantA, let y = instantB { return x < y }
        let keyA = a.fields.sortKey?.value ?? ""
        let keyB = b.fields.sortKey?.value ?? ""
        if keyA != keyB { return keyA.utf8.lexicographicallyPrecedes(keyB.utf8) }
        return a.id < b.id
    }

    package static func sortInstant(_ shown: ShownTime) -> Int64 {
        if let instant = shown.instant { return instant.secondsSinceEpoch }
        if case .local(let local, _) = shown.time { return local.secondsSinceEpochAsUTC }
        return Int64(shown.time.localDate.daysSinceEpoch) * 86_400
    }
}

/// Text forms for times and durations.
package enum LocalTimeFormat {
    /// `HH:MM` of a timed value, or "all day".
    package static func hhmm(_ time: TripTime) -> String {
        if case .local(let local, _) = time { return pad(local.hour, 2) + ":" + pad(local.minute, 2) }
        return "all day"
    }

    /// Ids that name UTC itself: labelled "UTC" (Foundation calls UTC "GMT", and the tz files of
    /// these ids say "UTC", "UCT" or "Zulu").
    package static let utcIDs: Set<String> = ["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu"]

    /// The zone's abbreviation at an instant ("WEST", from the zone's own file, else Foundation's
    /// when it is not just an offset), or `UTC±H[:MM]` when the zone has only a numeric one;
    /// "UTC" when `id`, the zone as the trip names it, is one of `utcIDs`.
    package static func abbreviation(_ zone: TimeZone, _ date: Date, offset: Int, id: String? = nil) -> String {
        if let id, utcIDs.contains(id) { return "UTC" }
        // The zone's own file first: Foundation says "GMT+1" on Linux, and "GMT" for Lisbon's "WET".
        let instant = Int64(date.timeIntervalSince1970.rounded(.down))
        if let name = TZifAbbreviations.cached(zone: zone.identifier)?.abbreviation(
            atSecondsSinceEpoch: instant, utcOffset: offset, isDaylight: zone.isDaylightSavingTime(for: date))
        {
            return name
        }
        if let name = zone.abbreviation(for: date), !name.hasPrefix("GMT"), name.rangeOfCharacter(from: .decimalDigits) == nil {
            return name
        }
        return utcOffset(offset)
    }

    /// `UTC+5:45`, `UTC-4`, `UTC`.
    package static func utcOffset(_ seconds: Int) -> String {
        if seconds == 0 { return "UTC" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return "UTC" + sign + String(minutes / 60) + (minutes % 60 == 0 ? "" : ":" + pad(minutes % 60, 2))
    }

    /// `8 h`, `1 h 30 min`, `45 min`.
    package static func duration(seconds: Int64) -> String {
        let negative = seconds < 0
        let minutes = abs(seconds) / 60
        var parts: [String] = []
        if minutes / 60 > 0 { parts.append("\(minutes / 60) h") }
        if minutes % 60 > 0 || parts.isEmpty { parts.append("\(minutes % 60) min") }
        return (negative ? "-" : "") + parts.joined(separator: " ")
    }

    /// The weekday name of a date.
    package static func weekday(_ date: LocalDate) -> String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][date.isoWeekday - 1]
    }

    /// The local date-time of an instant in a zone (for `show --in`).
    package static func local(_ seconds: Int64, in zone: TimeZone) -> (LocalDateTime, Int)? {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let wall = seconds + Int64(offset)
        let days = Int(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
        let rest = Int(wall - Int64(days) * 86_400)
        guard let date = LocalDate(daysSinceEpoch: days), let local = LocalDateTime(date: date, hour: rest / 3600, minute: rest / 60 % 60) else {
            return nil
        }
        return (local, offset)
    }
}
