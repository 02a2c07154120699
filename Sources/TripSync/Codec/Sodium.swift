import CSodium

/// All libsodium calls of the package (SHA-256 now; signatures later).
enum Sodium {
    /// `sodium_init()`, run once before the first use (a static let is initialised once,
    /// thread-safely); true when libsodium is ready.
    private static let ready: Bool = sodium_init() >= 0

    /// The SHA-256 digest (FIPS 180-4) of `message`, 32 bytes.
    static func sha256(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        // It fails only without a source of randomness, which hashing never reaches.
        precondition(ready, "libsodium could not be initialised")
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let placeholder: UInt8 = 0
        withUnsafePointer(to: placeholder) { empty in
            let input = message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? empty
            _ = crypto_hash_sha256(&digest, input, UInt64(message.count))
        }
        return digest
    }
}
