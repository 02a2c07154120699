/// Refuses inputs whose counters run too far ahead of our wall clock (the shared design page, section 2,
/// clocks from the future): one bad clock must not poison every later write of the trip.
package enum ClockGuard {
    /// How far ahead of the wall clock a counter may run: 24 hours, in ms.
    package static let maxSkewMilliseconds: UInt64 = 24 * 3600 * 1000

    /// How far this home's own counters may have run ahead of its wall clock before it takes a
    /// new device id (`ClockReading.ranFarAhead`): 7 days, in ms. Below it the home counts on
    /// from its own counters (they never go backwards) and its files reach the others once
    /// their clocks pass the lead less 24 hours; above it, waiting is no recovery.
    package static let recoveryLeadMilliseconds: UInt64 = 7 * 24 * 3600 * 1000

    /// What this laptop's wall clock `now` says against a trip's counters: right, behind the
    /// other devices' counters (this clock is wrong: it was set back or is slow), or behind
    /// this home's own counters only (it ran ahead and was fixed since). `ours` are this
    /// home's device ids, current and earlier; `highWater` the identity's.
    package static func reading(of document: TripDocument, ours: Set<DeviceID>, highWater: UInt64, now: UInt64) -> ClockReading {
        let bound = now + maxSkewMilliseconds
        var own = highWater
        var others: UInt64 = 0
        var other: DeviceID?
        for (device, counter) in document.clock.entries {
            if ours.contains(device) {
                own = max(own, counter)
            } else if counter > others {
                others = counter
                other = device
            }
        }
        if others > bound, let other { return .behind(device: other, milliseconds: others - now) }
        guard own > bound else { return .right }
        return own - now > recoveryLeadMilliseconds ? .ranFarAhead(milliseconds: own - now) : .ranAhead(milliseconds: own - now)
    }

    /// A lead or lag in words: hours below two days, days from there.
    package static func span(_ milliseconds: UInt64) -> String {
        let hours = Double(milliseconds) / 3_600_000
        if hours < 48 { return "\(Int(hours.rounded())) hours" }
        let days = hours / 24
        return days < 730 ? "\(Int(days.rounded())) days" : "\(Int((days / 365.25).rounded())) years"
    }

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

    /// A message naming the device (by `name` when known) and its lead over this laptop's
    /// clock, with what to fix.
    package static func describe(device: DeviceID, skewMilliseconds: UInt64, name: String? = nil) -> String {
        let who = name.map { "\($0) (device \(device.description.prefix(8)))" } ?? "device \(device)"
        return
            "\(who) writes with a clock \(span(skewMilliseconds)) ahead of this laptop's (more than the 24 hours allowed); not taken, so one bad clock cannot poison the trip. If this laptop's date and time are right, \(name ?? "that device") must set its clock right; it is taken once this laptop's clock passes its counters less 24 hours"
    }
}

/// What a laptop's wall clock says against a trip's counters (`ClockGuard.reading`).
package enum ClockReading: Equatable, Sendable {
    /// Nothing runs more than 24 hours ahead of the wall clock.
    case right
    /// Another device's counters run this far ahead: this laptop's clock is behind (set back,
    /// or slow). Its counters go on from the trip's, and it is told to set its clock right.
    case behind(device: DeviceID, milliseconds: UInt64)
    /// This home's own counters run this far ahead (at most `recoveryLeadMilliseconds`): its
    /// clock ran ahead and was fixed. Its counters go on from its own, never backwards.
    case ranAhead(milliseconds: UInt64)
    /// As `ranAhead`, by more than `recoveryLeadMilliseconds`: the home takes a new device id
    /// and re-stamps what it typed at the right time (`ClockRecovery`).
    case ranFarAhead(milliseconds: UInt64)
}
