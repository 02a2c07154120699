import TripSyncPlatform

/// A device's X25519 key pair (schema 6): the secret half only in the device's home, next to
/// its signing key (`device.key`, 0600); the public half in its owner-signed grant
/// (docs/DESIGN.md, "Encryption").
package struct EncryptionKeyPair: Sendable {
    /// The public key.
    package let publicKey: EncryptionPublicKey
    /// The secret key, wiped when released.
    package let secretKey: SecretBytes

    private init(publicKey: EncryptionPublicKey, secretKey: SecretBytes) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// A fresh pair from the system's random source.
    package static func generate() -> EncryptionKeyPair {
        let pair = Sodium.boxKeyPair()
        // `boxKeyPair` always gives 32 bytes.
        guard let publicKey = EncryptionPublicKey(bytes: pair.publicKey) else { preconditionFailure("an X25519 public key has 32 bytes") }
        return EncryptionKeyPair(publicKey: publicKey, secretKey: pair.secretKey)
    }

    /// The pair stored as `secretBase64`; nil when the text is not 32 bytes of base64.
    package init?(secretBase64 text: String) {
        guard var bytes = Base64.decode(text, count: 32) else { return nil }
        let secret = SecretBytes(taking: &bytes)
        guard let derived = Sodium.boxPublicKey(secretKey: secret), let publicKey = EncryptionPublicKey(bytes: derived) else { return nil }
        self.publicKey = publicKey
        secretKey = secret
    }

    /// The stored form of the secret key: standard base64 of its 32 bytes.
    package var secretBase64: String {
        var bytes = secretKey.withBytes { Array($0) }
        defer { SecretBytes.wipe(&bytes) }
        return Base64.encode(bytes)
    }
}
