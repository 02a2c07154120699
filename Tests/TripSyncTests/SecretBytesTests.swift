import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore

/// Secrets own their bytes and wipe them when released (issue 26, finding 9).
@Suite struct SecretBytesTests {
    @Test func theStorageIsZeroedWhenTheSecretIsReleased() {
        final class Seen: @unchecked Sendable { var bytes: [UInt8]? }
        let seen = Seen()
        do {
            let secret = SecretBytes(count: 32, onRelease: { seen.bytes = Array($0) }) { base, count in
                base.update(repeating: 0xAB, count: count)
            }
            #expect(secret.withBytes { Array($0) } == [UInt8](repeating: 0xAB, count: 32))
            #expect(seen.bytes == nil)
        }
        #expect(seen.bytes?.prefix(32) == [UInt8](repeating: 0, count: 32)[...], "the released storage still held the secret")
    }

    @Test func takingBytesWipesTheArrayTheyCameIn() {
        var bytes: [UInt8] = Array("correct horse battery staple".utf8)
        let secret = SecretBytes(taking: &bytes)
        #expect(bytes.allSatisfy { $0 == 0 } && bytes.count == 28)
        #expect(secret.withBytes { String(decoding: $0, as: UTF8.self) } == "correct horse battery staple")
    }

    @Test func aSigningKeyRoundTripsThroughItsSecretSeed() throws {
        let key = SigningKey.generate()
        let again = try #require(SigningKey(seedBase64: key.seedBase64))
        #expect(again.publicKey == key.publicKey)
        #expect(key.sign([1, 2, 3]) == again.sign([1, 2, 3]))
    }
}
