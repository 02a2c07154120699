/// The owner's writes of membership: claiming a trip and granting roles. Each grant is a dot
/// of the writing device, signed by the owner key (docs/DESIGN.md, "Members and roles").
extension TripDocument {
    /// Makes this document's trip owned by `ownerKey`, with this device (signing with
    /// `deviceKey`, encrypting with `box`, named `name` in its grant) its first member, as owner.
    package mutating func claim(
        ownerKey: SigningKey, deviceKey: PublicKey, box: EncryptionPublicKey? = nil, name: String? = nil, hlc: inout HybridLogicalClock,
        now: UInt64
    ) throws(EditError) {
        owner = TripOwner(trip: tripID, ownerKey: ownerKey)
        members = [:]
        try grant(deviceID, key: deviceKey, role: .owner, name: name, box: box, ownerKey: ownerKey, hlc: &hlc, now: now)
    }

    /// Gives `device` (signing with `key`) `role`; a viewer or removed grant records this
    /// document's clock as what the owner had seen of the device. The grant carries `name`
    /// when it is a valid device name, else the name of the device's current grant, else the
    /// name the device wrote for itself (`selfWrittenName`); none when nothing is known. It
    /// carries `box` (the device's encryption key, schema 6) when given, else the encryption key
    /// of the device's current grant when that grant names the same signing key (a key is the
    /// device's own, so a new signing key never inherits an old encryption key).
    package mutating func grant(
        _ device: DeviceID, key: PublicKey, role: MemberRole, name: String? = nil, box: EncryptionPublicKey? = nil, ownerKey: SigningKey,
        hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) {
        guard let owner, owner.key == ownerKey.publicKey else {
            throw EditError(.invalidValue, "this home's owner key is not the trip's owner key, so it cannot change roles")
        }
        let granted = TripDocument.validMemberName(name) ?? members[device]?.name ?? selfWrittenName(of: device)
        let encryption = box ?? members[device].flatMap { $0.key == key ? $0.box : nil }
        let seen = clock
        let rev = try stamp(&hlc, now: now)
        members[device] = MemberGrant(
            device: device, key: key, name: granted, box: encryption, role: role, rev: rev, seen: seen, trip: tripID, ownerKey: ownerKey)
    }

    /// Signs `device`'s grant again with `name` (same key, role and `seen`, a new dot): how the
    /// owner names a grant made before grants carried names. False when the grant already has
    /// that name or `name` is no valid device name.
    @discardableResult
    package mutating func nameGrant(
        _ device: DeviceID, name: String, ownerKey: SigningKey, hlc: inout HybridLogicalClock, now: UInt64
    ) throws(EditError) -> Bool {
        guard let owner, owner.key == ownerKey.publicKey, let current = members[device], current.name != name,
            let name = TripDocument.validMemberName(name)
        else { return false }
        let rev = try stamp(&hlc, now: now)
        members[device] = MemberGrant(
            device: device, key: current.key, name: name, box: current.box, role: current.role, rev: rev, seen: current.seen, trip: tripID,
            ownerKey: ownerKey)
        return true
    }

    /// The name `device` wrote for itself in `devices` (the winning value, written under a dot
    /// of its own, with no visible conflict), when it is a valid device name: what the owner
    /// puts into a grant made without a name (docs/DESIGN.md, "Members and roles").
    package func selfWrittenName(of device: DeviceID) -> String? {
        guard let register = devices[device]?.name, register.rev.device == device, !register.hasVisibleConflict else { return nil }
        return TripDocument.validMemberName(register.value)
    }

    /// `name` when it follows the device-name rule (`TextRule.name`, something visible), else nil.
    static func validMemberName(_ name: String?) -> String? {
        guard let name, TextRule.name.violation(in: name) == nil, !VisibleText.isBlank(name) else { return nil }
        return name
    }

    /// The role of `device`; nil in an open trip or for a device without a grant. A device
    /// that succeeds another (a copied or restored home) has that device's role
    /// (`effectiveGrant`, docs/DESIGN.md "Succession").
    package func role(of device: DeviceID) -> MemberRole? { effectiveGrant(of: device)?.role }

    /// Whether `device` may write content: any device in an open trip, else owners and editors.
    package func mayEdit(_ device: DeviceID) -> Bool {
        owner == nil || (role(of: device)?.mayEdit ?? false)
    }
}
