import TripSyncCore

/// How a stay is counted: in nights, the dates it spans (checking in on June 7 and out on
/// June 10 is 3 nights, never "4 days" or "68 h"). Used by the calendar, the page and `show`.
package enum StayNights {
    /// The nights an item with this start and end spans: the days from the start's local date
    /// to the end's (a timed end at 00:00 closes the day before); nil when it does not reach a
    /// later date, or when start and end are timed in different zones (a flight is a duration).
    package static func count(start: TripTime, end: TripTime) -> Int? {
        if case .local(_, let startZone) = start, case .local(_, let endZone) = end, startZone != endZone { return nil }
        var last = end.localDate.daysSinceEpoch
        if case .local(let local, _) = end, local.hour == 0, local.minute == 0 { last -= 1 }
        let nights = last - start.localDate.daysSinceEpoch
        return nights > 0 ? nights : nil
    }

    /// `1 night`, `3 nights`.
    package static func text(_ nights: Int) -> String {
        nights == 1 ? "1 night" : "\(nights) nights"
    }
}
