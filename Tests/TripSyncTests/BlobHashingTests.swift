import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncHome

/// The fast SHA-256 (OpenSSL) against NIST's answers and libsodium's, blob names parsed
/// strictly, and types sniffed from magic bytes.
@Suite struct BlobHashingTests {
    @Test(arguments: SHA256Tests.knownAnswers)
    func opensslGivesNISTsKnownAnswer(_ answer: SHA256Tests.KnownAnswer) {
        #expect(SHA256.hex(SHA256Hasher.digest(answer.message)) == answer.digest)
    }

    /// Random messages of every length around the 64-byte block, fed whole and in uneven pieces.
    @Test func opensslEqualsLibsodiumFedInPieces() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 4096, 100_003] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = SHA256.digest(message)  // libsodium
            #expect(SHA256Hasher.digest(message) == expected, "length \(length)")
            let hasher = SHA256Hasher()
            var offset = 0
            while offset < length {
                let piece = min(Int.random(in: 1...97, using: &generator), length - offset)
                hasher.update(Array(message[offset..<offset + piece]))
                offset += piece
            }
            #expect(hasher.count == Int64(length))
            #expect(hasher.finish() == expected, "length \(length) in pieces")
            // finish() starts over: the next digest is of the next bytes only.
            hasher.update(bytes("abc"))
            #expect(SHA256.hex(hasher.finish()) == SHA256Tests.knownAnswers[1].digest)
        }
    }

    @Test func blobIDIsParsedStrictly() {
        let good = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(BlobID(good)?.hex == good)
        #expect(BlobID(of: bytes("abc")) == BlobID(good))
        for bad in [good.uppercased(), String(good.dropLast()), good + "0", " " + good.dropFirst(), "sha256:" + good, "", String(good.dropLast()) + "g"] {
            #expect(BlobID(bad) == nil, "\(bad)")
        }
        #expect(BlobID(digest: [1, 2, 3]) == nil)
    }

    struct Sample: Sendable, CustomTestStringConvertible {
        var name: String
        var prefix: [UInt8]
        var type: BlobType
        var testDescription: String { "\(name) → \(type.rawValue)" }
    }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, 0, UInt8(size)] + bytes("ftyp") + bytes(major) + [0, 0, 0, 0] + compatible.flatMap { bytes($0) } + [0, 0, 0, 8] + bytes("meta")
    }

    static let samples: [Sample] = [
        Sample(name: "JPEG", prefix: [0xFF, 0xD8, 0xFF, 0xE1, 0, 0x10] + bytes("Exif"), type: .jpeg),
        Sample(name: "PNG", prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + bytes("IHDR"), type: .png),
        Sample(name: "GIF89a", prefix: bytes("GIF89a") + [1, 0, 1, 0], type: .gif),
        Sample(name: "GIF87a", prefix: bytes("GIF87a") + [1, 0, 1, 0], type: .gif),
        Sample(name: "WebP", prefix: bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WEBPVP8 "), type: .webp),
        Sample(name: "HEIC", prefix: ftyp("heic", ["mif1", "heic"]), type: .heic),
        Sample(name: "HEIF by a compatible brand", prefix: ftyp("mp41", ["mif1"]), type: .heic),
        Sample(name: "PDF", prefix: bytes("%PDF-1.7\n%\u{e2}"), type: .pdf),
        Sample(name: "AVIF (mif1 compatible, not HEIC)", prefix: ftyp("avif", ["mif1", "miaf"]), type: .octetStream),
        Sample(name: "MP4", prefix: ftyp("isom", ["isom", "mp41"]), type: .octetStream),
        Sample(name: "RIFF WAVE", prefix: bytes("RIFF") + [0x24, 0, 0, 0] + bytes("WAVEfmt "), type: .octetStream),
        Sample(name: "a JPEG cut to two bytes", prefix: [0xFF, 0xD8], type: .octetStream),
        Sample(name: "text named photo.jpg", prefix: bytes("hello, this is not a photo"), type: .octetStream),
        Sample(name: "empty", prefix: [], type: .octetStream),
        Sample(name: "PDF not at the start", prefix: bytes(" %PDF-1.7"), type: .octetStream),
        Sample(name: "ftyp box with a lying size", prefix: [0, 0, 0, 3] + bytes("ftypheic") + [0, 0, 0, 0], type: .octetStream),
    ]

    @Test(arguments: samples)
    func typeIsSniffedFromMagicBytes(_ sample: Sample) {
        #expect(BlobType.sniff(sample.prefix) == sample.type)
    }
}
