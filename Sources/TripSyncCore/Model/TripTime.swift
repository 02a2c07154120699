/// A calendar date (proleptic Gregorian), year 1–9999.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, 1 … 9999.
    public var year: Int
    /// The month, 1 … 12.
    public var month: Int
    /// The day of the month, 1 … 28–31.
    public var day: Int

    /// 1970-01-01.
    package static let epoch = LocalDate(checkedYear: 1970, month: 1, day: 1)

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Creates a date when it exists on the calendar; nil for 2027-02-30 and the like.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= LocalDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The number of days in a month of a year.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before).
    package var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date `days` after 1970-01-01; nil outside years 1–9999.
    package init?(daysSinceEpoch days: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }

    /// The ISO weekday, 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let d = daysSinceEpoch
        return ((d % 7 + 7) % 7 + 3) % 7 + 1  // 1970-01-01 was a Thursday
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// Orders by calendar.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A wall-clock date and time with minute precision and no zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The calendar date.
    public var date: LocalDate
    /// The hour, 0 … 23.
    public var hour: Int
    /// The minute, 0 … 59.
    public var minute: Int

    /// Creates a local date-time; nil when the hour or minute does not exist.
    public init?(date: LocalDate, hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
    }

    /// Seconds since 1970-01-01T00:00 as if this wall time were UTC.
    package var secondsSinceEpochAsUTC: Int64 {
        Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60)
    }

    /// `YYYY-MM-DDTHH:MM`.
    public var description: String {
        date.description + "T" + pad(hour, 2) + ":" + pad(minute, 2)
    }

    /// Orders by wall clock.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.hour, lhs.minute) < (rhs.date, rhs.hour, rhs.minute)
    }
}

/// When an item happens: a wall-clock time in an IANA zone, or a whole day.
///
/// The instant is derived from the zone's rules when needed, never stored, and never a fixed
/// offset, so a plan keeps the clock of its place even when tz rules change.
public enum TripTime: Hashable, Sendable {
    /// A local date-time in an IANA zone such as `Europe/Lisbon`.
    case local(LocalDateTime, zone: String)
    /// A day with no time.
    case date(LocalDate)

    /// The local calendar date the item belongs to.
    public var localDate: LocalDate {
        switch self {
        case .local(let dateTime, _): return dateTime.date
        case .date(let date): return date
        }
    }

    /// The zone id, for a timed value.
    public var zone: String? {
        if case .local(_, let zone) = self { return zone }
        return nil
    }
}

/// Zero-pads a non-negative number to `width` digits.
package func pad(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
