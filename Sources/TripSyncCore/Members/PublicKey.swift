import Foundation
import TripSyncPlatform

/// An Ed25519 public key: a device's (it signs the device's files) or a trip's owner key (it
/// signs the owner claim and every role grant). docs/DESIGN.md, "Members and roles".
package struct PublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 key bytes.
    package let bytes: [UInt8]

    /// A key from its 32 bytes; nil for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A key from the file form: 44 characters of standard base64 that decode to 32 bytes and
    /// encode back to the same text (so one key has one spelling).
    package init?(base64 text: String) {
        guard let bytes = Base64.decode(text, count: 32) else { return nil }
        self.bytes = bytes
    }

    /// The file form: standard base64, 44 characters.
    package var base64: String { Base64.encode(bytes) }

    /// What people compare: the first 8 bytes of the key's SHA-256 in four groups of hex,
    /// like `3f2a 91c0 77de 0b14`.
    package var fingerprint: String {
        let hex = Array(SHA256.hex(Array(SHA256.digest(bytes).prefix(8))))
        return stride(from: 0, to: 16, by: 4).map { String(hex[$0..<($0 + 4)]) }.joined(separator: " ")
    }

    /// The fingerprint.
    package var description: String { fingerprint }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    package func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        Sodium.verify(signature, of: message, publicKey: bytes)
    }
}

/// Strict standard base64 (with padding), the spelling of keys and signatures in files.
package enum Base64 {
    /// The text of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of `text` when it is the one canonical spelling of exactly `count` bytes.
    package static func decode(_ text: String, count: Int) -> [UInt8]? {
        guard text.utf8.count == (count + 2) / 3 * 4, let data = Data(base64Encoded: text), data.count == count else { return nil }
        let bytes = [UInt8](data)
        return encode(bytes) == text ? bytes : nil
    }

    /// The bytes of `text` when it is standard base64 (with padding) in its one canonical
    /// spelling, of any length.
    package static func decodeAny(_ text: String) -> [UInt8]? {
        guard text.utf8.count % 4 == 0, let data = Data(base64Encoded: text) else { return nil }
        let bytes = [UInt8](data)
        return encode(bytes) == text ? bytes : nil
    }

    /// Whether `byte` is a character of base64url: a letter, a digit, `-` or `_`.
    package static func isURLCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
    }

    /// base64url without padding (invite codes).
    package static func encodeURL(_ bytes: [UInt8]) -> String {
        encode(bytes).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url `text` when it is their one canonical spelling, or nil.
    /// A last character whose unused low bits are not zero decodes to the same bytes as another
    /// character; it is refused, so a changed last character never passes as the same code.
    package static func decodeURL(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy(isURLCharacter) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        return encodeURL(bytes) == text ? bytes : nil
    }
}
