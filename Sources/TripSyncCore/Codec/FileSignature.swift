import TripSyncPlatform

/// The signature of a published file (docs/FORMAT.md, "Schema 3"): the writer's Ed25519
/// signature over `tripsync-file-v1\n` and the BLAKE2b-256 of the file's JSON bytes with the
/// signature's 88 characters replaced by 88 `0`s. Hashing first keeps verifying a 6.5 MB file
/// to one pass of BLAKE2b (docs/DESIGN.md, "Signed files").
package enum FileSignature {
    /// What stands in the signature's place while the bytes are hashed.
    static let placeholder = [UInt8](repeating: UInt8(ascii: "0"), count: 88)

    private static let domain = Array("tripsync-file-v1\n".utf8)

    /// The message signed for JSON bytes whose digest (placeholder in place) is `digest`.
    static func message(digest: [UInt8]) -> [UInt8] { domain + digest }

    /// Whether `signature` by `key` covers `json`, whose signature value sits at `range`.
    static func verifies(_ signature: [UInt8], key: PublicKey, json: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Bool {
        guard let base = json.baseAddress, range.count == placeholder.count, range.lowerBound >= 0, range.upperBound <= json.count else {
            return false
        }
        let digest = placeholder.withUnsafeBytes { hole in
            Sodium.blake2b256([
                UnsafeRawBufferPointer(start: base, count: range.lowerBound), hole,
                UnsafeRawBufferPointer(start: base + range.upperBound, count: json.count - range.upperBound),
            ])
        }
        return key.verifies(signature, of: message(digest: digest))
    }
}
