/// Roles through successions as one sync sees them (docs/DESIGN.md, "Succession"): the same
/// rule as `TripDocument.effectiveGrant`, over the grants and successions merged from the
/// replica and every readable file of the trip's owner.
extension Membership {
    /// The grant that decides `device`'s role: its own, else the one a valid succession chain
    /// inherits (`Seat`).
    package func effectiveGrant(of device: DeviceID) -> MemberGrant? {
        guard owner != nil, let trip else { return nil }
        return Seat.grant(of: device, grants: grants, successions: successions, trip: trip)
    }

    /// The successions that hold now (every link signed by the key of the device it hands
    /// over from, the chain ending at an owner-signed grant): what a replica stores.
    var holdingSuccessions: [DeviceID: Succession] {
        guard let trip else { return [:] }
        return Seat.holding(successions, grants: grants, trip: trip)
    }
}
