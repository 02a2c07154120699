/// A device's hand-over to a new device id (schema 5, docs/FORMAT.md "Schema 5"): "device
/// `from` hands over to device NEW, whose key is `key`", signed by `from`'s device key. Kept in
/// `TripDocument.successions` under NEW's id. The reader checks the shape only; the signature is
/// checked where a succession is accepted, since that needs `from`'s member key.
package struct Succession: Hashable, Sendable {
    /// The device that hands over (the old id).
    package var from: DeviceID
    /// The new device's public key.
    package var key: PublicKey
    /// `from`'s device key's signature over `signedMessage(trip:to:)`.
    package var signature: [UInt8]

    /// A succession as read from a file.
    package init(from: DeviceID, key: PublicKey, signature: [UInt8]) {
        self.from = from
        self.key = key
        self.signature = signature
    }

    /// A new succession from `from` to `to` (whose key is `key`), signed by `from`'s device key.
    package init(from: DeviceID, to: DeviceID, key: PublicKey, trip: TripID, signingKey: SigningKey) {
        self.init(from: from, key: key, signature: [])
        signature = signingKey.sign(signedMessage(trip: trip, to: to))
    }

    /// `tripsync-succession-v1\n` and the canonical JSON of {"from", "key", "to", "tripId"}.
    package func signedMessage(trip: TripID, to: DeviceID) -> [UInt8] {
        let fields: [String: JSONValue] = [
            "from": .string(from.description), "key": .string(key.base64), "to": .string(to.description),
            "tripId": .string(trip.description),
        ]
        return Array(("tripsync-succession-v1\n" + JSONValue.object(fields).text).utf8)
    }

    /// Whether `oldKey` (the key of `from`) signed this succession to `to` in `trip`.
    package func isSigned(by oldKey: PublicKey, trip: TripID, to: DeviceID) -> Bool {
        oldKey.verifies(signature, of: signedMessage(trip: trip, to: to))
    }

    /// The one of two successions to the same new id that a merge keeps, the same everywhere:
    /// the smaller old id, then the smaller key, then the smaller signature. Which one holds
    /// is decided after the merge, by validity (`Membership`, `Seat.Resolver`): a replica
    /// stores the valid one, so no signature can be ground to win.
    static func winner(_ a: Succession, _ b: Succession) -> Succession {
        if a == b { return a }
        if a.from != b.from { return a.from < b.from ? a : b }
        if a.key != b.key { return a.key.bytes.lexicographicallyPrecedes(b.key.bytes) ? a : b }
        return a.signature.lexicographicallyPrecedes(b.signature) ? a : b
    }
}
