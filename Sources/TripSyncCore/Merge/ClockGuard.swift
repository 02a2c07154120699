/// Refuses inputs whose counters run too far ahead of our wall clock (the shared design page, section 2,
/// clocks from the future): one bad clock must not poison every later write of the trip.
package enum ClockGuard {
    /// How far ahead of the wall clock a counter may run: 24 hours, in ms (the hybrid logical
    /// clock stops issuing at the same bound).
    package static let maxSkewMilliseconds: UInt64 = 24 * 3600 * 1000

    /// The largest lead of an input's counters over `nowMilliseconds`, with the device; nil when
    /// nothing runs more than 24 hours ahead. Validation guarantees revs, `seen` and `acks` are at
    /// or below `clock`, so the clock is what needs checking.
    package static func futureDevice(in document: TripDocument, nowMilliseconds: UInt64) -> (device: DeviceID, skewMilliseconds: UInt64)? {
        let bound = nowMilliseconds + maxSkewMilliseconds
        var worst: (device: DeviceID, skewMilliseconds: UInt64)?
        for (device, counter) in document.clock.entries where counter > bound {
            let skew = counter - nowMilliseconds
            if worst == nil || skew > worst?.skewMilliseconds ?? 0 { worst = (device, skew) }
        }
        return worst
    }

    /// A message naming the device and its skew, in hours.
    package static func describe(device: DeviceID, skewMilliseconds: UInt64) -> String {
        let hours = Double(skewMilliseconds) / 3_600_000
        let rounded = (hours * 10).rounded() / 10
        return "device \(device) writes with a clock \(rounded) hours ahead of ours (more than the 24 hours allowed); refused so one bad clock cannot poison the trip. Fix that device's clock, or this one's"
    }
}
