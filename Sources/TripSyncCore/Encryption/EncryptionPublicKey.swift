import TripSyncPlatform

/// A device's X25519 public key (schema 6): what an owner seals a trip's epoch keys to, kept
/// apart from the device's Ed25519 signing key and published in its owner-signed grant
/// (docs/DESIGN.md, "Encryption").
package struct EncryptionPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 key bytes.
    package let bytes: [UInt8]

    /// A key from its 32 bytes; nil for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Sodium.boxKeyBytes else { return nil }
        self.bytes = bytes
    }

    /// A key from the file form: 44 characters of standard base64 that decode to 32 bytes and
    /// encode back to the same text.
    package init?(base64 text: String) {
        guard let bytes = Base64.decode(text, count: 32) else { return nil }
        self.bytes = bytes
    }

    /// The file form: standard base64, 44 characters.
    package var base64: String { Base64.encode(bytes) }

    /// The file form.
    package var description: String { base64 }
}
