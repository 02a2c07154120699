/// Parsers for the fixed-width date and time texts of the file format.
package enum LocalTimeParser {
    /// `YYYY-MM-DD` that exists on the calendar.
    static func date(_ text: String) -> LocalDate? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 10 else { return nil }
            return parseDate(bytes, 0)
        }
    }

    /// `YYYY-MM-DDTHH:MM` that exists on the calendar.
    static func dateTime(_ text: String) -> LocalDateTime? {
        var text = text
        return text.withUTF8 { dateTime(utf8: $0) }
    }

    /// `YYYY-MM-DDTHH:MM` that exists on the calendar, from its bytes.
    static func dateTime(utf8 bytes: UnsafeBufferPointer<UInt8>) -> LocalDateTime? {
        guard bytes.count == 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            let date = parseDate(bytes, 0), let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2)
        else { return nil }
        return LocalDateTime(date: date, hour: hour, minute: minute)
    }

    /// `YYYY-MM-DD` that exists on the calendar, from its bytes.
    static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        guard bytes.count == 10 else { return nil }
        return parseDate(bytes, 0)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds).
    package static func timestamp(_ text: String) -> UTCTimestamp? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
                bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
                let date = parseDate(bytes, 0), let hour = digits(bytes, 11, 2), let minute = digits(bytes, 14, 2),
                let second = digits(bytes, 17, 2), hour < 24, minute < 60, second < 60
            else { return nil }
            let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            return UTCTimestamp(secondsSinceEpoch: seconds)
        }
    }

    private static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> LocalDate? {
        guard bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(bytes, start, 4), let month = digits(bytes, start + 5, 2),
            let day = digits(bytes, start + 8, 2)
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let byte = bytes[index]
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}

/// Public parsers for the date and time forms people type.
package enum LocalDateParsing {
    /// `YYYY-MM-DD` that exists on the calendar.
    package static func date(_ text: String) -> LocalDate? { LocalTimeParser.date(text) }
    /// `YYYY-MM-DDTHH:MM` that exists on the calendar.
    package static func dateTime(_ text: String) -> LocalDateTime? { LocalTimeParser.dateTime(text) }
}
