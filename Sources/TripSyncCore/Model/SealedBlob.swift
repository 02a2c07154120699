import TripSyncPlatform

/// How an owned trip's blob is kept in the trip folder (schema 7, docs/FORMAT.md "Schema 7"):
/// the bytes sealed with a key of their own, stored under the SHA-256 of the sealed bytes. The
/// key, made fresh from the system's random source for each blob (never derived from the
/// bytes), lives only here, inside the attachment's `blob` register, which the trip's envelope
/// seals in turn.
///
/// Layout: libsodium's XChaCha20-Poly1305 secret stream (`Sodium+SecretStream.swift`): a 24-byte
/// header, chunks of 64 KiB of plaintext each 17 bytes longer, the last tagged final; every
/// chunk's associated data is `tripsync-blob-v1\n<tripId>\n<plaintext SHA-256 as 64 lowercase hex
/// digits>`, so sealed bytes open only as the bytes the attachment names, in the trip they were
/// sealed for.
package struct SealedBlob: Hashable, Sendable {
    /// Lowercase hex of the SHA-256 of the sealed bytes: the blob's name in the trip folder.
    package var sha256: String
    /// The size of the sealed bytes, which the plaintext's size fixes (`sealedSize`).
    package var size: Int64
    /// The 32-byte key of the secret stream.
    package var key: [UInt8]

    /// Creates a sealed reference.
    package init(sha256: String, size: Int64, key: [UInt8]) {
        self.sha256 = sha256
        self.size = size
        self.key = key
    }

    /// Bytes of a blob key.
    package static let keyBytes = 32

    /// The key in the one canonical spelling of standard base64 (44 characters).
    package var keyBase64: String { Base64.encode(key) }

    /// The domain string that starts the associated data of every chunk.
    package static let domain = "tripsync-blob-v1\n"

    /// The associated data bound to every chunk of trip `tripID`'s blob whose plaintext has
    /// SHA-256 `plaintextSHA256` (64 lowercase hex digits): a ciphertext opens only as those
    /// bytes of that trip.
    package static func additionalData(tripID: TripID, plaintextSHA256: String) -> [UInt8] {
        Array((domain + tripID.description + "\n" + plaintextSHA256).utf8)
    }

    /// The exact size of the sealed bytes of a `plaintext`-byte blob: the header, the
    /// plaintext, and 17 bytes per chunk of 64 KiB (one chunk at least).
    /// A size too large for an `Int64` gives `Int64.max` (no blob is that large).
    package static func sealedSize(plaintext: Int64) -> Int64 {
        let plaintext = max(plaintext, 0)
        let chunk = Int64(Sodium.streamChunkBytes)
        let chunks = max(1, plaintext / chunk + (plaintext % chunk == 0 ? 0 : 1))
        let (overhead, o1) = chunks.multipliedReportingOverflow(by: Int64(Sodium.streamChunkOverhead))
        let (framed, o2) = overhead.addingReportingOverflow(Int64(Sodium.streamHeaderBytes))
        let (total, o3) = framed.addingReportingOverflow(plaintext)
        return o1 || o2 || o3 ? .max : total
    }
}
