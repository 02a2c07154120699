/// Parsers for the fixed-width date and time texts of the file format.
enum LocalTimeParser {
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
    static func timestamp(_ text: String) -> UTCTimestamp? {
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

/// Rules for IANA time zone ids.
public enum ZoneID {
    /// Whether `id` has the shape of an IANA zone id (`Area/Location`, letters, digits, `_+-`),
    /// at most 64 characters; fixed offsets such as `+01:00` are refused.
    public static func isWellFormed(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { isWellFormed(utf8: $0) }
    }

    /// What a refused zone id is told, with the id found (its first 70 characters): the one
    /// wording of the reader, the schema 1 reader and the editing API.
    public static func expectation(found id: some StringProtocol) -> String {
        "expected an IANA time zone id such as Europe/Lisbon (never a fixed offset), found \"\(id.prefix(70))\""
    }

    /// `isWellFormed` on the UTF-8 bytes of an id.
    static func isWellFormed(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        var segmentStart = true
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                segmentStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                if index == 0 { return false }
                segmentStart = false
            case UInt8(ascii: "/"):
                if segmentStart { return false }
                segmentStart = true
            default:
                return false
            }
        }
        return !segmentStart
    }
}

/// Rules for fractional order keys over the 62 digits `0-9A-Za-z`.
public enum SortKeyRules {
    /// The longest key a document may hold.
    public static let maxLength = 128

    /// The rule in words, for messages about a refused key.
    public static let requirement = "1 to 128 characters from 0-9A-Za-z not ending in '0'"

    /// Whether `key` is 1–128 digits of `0-9A-Za-z` and does not end in `0`.
    public static func isValid(_ key: String) -> Bool {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength, bytes.last != UInt8(ascii: "0") else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
        }
    }
}

/// Public parsers for the date and time forms people type.
public enum LocalDateParsing {
    /// `YYYY-MM-DD` that exists on the calendar.
    public static func date(_ text: String) -> LocalDate? { LocalTimeParser.date(text) }
    /// `YYYY-MM-DDTHH:MM` that exists on the calendar.
    public static func dateTime(_ text: String) -> LocalDateTime? { LocalTimeParser.dateTime(text) }
}
