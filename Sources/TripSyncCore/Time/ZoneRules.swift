import Foundation

/// How a local time maps onto the zone's clock.
package enum LocalTimeResolution: Hashable, Sendable {
    /// The local time exists exactly once.
    case exact
    /// The local time falls in a DST gap; it was moved forward by the gap (seconds).
    case gap(shiftedBySeconds: Int)
    /// The local time happens twice (DST overlap); the earlier offset (first occurrence) was used.
    case overlap
}

/// An instant derived from a local time in a zone.
package struct ResolvedInstant: Hashable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var secondsSinceEpoch: Int64
    /// The UTC offset in force at that instant, in seconds.
    package var offsetSeconds: Int
    /// Whether the local time was exact, in a gap or in an overlap.
    package var resolution: LocalTimeResolution
}

/// IANA zone rules from this machine's time zone database, with a cache. Nothing here depends
/// on the process's `TZ` or the machine's own zone.
package struct ZoneRules: Sendable {
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var zones: [String: TimeZone?] = [:]
        /// Per zone and day (days since 1970): whether the offset is one value around that day.
        var steadyDays: [String: [Int: Bool]] = [:]
    }

    private let cache = Cache()

    /// Creates zone rules backed by the system database.
    package init() {}

    /// The zone for an id, or nil when this machine does not know it.
    package func timeZone(_ id: String) -> TimeZone? {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let cached = cache.zones[id] { return cached }
        // Foundation also accepts offsets such as "GMT+1"; only ids of IANA shape are looked up.
        let zone = ZoneID.isWellFormed(id) ? TimeZone(identifier: id) : nil
        cache.zones[id] = zone
        return zone
    }

    /// Whether this machine knows the zone.
    package func isKnown(_ id: String) -> Bool { timeZone(id) != nil }

    /// The instant of a local time in a zone: a gap time moves forward by the gap, an overlap
    /// time takes the earlier offset. Nil when the zone is unknown here.
    package func resolve(_ local: LocalDateTime, zone id: String) -> ResolvedInstant? {
        guard let zone = timeZone(id) else { return nil }
        let wall = local.secondsSinceEpochAsUTC
        func offset(at instant: Int64) -> Int {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
        }
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        let first = wall - Int64(before)
        let second = wall - Int64(after)
        let firstValid = offset(at: first) == before
        let secondValid = offset(at: second) == after
        if before == after {
            if firstValid { return ResolvedInstant(secondsSinceEpoch: first, offsetSeconds: before, resolution: .exact) }
            // A transition and its reversal within two days: fall back to the offset at the wall time.
            let middle = offset(at: wall)
            return ResolvedInstant(secondsSinceEpoch: wall - Int64(middle), offsetSeconds: middle, resolution: .exact)
        }
        switch (firstValid, secondValid) {
        case (true, true):
            // Both readings exist: the wall time happens twice. Take the earlier instant.
            let earlier = min(first, second)
            return ResolvedInstant(
                secondsSinceEpoch: earlier, offsetSeconds: earlier == first ? before : after, resolution: .overlap)
        case (true, false):
            return ResolvedInstant(secondsSinceEpoch: first, offsetSeconds: before, resolution: .exact)
        case (false, true):
            return ResolvedInstant(secondsSinceEpoch: second, offsetSeconds: after, resolution: .exact)
        case (false, false):
            // In the gap: read the wall time with the offset before the gap, which lands after it.
            return ResolvedInstant(
                secondsSinceEpoch: first, offsetSeconds: offset(at: first), resolution: .gap(shiftedBySeconds: after - before))
        }
    }

    /// Whether the zone's UTC offset is one value from three days before `date` to four days
    /// after it (no transition of any kind: DST or a change of standard offset), so two local
    /// times on that date resolve with that one offset. False when the zone is unknown.
    func isSteady(around date: LocalDate, zone id: String) -> Bool {
        let day = date.daysSinceEpoch
        cache.lock.lock()
        let cached = cache.steadyDays[id]?[day]
        cache.lock.unlock()
        if let cached { return cached }
        guard let zone = timeZone(id) else { return false }
        let start = Date(timeIntervalSince1970: TimeInterval(Int64(day - 3) * 86_400))
        let end = Date(timeIntervalSince1970: TimeInterval(Int64(day + 4) * 86_400))
        let steady = zone.nextDaylightSavingTimeTransition(after: start).map { $0 > end } ?? true
        cache.lock.lock()
        if cache.steadyDays[id]?.count ?? 0 < 10_000 { cache.steadyDays[id, default: [:]][day] = steady }
        cache.lock.unlock()
        return steady
    }

    /// Whether `a` happens before `b`: by instant when both are timed in known zones, otherwise
    /// by local date (and local time when both are timed).
    package func isBefore(_ a: TripTime, _ b: TripTime) -> Bool {
        switch (a, b) {
        case (.local(let la, let za), .local(let lb, let zb)):
            if za == zb, la.date == lb.date || abs(la.date.daysSinceEpoch - lb.date.daysSinceEpoch) > 2 {
                // Same zone: the wall clock orders them except inside a gap or overlap hour.
                if la.date != lb.date { return la < lb }
                // The same date with no transition near it: both resolve with one offset.
                if isSteady(around: la.date, zone: za) { return la < lb }
            }
            if let ia = resolve(la, zone: za), let ib = resolve(lb, zone: zb) {
                return ia.secondsSinceEpoch < ib.secondsSinceEpoch
            }
            return la < lb
        default:
            return a.localDate < b.localDate
        }
    }
}
