/// An Ed25519 key pair whose secret half never leaves the home it was made in (except the
/// owner key, sealed by `owner export`). Signing is libsodium's; nothing here is own crypto.
public struct SigningKey: Sendable {
    /// The 32-byte seed the pair is made from (the secret).
    let seed: [UInt8]
    /// libsodium's 64-byte secret key (seed and public key).
    private let secretKey: [UInt8]
    /// The public half.
    public let publicKey: PublicKey

    /// The pair of a 32-byte seed; nil for any other length.
    init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        let pair = Sodium.signKeyPair(seed: seed)
        guard let publicKey = PublicKey(bytes: pair.publicKey) else { return nil }
        self.seed = seed
        self.secretKey = pair.secretKey
        self.publicKey = publicKey
    }

    /// A new pair from the system's random source.
    public static func generate() -> SigningKey {
        var seed = Sodium.random(32)
        while true {
            // A 32-byte seed always makes a pair; the loop only satisfies the optional.
            if let key = SigningKey(seed: seed) { return key }
            seed = Sodium.random(32)
        }
    }

    /// The seed in base64, for the home's 0600 files.
    var seedBase64: String { Base64.encode(seed) }

    /// The pair stored as `seedBase64`; nil when the text is not 32 bytes of base64.
    init?(seedBase64 text: String) {
        guard let seed = Base64.decode(text, count: 32) else { return nil }
        self.init(seed: seed)
    }

    /// The detached signature (64 bytes) of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        Sodium.sign(message, secretKey: secretKey)
    }
}
