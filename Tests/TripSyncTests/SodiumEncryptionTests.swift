import Testing

@testable import TripSyncPlatform

/// The encryption primitives of issue 43 (X25519 sealed boxes, the XChaCha20-Poly1305 secret
/// stream, padding to a bucket): known answers pinned from RFC 7748 and from PyNaCl 1.6.2 (an
/// independent binding of libsodium), then every way a sealed value can be tampered with.
@Suite struct SodiumEncryptionTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    static func secret(_ bytes: [UInt8]) -> SecretBytes {
        var copy = bytes
        return SecretBytes(taking: &copy)
    }

    // RFC 7748, section 6.1: Bob's key pair.
    static let bobSecret = bytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    static let bobPublic = bytes("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")

    @Test func anX25519PublicKeyIsTheRFC7748Answer() throws {
        let alice = Self.secret(Self.bytes("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        #expect(Sodium.boxPublicKey(secretKey: alice) == Self.bytes("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        #expect(Sodium.boxPublicKey(secretKey: Self.secret(Self.bobSecret)) == Self.bobPublic)
        #expect(Sodium.boxPublicKey(secretKey: Self.secret([1, 2, 3])) == nil)
    }

    @Test func aFreshKeyPairMatchesItsSecretAndIsNew() throws {
        let first = Sodium.boxKeyPair()
        let second = Sodium.boxKeyPair()
        #expect(Sodium.boxPublicKey(secretKey: first.secretKey) == first.publicKey)
        #expect(first.publicKey != second.publicKey)
    }

    /// Sealed by PyNaCl's SealedBox to Bob's public key: the message 00 01 … 1f.
    static let pinnedSealedBox = bytes(
        "548e732b4ab9c49f91a0af9e544b16f4206309acd7331961791617b2cf9e462db8929b8ce5bf4119953daf114cd23fda1dded1feaab1b5989549c6a004a69157d24ac8766f4134ec39832968874d66e5"
    )

    @Test func aPinnedSealedBoxOpensWithBobsKey() throws {
        let message = try #require(Sodium.openSealedBox(Self.pinnedSealedBox, publicKey: Self.bobPublic, secretKey: Self.secret(Self.bobSecret)))
        #expect(message.withBytes { Array($0) } == Array(0..<32))
    }

    @Test func aSealedBoxRoundTripsAndNobodyElseOpensIt() throws {
        let recipient = Sodium.boxKeyPair()
        let other = Sodium.boxKeyPair()
        let key = Sodium.randomSecret(32)
        let sealed = try #require(Sodium.sealBox(key, to: recipient.publicKey))
        #expect(sealed.count == 32 + Sodium.sealedBoxOverhead)
        let opened = try #require(Sodium.openSealedBox(sealed, publicKey: recipient.publicKey, secretKey: recipient.secretKey))
        #expect(opened.withBytes { Array($0) } == key.withBytes { Array($0) })
        #expect(Sodium.openSealedBox(sealed, publicKey: other.publicKey, secretKey: other.secretKey) == nil)
        #expect(Sodium.sealBox(key, to: recipient.publicKey) != sealed, "an ephemeral key each time")
        #expect(Sodium.sealBox(key, to: [1, 2, 3]) == nil)
    }

    @Test func aSealedBoxWithAnyByteFlippedIsRefused() throws {
        let secret = Self.secret(Self.bobSecret)
        for index in Self.pinnedSealedBox.indices {
            var flipped = Self.pinnedSealedBox
            flipped[index] ^= 0x01
            #expect(Sodium.openSealedBox(flipped, publicKey: Self.bobPublic, secretKey: secret) == nil, "byte \(index)")
        }
        #expect(Sodium.openSealedBox(Array(Self.pinnedSealedBox.dropLast()), publicKey: Self.bobPublic, secretKey: secret) == nil)
    }

    // Pushed by PyNaCl: key 40 41 … 5f, associated data "trip", chunks of 16 bytes (two
    // MESSAGE, the third FINAL).
    static let streamKey = Array(UInt8(0x40)..<UInt8(0x60))
    static let streamPlaintext = Array("TripSync pins its secret stream!12345678".utf8)
    static let pinnedStream = bytes(
        "376b3609bfc80c2a16802c2cbdeacafe1503b474f625f28bfd1474cb2c24fbf6e2e908e3d13499b3e09a4de825b4c618a1fc840a256a537e00042c98a1e4dba3107c1d6bebdb78fc8a7e8197eebd03761b5de53548b4a57f03e3d38f6905d07e272607bbc98fa67c971edcf086edc3b0065cf4"
    )

    @Test func aPinnedSecretStreamOpens() throws {
        let opened = Sodium.streamOpen(Self.pinnedStream, key: Self.secret(Self.streamKey), additionalData: Array("trip".utf8), chunkBytes: 16)
        #expect(opened == .success(Self.streamPlaintext))
        #expect(Sodium.streamSealedCount(plaintextCount: 40, chunkBytes: 16) == Self.pinnedStream.count)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 48, 1000])
    func aSecretStreamRoundTrips(count: Int) throws {
        let key = Sodium.randomSecret(32)
        let plaintext = Sodium.random(count)
        let sealed = Sodium.streamSeal(plaintext, key: key, additionalData: [7], chunkBytes: 16)
        #expect(sealed.count == Sodium.streamSealedCount(plaintextCount: count, chunkBytes: 16))
        #expect(Sodium.streamOpen(sealed, key: key, additionalData: [7], chunkBytes: 16) == .success(plaintext))
        #expect(Sodium.streamSeal(plaintext, key: key, additionalData: [7], chunkBytes: 16) != sealed, "a fresh header each time")
    }

    @Test func aLargeStreamUsesTheDefaultChunks() throws {
        let key = Sodium.randomSecret(32)
        let plaintext = Sodium.random(3 * Sodium.streamChunkBytes + 5)
        let sealed = Sodium.streamSeal(plaintext, key: key, additionalData: [])
        #expect(sealed.count == 24 + plaintext.count + 4 * 17)
        #expect(Sodium.streamOpen(sealed, key: key, additionalData: []) == .success(plaintext))
    }

    @Test func aStreamWithAnyByteFlippedIsRefused() throws {
        let key = Self.secret(Self.streamKey)
        for index in Self.pinnedStream.indices {
            var flipped = Self.pinnedStream
            flipped[index] ^= 0x80
            guard case .failure = Sodium.streamOpen(flipped, key: key, additionalData: Array("trip".utf8), chunkBytes: 16) else {
                Issue.record("byte \(index) flipped and the stream still opened")
                continue
            }
        }
    }

    @Test func aStreamCutAnywhereIsRefusedAndACutAtAChunkSaysTheFinalIsMissing() throws {
        let key = Self.secret(Self.streamKey)
        let ad = Array("trip".utf8)
        for length in 0..<Self.pinnedStream.count {
            let cut = Array(Self.pinnedStream.prefix(length))
            guard case .failure(let failure) = Sodium.streamOpen(cut, key: key, additionalData: ad, chunkBytes: 16) else {
                Issue.record("cut at \(length) and the stream still opened")
                continue
            }
            if length == 24 + 33 || length == 24 + 66 { #expect(failure == .finalMissing, "cut at \(length)") }
        }
    }

    @Test func aStreamWithOtherDataAChunkDroppedOrMovedOrExtraBytesIsRefused() throws {
        let key = Self.secret(Self.streamKey)
        let ad = Array("trip".utf8)
        let header = Array(Self.pinnedStream[0..<24])
        let chunk = { (index: Int) in Array(Self.pinnedStream[(24 + 33 * index)..<min(24 + 33 * (index + 1), Self.pinnedStream.count)]) }
        #expect(Sodium.streamOpen(Self.pinnedStream, key: key, additionalData: Array("trap".utf8), chunkBytes: 16) == .failure(.chunkRefused(index: 0)))
        #expect(Sodium.streamOpen(Self.pinnedStream, key: Sodium.randomSecret(32), additionalData: ad, chunkBytes: 16) == .failure(.chunkRefused(index: 0)))
        #expect(Sodium.streamOpen(header + chunk(1) + chunk(0) + chunk(2), key: key, additionalData: ad, chunkBytes: 16) == .failure(.chunkRefused(index: 0)))
        #expect(Sodium.streamOpen(header + chunk(0) + chunk(2), key: key, additionalData: ad, chunkBytes: 16) == .failure(.chunkRefused(index: 1)))
        #expect(Sodium.streamOpen(Self.pinnedStream + [0], key: key, additionalData: ad, chunkBytes: 16) != .success(Self.streamPlaintext))
        // A final chunk followed by more: seal a full-chunk final, then append another stream's chunk.
        let short = Sodium.streamSeal(Array(Self.streamPlaintext.prefix(16)), key: key, additionalData: ad, chunkBytes: 16)
        #expect(Sodium.streamOpen(short + chunk(2), key: key, additionalData: ad, chunkBytes: 16) == .failure(.dataAfterFinal(index: 0)))
        #expect(Sodium.streamOpen(Array(short.prefix(24 + 16)), key: key, additionalData: ad, chunkBytes: 16) == .failure(.tooShort))
    }

    @Test func paddingReachesTheBucketAndUnpadsExactly() throws {
        var small: [UInt8] = [1, 2, 3]
        Sodium.pad(&small)
        #expect(small == [1, 2, 3, 0x80] + [UInt8](repeating: 0, count: 252))
        #expect(small.withUnsafeBytes { Sodium.unpaddedCount($0) } == 3)
        #expect(Sodium.paddingBlock(for: 2047) == 256)
        #expect(Sodium.paddingBlock(for: 4096) == 512)
        #expect(Sodium.paddingBlock(for: 1_000_000) == 65_536)
        for count in [0, 255, 256, 2048, 5000, 70_000] {
            var bytes = [UInt8](repeating: 0x80, count: count)
            Sodium.pad(&bytes)
            #expect(bytes.count > count && bytes.count - count <= max(256, count / 8), "\(count) padded to \(bytes.count)")
            #expect(bytes.count % Sodium.paddingBlock(for: count) == 0)
            #expect(bytes.withUnsafeBytes { Sodium.unpaddedCount($0) } == count)
        }
        #expect([UInt8](repeating: 0, count: 256).withUnsafeBytes { Sodium.unpaddedCount($0) } == nil)
        #expect([UInt8]([1, 2, 3]).withUnsafeBytes { Sodium.unpaddedCount($0) } == nil)
        // Padding longer than the padded length's block is not padding `pad` made.
        var long = [UInt8](repeating: 7, count: 300)
        long[10] = 0x80
        for index in 11..<300 { long[index] = 0 }
        #expect(long.withUnsafeBytes { Sodium.unpaddedCount($0) } == nil)
    }
}
