/// The hybrid logical clock that stamps this replica's writes:
/// `max(now in ms, largest counter seen + 1)`, never past `now + maxSkew`.
package struct HybridLogicalClock: Hashable, Sendable {
    /// How far ahead of the wall clock a counter may run (24 hours, in ms).
    package static let maxSkewMilliseconds = ClockGuard.maxSkewMilliseconds

    /// The largest counter this replica has issued or seen.
    package private(set) var highWater: UInt64
    /// The counters this clock has issued (saved into the identity: `DeviceIdentity.issued`).
    package private(set) var issued = IssuedCounters()

    /// Creates a clock that has seen `highWater`.
    package init(highWater: UInt64 = 0) {
        self.highWater = highWater
    }

    /// Notes counters seen in a document (its clock), so later writes sort after them.
    package mutating func observe(_ counter: UInt64) {
        highWater = max(highWater, counter)
    }

    /// Records a counter issued outside `next` (a re-key moving a write to the new id with its
    /// counter); it must not be above the high-water mark.
    package mutating func recordIssued(_ counter: UInt64) {
        highWater = max(highWater, counter)
        issued.insert(counter)
    }

    /// The next counter at wall-clock time `nowMilliseconds`; nil when issuing one would run
    /// more than 24 hours ahead of the wall clock (a poisoned clock is refused, not followed).
    package mutating func next(nowMilliseconds: UInt64) -> UInt64? {
        let candidate = max(nowMilliseconds, highWater + 1)
        guard candidate <= nowMilliseconds + HybridLogicalClock.maxSkewMilliseconds, candidate <= Rev.maxCounter else { return nil }
        highWater = candidate
        issued.insert(candidate)
        return candidate
    }
}
