/// Roles through successions as one sync sees them (docs/DESIGN.md, "Succession"): the same
/// rule as `TripDocument.effectiveGrant`, over the grants and successions merged from the
/// replica and every readable file of the trip's owner.
extension Membership {
    /// The grant that decides `device`'s role: its own, else the one a valid succession chain
    /// inherits (`Seat`).
    package func effectiveGrant(of device: DeviceID) -> MemberGrant? {
        guard owner != nil else { return nil }
        return grants[device] ?? seats[device]?.grant
    }

    /// The successions that hold now, one per new id (every link signed by the key of the
    /// device it hands over from, the chain ending at an owner-signed grant, the valid one
    /// chosen where several compete): what a replica stores.
    var holdingSuccessions: [DeviceID: Succession] { seats.mapValues(\.succession) }

    /// Every succession counted this sync (the replica's and those of the files that may carry
    /// them), one entry per succession: what a sync's skip decisions depended on.
    package var candidateSuccessions: [(DeviceID, Succession)] {
        successions.flatMap { device, list in list.map { (device, $0) } }
    }
}
