import TripSyncCore

/// The trip's zone (`trip.zone`, schema 5): a register of the trip like its name, so every
/// replica adds timed items in the same zone (docs/DESIGN.md, "The trip's zone").
extension TripEditor {
    /// The trip's zone; nil when never set (a trip migrated from schema 4) or cleared.
    public var tripZone: String? { document.trip.zone?.value ?? nil }

    /// Sets the trip's zone (nil clears it): one write of the `trip.zone` register, merged like
    /// any field (two laptops setting it at once leave a conflict, kind `trip-zone`). False when
    /// the zone is already `zone` with no conflict. A zone id that is not IANA-shaped is refused
    /// with a `TripError` (`.invalidValue`); a well-formed one this machine does not know is the caller's to warn of.
    @discardableResult
    public mutating func setZone(_ zone: String?) throws(TripError) -> Bool {
        try TripError.typed {
            if let zone, !ZoneID.isWellFormed(zone) { throw EditError(.invalidValue, "zone: " + ZoneID.expectation(found: zone)) }
            if let register = document.trip.zone, register.value == zone, !register.hasVisibleConflict { return false }
            let rev = try document.stamp(&clock, now: now)
            if document.trip.zone == nil {
                document.trip.zone = Register(value: zone, rev: rev)
            } else {
                document.trip.zone?.write(zone, rev: rev)
            }
            wrote = true
            return true
        }
    }
}
