/// One version of a member's role register: which key the device signs with, its role, and
/// the owner key's signature over both (docs/FORMAT.md, "Schema 3"). Only the owner key makes
/// grants; a device's effective grant is the one with the greatest rev. Schema 5 adds the
/// member's display name, covered by the signature (`tripsync-member-v2`); schema 6 the member's
/// X25519 encryption key (`tripsync-member-v3`).
package struct MemberGrant: Hashable, Sendable {
    /// The member device's own public key.
    package var key: PublicKey
    /// The member's display name as the owner granted it (schema 5; same text rule as a device
    /// name); nil in grants made before schema 5, which are signed without it.
    package var name: String?
    /// The member device's X25519 encryption key (schema 6), what the trip's epoch keys are
    /// sealed to; nil in grants made before schema 6 or for a device that published none.
    package var box: EncryptionPublicKey?
    /// Its role.
    package var role: MemberRole
    /// The dot of the owner device that wrote the grant.
    package var rev: Rev
    /// For `viewer` and `removed`: the owner's clock when it wrote the grant (what of the device
    /// it had seen); nil for `owner` and `editor`.
    package var seen: VersionVector?
    /// The owner key's signature over `signedMessage(trip:device:)`.
    package var signature: [UInt8]

    /// A grant as read from a file.
    package init(
        key: PublicKey, name: String? = nil, box: EncryptionPublicKey? = nil, role: MemberRole, rev: Rev, seen: VersionVector?, signature: [UInt8]
    ) {
        self.key = key
        self.name = name
        self.box = box
        self.role = role
        self.rev = rev
        self.seen = seen
        self.signature = signature
    }

    /// A new grant signed by the owner key.
    init(
        device: DeviceID, key: PublicKey, name: String? = nil, box: EncryptionPublicKey? = nil, role: MemberRole, rev: Rev,
        seen: VersionVector?, trip: TripID, ownerKey: SigningKey
    ) {
        self.init(key: key, name: name, box: box, role: role, rev: rev, seen: role.carriesSeen ? (seen ?? VersionVector()) : nil, signature: [])
        signature = ownerKey.sign(signedMessage(trip: trip, device: device))
    }

    /// `tripsync-member-v1\n` and the canonical JSON of (device, key, rev, role, seen, tripId);
    /// with a name, `tripsync-member-v2\n` and the canonical JSON of (device, key, name, rev,
    /// role, seen, tripId); with an encryption key, `tripsync-member-v3\n` and the canonical
    /// JSON of (box, device, key, name, rev, role, seen, tripId), `name` only when it has one.
    func signedMessage(trip: TripID, device: DeviceID) -> [UInt8] {
        var fields: [String: JSONValue] = [
            "device": .string(device.description), "key": .string(key.base64),
            "rev": .array([.int(Int64(rev.counter)), .string(rev.device.description)]), "role": .string(role.rawValue),
            "tripId": .string(trip.description),
        ]
        if let seen {
            fields["seen"] = .object(Dictionary(uniqueKeysWithValues: seen.sortedEntries.map { ($0.device.description, JSONValue.int(Int64($0.counter))) }))
        }
        if let name { fields["name"] = .string(name) }
        if let box {
            fields["box"] = .string(box.base64)
            return Array(("tripsync-member-v3\n" + JSONValue.object(fields).text).utf8)
        }
        if name != nil {
            return Array(("tripsync-member-v2\n" + JSONValue.object(fields).text).utf8)
        }
        return Array(("tripsync-member-v1\n" + JSONValue.object(fields).text).utf8)
    }

    /// Whether the owner key signed this grant for `device` of `trip`.
    func isSigned(by owner: PublicKey, trip: TripID, device: DeviceID) -> Bool {
        owner.verifies(signature, of: signedMessage(trip: trip, device: device))
    }

    /// The grant that wins in a merge: the greater rev; under one rev (never made by one owner
    /// laptop, but a file may say so) the greater signature bytes, so the choice is the same
    /// on every replica.
    static func winner(_ a: MemberGrant, _ b: MemberGrant) -> MemberGrant {
        if a.rev != b.rev { return a.rev > b.rev ? a : b }
        return a.signature.lexicographicallyPrecedes(b.signature) ? b : a
    }
}
