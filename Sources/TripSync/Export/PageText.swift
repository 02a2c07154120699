import TripSyncCore

/// Dates, counts and stamps as the itinerary page writes them (English, the Gregorian
/// calendar, never the machine's locale or zone).
enum PageText {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `Jun`.
    static func monthShort(_ date: LocalDate) -> String { String(months[date.month - 1].prefix(3)) }

    /// `Thu`.
    static func weekdayShort(_ date: LocalDate) -> String { String(LocalTimeFormat.weekday(date).prefix(3)) }

    /// `10 June 2027`.
    static func longDate(_ date: LocalDate) -> String { "\(date.day) \(months[date.month - 1]) \(date.year)" }

    /// `Thu 10 Jun`, with ` 2027` when asked.
    static func shortDate(_ date: LocalDate, withYear: Bool = false) -> String {
        weekdayShort(date) + " \(date.day) " + monthShort(date) + (withYear ? " \(date.year)" : "")
    }

    /// `<time datetime="2027-06-10">TEXT</time>`.
    static func dateTag(_ date: LocalDate, _ text: String) -> HTML {
        "<time datetime=\"\(date)\">\(text)</time>"
    }

    /// `1 day`, `3 days`.
    static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }

    /// When the page was made: `<time datetime="2026-12-03T14:05:09Z">2026-12-03 14:05 UTC</time>`.
    static func madeTag(_ stamp: UTCTimestamp) -> HTML {
        let text = stamp.description  // YYYY-MM-DDTHH:MM:SSZ
        let shown = text.count >= 16 ? String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC" : text
        return "<time datetime=\"\(text)\">\(shown)</time>"
    }

    /// `+1`, `−2` for a time that falls on another date than the day it is listed under; "" on the same date.
    static func dayShift(from day: LocalDate?, to date: LocalDate) -> HTML {
        guard let day else { return "" }
        let shift = date.daysSinceEpoch - day.daysSinceEpoch
        if shift == 0 { return "" }
        let title = LocalTimeFormat.weekday(date) + " " + longDate(date)
        return "<sup class=\"shift\" title=\"\(title)\">\(shift > 0 ? "+\(shift)" : "\u{2212}\(-shift)")</sup>"
    }
}
