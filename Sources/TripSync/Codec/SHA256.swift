/// SHA-256 (FIPS 180-4) for fingerprints and file comparisons, computed by libsodium.
enum SHA256 {
    /// The 32-byte digest of `message`.
    static func digest(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { Sodium.sha256($0) }
    }

    /// Lowercase hex of bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}

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
