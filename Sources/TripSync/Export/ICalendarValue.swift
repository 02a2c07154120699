import TripSyncCore

/// RFC 5545 value forms (DATE, DATE-TIME, UTC-OFFSET) written by plain arithmetic, so nothing
/// depends on the process's time zone, locale or calendar.
enum ICalendarValue {
    /// The first and last instants a DATE-TIME can show with a four-digit year
    /// (0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z).
    static let minimumSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    static let maximumSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

    /// `YYYYMMDD`.
    static func date(_ date: LocalDate) -> String {
        pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2)
    }

    /// `YYYYMMDDTHHMMSS` (a local time, seconds always zero).
    static func dateTime(_ local: LocalDateTime) -> String {
        date(local.date) + "T" + pad(local.hour, 2) + pad(local.minute, 2) + "00"
    }

    /// `YYYYMMDDTHHMMSS` for a wall-clock reading given as seconds since 1970-01-01T00:00
    /// (clamped to years 0001–9999).
    static func dateTime(wallSeconds: Int64) -> String {
        let clamped = min(max(wallSeconds, minimumSeconds), maximumSeconds)
        let days = floorDivide(clamped, 86_400)
        let secondOfDay = Int(clamped - days * 86_400)
        // Clamped to years 0001–9999, so the date always exists; the fallback is never taken.
        let day = LocalDate(daysSinceEpoch: Int(days)) ?? LocalDate.epoch
        return date(day) + "T" + pad(secondOfDay / 3600, 2) + pad(secondOfDay / 60 % 60, 2) + pad(secondOfDay % 60, 2)
    }

    /// `YYYYMMDDTHHMMSSZ` for an instant (clamped to years 0001–9999).
    static func utc(secondsSinceEpoch: Int64) -> String {
        dateTime(wallSeconds: secondsSinceEpoch) + "Z"
    }

    /// `+HHMM` or `-HHMM`, with seconds (`+HHMMSS`) only when they are not zero; zero is `+0000`
    /// (RFC 5545 forbids `-0000`).
    static func utcOffset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        var text = sign + pad(magnitude / 3600, 2) + pad(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += pad(magnitude % 60, 2) }
        return text
    }

    /// The local date-time of a wall-clock reading in seconds since 1970-01-01T00:00, to the
    /// minute; nil outside years 0001–9999.
    static func localDateTime(wallSeconds: Int64) -> LocalDateTime? {
        let days = floorDivide(wallSeconds, 86_400)
        let secondOfDay = Int(wallSeconds - days * 86_400)
        guard let day = LocalDate(daysSinceEpoch: Int(days)) else { return nil }
        return LocalDateTime(date: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60)
    }

    /// Division rounding toward negative infinity.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
