/// An instant with whole-second precision, written as `YYYY-MM-DDTHH:MM:SSZ`.
public struct UTCTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSinceEpoch: Int64

    /// Creates a timestamp.
    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// The whole second of a time in milliseconds since 1970 (a wall clock reading, a counter).
    public init(millisecondsSinceEpoch milliseconds: UInt64) {
        self.init(secondsSinceEpoch: Int64(milliseconds / 1000))
    }

    /// The RFC 3339 UTC text `YYYY-MM-DDTHH:MM:SSZ`.
    public var description: String {
        let days = Int(secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : (secondsSinceEpoch - 86_399) / 86_400)
        let rest = Int(secondsSinceEpoch - Int64(days) * 86_400)
        let date = LocalDate(daysSinceEpoch: days)?.description ?? "0001-01-01"
        return date + "T" + pad(rest / 3600, 2) + ":" + pad(rest / 60 % 60, 2) + ":" + pad(rest % 60, 2) + "Z"
    }

    /// Orders by instant.
    public static func < (lhs: UTCTimestamp, rhs: UTCTimestamp) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }
}

/// The value of a tombstone's `deleted` register: when the delete happened and what the
/// deleting replica had seen.
package struct Deletion: Hashable, Sendable {
    /// Wall-clock time of the delete, for retention and display only (never for ordering).
    package var at: UTCTimestamp
    /// The deleting replica's clock: the writes this delete knew about.
    package var seen: VersionVector

    /// Creates a deletion value.
    package init(at: UTCTimestamp, seen: VersionVector) {
        self.at = at
        self.seen = seen
    }
}
