/// The hybrid logical clock that stamps this replica's writes:
/// `max(now in ms, largest counter seen + 1)`. It never goes backwards, whatever the wall clock
/// does (issue 40): a later write of a device always sorts after its earlier ones, so a value
/// replaced after a clock was set back is never undone by the value it replaced. What keeps one
/// bad clock from poisoning the trip is on the way in: readers refuse an input more than 24
/// hours ahead of their wall clock (`ClockGuard`), so this clock follows nobody's far-future
/// counter; a home whose own counters ran far ahead takes a new device id instead
/// (docs/DESIGN.md, "Clocks you cannot trust").
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

    /// The next counter at wall-clock time `nowMilliseconds`, after every counter issued or seen;
    /// nil only past the largest counter a rev holds (`Rev.maxCounter`, 2^53 ms: a clock set
    /// some 285,000 years ahead).
    package mutating func next(nowMilliseconds: UInt64) -> UInt64? {
        let candidate = max(nowMilliseconds, highWater + 1)
        guard candidate <= Rev.maxCounter else { return nil }
        highWater = candidate
        issued.insert(candidate)
        return candidate
    }
}
