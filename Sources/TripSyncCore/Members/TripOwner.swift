import TripSyncPlatform

/// Who owns a trip: the owner public key and its claim (its signature over the trip id and
/// itself). An open trip (migrated from schema 2, never claimed) has none.
package struct TripOwner: Hashable, Sendable {
    /// The owner public key: it signs every grant.
    package var key: PublicKey
    /// The owner key's signature over `claimMessage`.
    package var claim: [UInt8]

    /// An owner as read from a file.
    package init(key: PublicKey, claim: [UInt8]) {
        self.key = key
        self.claim = claim
    }

    /// The owner of `trip`, claimed by `ownerKey`.
    init(trip: TripID, ownerKey: SigningKey) {
        key = ownerKey.publicKey
        claim = ownerKey.sign(TripOwner.claimMessage(trip: trip, key: ownerKey.publicKey))
    }

    /// `tripsync-owner-v1\n<tripId>\n<key>`.
    static func claimMessage(trip: TripID, key: PublicKey) -> [UInt8] {
        Array("tripsync-owner-v1\n\(trip)\n\(key.base64)".utf8)
    }

    /// Whether the claim verifies for `trip`.
    func isValid(for trip: TripID) -> Bool {
        key.verifies(claim, of: TripOwner.claimMessage(trip: trip, key: key))
    }

    /// The id of a trip made by `new` with this owner key: SHA-256 of the key's bytes as a
    /// UUID version 8 (so no file can swap the owner of such a trip).
    package static func derivedTripID(for key: PublicKey) -> TripID {
        var bytes = SHA256.digest(key.bytes)
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return Identifier(bytes: Array(bytes.prefix(16)))
    }

    /// Whether `trip` is of the kind `new` derives from an owner key (UUID version 8, RFC
    /// variant): such an id names its owner, and a file naming another owner (or none) for it
    /// is not this trip's (docs/DESIGN.md, "Every entrance checks the same way").
    package static func isDerivedKind(_ trip: TripID) -> Bool {
        (trip.high >> 12) & 0xF == 8 && trip.low >> 62 == 2
    }

    /// Whether `trip`'s id is the one derived from this key (a trip made by `new`, not one
    /// claimed later).
    package func derives(_ trip: TripID) -> Bool { TripOwner.derivedTripID(for: key) == trip }

    /// The owner of two replicas' views: the same key on both is the common case; two
    /// different claims (made on two laptops at once) resolve to the smaller key bytes, so the
    /// merge stays a function. Sync never merges a file whose owner differs from the one this
    /// home holds (`Membership`), so this choice only settles merges of backups.
    static func merged(_ a: TripOwner?, _ b: TripOwner?) -> TripOwner? {
        guard let a else { return b }
        guard let b else { return a }
        if a.key == b.key { return a.claim.lexicographicallyPrecedes(b.claim) ? a : b }
        return a.key.bytes.lexicographicallyPrecedes(b.key.bytes) ? a : b
    }
}
