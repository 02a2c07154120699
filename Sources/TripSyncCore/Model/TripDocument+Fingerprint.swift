import TripSyncPlatform

extension TripDocument {
    /// A SHA-256 hex digest of the replicated state: the canonical JSON of everything but the
    /// writer's `deviceId` and `acks` (which differ between replicas of one state). Two
    /// replicas give the same fingerprint exactly when they hold the same trip.
    public var fingerprint: String {
        var state = self
        state.deviceID = Identifier(high: 0, low: 0)
        state.acks = [:]
        return SHA256.hex(SHA256.digest(state.canonicalJSON()))
    }
}
