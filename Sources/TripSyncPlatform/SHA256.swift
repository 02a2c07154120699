/// SHA-256 (FIPS 180-4) for fingerprints and file comparisons, computed by libsodium.
package enum SHA256 {
    /// The 32-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { Sodium.sha256($0) }
    }

    /// Lowercase hex of bytes.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
