import TripSyncPlatform

/// The name of a blob: the SHA-256 of its bytes, written as 64 lowercase hex digits.
package struct BlobID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 64 lowercase hex digits.
    package let hex: String

    /// Parses `text` strictly: exactly 64 characters `0-9a-f` (no upper case, no prefix, no
    /// whitespace); nil otherwise.
    package init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64, utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        hex = text
    }

    /// The name of a 32-byte SHA-256 digest; nil for any other length.
    package init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        hex = SHA256.hex(digest)
    }

    /// The name of `bytes` (their SHA-256).
    package init(of bytes: [UInt8]) {
        hex = SHA256.hex(SHA256Hasher.digest(bytes))
    }

    /// The name as a file name in a blob folder.
    package var entryName: EntryName { EntryName(hex) }

    /// The name of the partial file a copy of this blob goes through.
    var partialName: EntryName { EntryName(hex + ".partial") }

    /// The hex digits.
    package var description: String { hex }

    /// Byte order of the hex digits.
    package static func < (a: BlobID, b: BlobID) -> Bool { a.hex < b.hex }
}
