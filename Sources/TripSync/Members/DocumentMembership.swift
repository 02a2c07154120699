/// The owner's writes of membership: claiming a trip and granting roles. Each grant is a dot
/// of the writing device, signed by the owner key (docs/DESIGN.md, "Members and roles").
extension TripDocument {
    /// Makes this document's trip owned by `ownerKey`, with this device (signing with
    /// `deviceKey`) its first member, as owner.
    package mutating func claim(ownerKey: SigningKey, deviceKey: PublicKey, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        owner = TripOwner(trip: tripID, ownerKey: ownerKey)
        members = [:]
        try grant(deviceID, key: deviceKey, role: .owner, ownerKey: ownerKey, hlc: &hlc, now: now)
    }

    /// Gives `device` (signing with `key`) `role`; a viewer or removed grant records this
    /// document's clock as what the owner had seen of the device.
    package mutating func grant(
        _ device: DeviceID, key: PublicKey, role: MemberRole, ownerKey: SigningKey, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) {
        guard let owner, owner.key == ownerKey.publicKey else {
            throw EditError(.invalidValue, "this home's owner key is not the trip's owner key, so it cannot change roles")
        }
        let seen = clock
        let rev = try stamp(&hlc, now: now)
        members[device] = MemberGrant(device: device, key: key, role: role, rev: rev, seen: seen, trip: tripID, ownerKey: ownerKey)
    }

    /// The role of `device`; nil in an open trip or for a device without a grant. A device
    /// that succeeds another (a copied or restored home) has that device's role
    /// (`effectiveGrant`, docs/DESIGN.md "Succession").
    public func role(of device: DeviceID) -> MemberRole? { effectiveGrant(of: device)?.role }

    /// Whether `device` may write content: any device in an open trip, else owners and editors.
    public func mayEdit(_ device: DeviceID) -> Bool {
        owner == nil || (role(of: device)?.mayEdit ?? false)
    }
}
