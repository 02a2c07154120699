import Foundation
import TripSyncCore

/// Writes the VTIMEZONE component of one IANA zone from this machine's tz data (through
/// Foundation's `TimeZone`, never the process's own zone).
///
/// The component covers whole calendar years: from January 1 of the year before the first
/// instant that uses the zone to the end of the year after the last one. Every offset change in
/// that span is one STANDARD or DAYLIGHT sub-component (DAYLIGHT when the zone observes daylight
/// saving time after the change) whose DTSTART is the local time of the change read with the
/// offset in force before it. The first sub-component is the last change before the span; when
/// the zone has none in the preceding year (Asia/Kathmandu, UTC) the offset in force at the span's
/// start is written as one sub-component whose TZOFFSETFROM equals its TZOFFSETTO.
struct VTimeZoneBuilder {
    /// One change of the zone's offset (or of its daylight saving flag).
    private struct Transition {
        /// The instant of the change, whole seconds since 1970-01-01T00:00:00Z.
        var instant: Int64
        /// The offset in force before the change, in seconds.
        var offsetBefore: Int
        /// The offset in force from the change on, in seconds.
        var offsetAfter: Int
        /// Whether the zone observes daylight saving time from the change on.
        var isDaylight: Bool
        /// The zone's abbreviation from the change on (such as `GMT+1`), if any.
        var name: String?
    }

    /// No zone changes its offset this often; the cap only guards against a looping tz source.
    private static let maxTransitions = 10_000

    /// The zone id as written in TZID.
    let id: String
    /// The zone's rules.
    let zone: TimeZone

    /// The VTIMEZONE content lines (unfolded, no line breaks) for the instants `first ... last`.
    func lines(from first: Int64, through last: Int64) -> [String] {
        let spanStart = instant(ofJanuaryFirst: max(1, year(at: first) - 1))
        let endYear = year(at: last) + 2
        let spanEnd = endYear > 9999 ? ICalendarValue.maximumSeconds : instant(ofJanuaryFirst: endYear)

        var onset: Transition?
        var changes: [Transition] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(spanStart - 400 * 86_400))
        while changes.count < Self.maxTransitions,
            let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor
        {
            let instant = Int64((next.timeIntervalSince1970).rounded(.down))
            guard instant <= spanEnd else { break }
            cursor = next
            let before = next.addingTimeInterval(-1)
            let change = Transition(
                instant: instant,
                offsetBefore: zone.secondsFromGMT(for: before),
                offsetAfter: zone.secondsFromGMT(for: next),
                isDaylight: zone.isDaylightSavingTime(for: next),
                name: LocalTimeFormat.abbreviation(zone, next, offset: zone.secondsFromGMT(for: next)))
            if change.offsetBefore == change.offsetAfter, change.isDaylight == zone.isDaylightSavingTime(for: before) {
                continue  // only a name changed: nothing a calendar needs
            }
            if instant <= spanStart { onset = change } else { changes.append(change) }
        }
        if onset == nil {
            let start = Date(timeIntervalSince1970: TimeInterval(spanStart))
            let offset = zone.secondsFromGMT(for: start)
            onset = Transition(
                instant: spanStart, offsetBefore: offset, offsetAfter: offset,
                isDaylight: zone.isDaylightSavingTime(for: start), name: LocalTimeFormat.abbreviation(zone, start, offset: offset))
        }

        var lines = ["BEGIN:VTIMEZONE", "TZID:" + id]
        for change in [onset!] + changes {
            let kind = change.isDaylight ? "DAYLIGHT" : "STANDARD"
            lines.append("BEGIN:" + kind)
            lines.append("DTSTART:" + ICalendarValue.dateTime(wallSeconds: change.instant + Int64(change.offsetBefore)))
            lines.append("TZOFFSETFROM:" + ICalendarValue.utcOffset(change.offsetBefore))
            lines.append("TZOFFSETTO:" + ICalendarValue.utcOffset(change.offsetAfter))
            if let name = change.name, !name.isEmpty {
                lines.append("TZNAME:" + ICalendarText.escape(name))
            }
            lines.append("END:" + kind)
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// The offset in force at an instant, in seconds.
    private func offset(at instant: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// The local calendar year at an instant, clamped to 1 … 9999.
    private func year(at instant: Int64) -> Int {
        let wall = instant + Int64(offset(at: instant))
        let clamped = min(max(wall, ICalendarValue.minimumSeconds), ICalendarValue.maximumSeconds)
        return ICalendarValue.localDateTime(wallSeconds: clamped)?.date.year ?? 1
    }

    /// The instant of local midnight starting January 1 of a year (1 … 9999).
    private func instant(ofJanuaryFirst year: Int) -> Int64 {
        let wall = Int64((LocalDate(year: year, month: 1, day: 1) ?? LocalDate.epoch).daysSinceEpoch) * 86_400
        return wall - Int64(offset(at: wall - Int64(offset(at: wall))))
    }
}
