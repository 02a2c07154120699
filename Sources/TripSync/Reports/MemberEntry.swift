import TripSyncCore

/// One line of `members`: a device of the trip, its person's name, role, key, and whether it
/// waits for the owner (`members --json`: `{"device", "name", "role", "key", "pending"}`).
public struct MemberEntry: Hashable, Sendable, JSONReport, Encodable {
    /// The device.
    public var device: DeviceID
    /// Its name (from the trip, or from its request).
    public var name: String
    /// Its role; nil while pending or in an open trip.
    public var role: MemberRole?
    /// Its public key, when known.
    package var key: PublicKey?
    /// Whether it asked to be a member (or wrote before the trip was claimed) and waits for the owner.
    public var pending: Bool
    /// Where a pending request came from ("a join request", "a signed trip file", "wrote before
    /// the claim"), or for a member that holds its seat by succession, "successor of OLD".
    public var source: String?

    /// The `source` of a device that wrote before the trip was claimed.
    public static let wroteBeforeClaim = "wrote before the trip was claimed"

    /// The JSON form; absent values are `null`.
    package var reportFields: [ReportField] {
        [
            .field("device", device.description),
            .field("name", name),
            .field("role", role?.rawValue),
            .field("key", key?.base64),
            .field("fingerprint", key?.fingerprint),
            .field("pending", pending),
            .field("source", source),
        ]
    }
}
