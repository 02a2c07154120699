import TripSyncPlatform

/// An Ed25519 key pair whose secret half never leaves the home it was made in (except the
/// owner key, sealed by `owner export`). Signing is libsodium's; nothing here is own crypto.
/// The seed and the secret key live in `SecretBytes`: locked where allowed, wiped when the
/// last copy of the key is released.
package struct SigningKey: Sendable {
    /// The 32-byte seed the pair is made from (the secret).
    package let seed: SecretBytes
    /// libsodium's 64-byte secret key (seed and public key).
    private let secretKey: SecretBytes
    /// The public half.
    package let publicKey: PublicKey

    /// The pair of a 32-byte seed; nil for any other length.
    package init?(seed: SecretBytes) {
        guard seed.count == 32 else { return nil }
        let pair = Sodium.signKeyPair(seed: seed)
        guard let publicKey = PublicKey(bytes: pair.publicKey) else { return nil }
        self.seed = seed
        self.secretKey = pair.secretKey
        self.publicKey = publicKey
    }

    /// The pair of a 32-byte seed held in an array (tests, fixed keys); the array is the
    /// caller's to wipe, the key's own copy is a `SecretBytes`.
    init?(seed bytes: [UInt8]) {
        var copy = Array(bytes)
        self.init(seed: SecretBytes(taking: &copy))
    }

    /// A new pair from the system's random source.
    package static func generate() -> SigningKey {
        while true {
            // A 32-byte seed always makes a pair; the loop only satisfies the optional.
            if let key = SigningKey(seed: Sodium.randomSecret(32)) { return key }
        }
    }

    /// The seed in base64, for the home's 0600 files (the one copy that leaves `SecretBytes`:
    /// a file's text; the bytes in between are wiped).
    package var seedBase64: String {
        var bytes = seed.withBytes { Array($0) }
        defer { SecretBytes.wipe(&bytes) }
        return Base64.encode(bytes)
    }

    /// The pair stored as `seedBase64`; nil when the text is not 32 bytes of base64.
    package init?(seedBase64 text: String) {
        guard var bytes = Base64.decode(text, count: 32) else { return nil }
        self.init(seed: SecretBytes(taking: &bytes))
    }

    /// The detached signature (64 bytes) of `message`.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        Sodium.sign(message, secretKey: secretKey)
    }
}
