import Testing
@testable import TripSync
@testable import TripSyncPlatform

/// SHA-256 through libsodium against NIST's known answers: the FIPS 180-2 examples (appendix B
/// and the million a's) and byte-oriented CAVP short messages (SHA256ShortMsg.rsp).
@Suite struct SHA256Tests {
    /// A message and its digest as NIST publishes it.
    struct KnownAnswer: Sendable, CustomTestStringConvertible {
        var name: String
        var message: [UInt8]
        var digest: String
        var testDescription: String { name }
    }

    static let knownAnswers: [KnownAnswer] = [
        KnownAnswer(name: "empty", message: [], digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        KnownAnswer(name: "abc", message: bytes("abc"), digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        KnownAnswer(
            name: "448 bits",
            message: bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        KnownAnswer(
            name: "896 bits",
            message: bytes(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        KnownAnswer(
            name: "one million a", message: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        KnownAnswer(name: "CAVP Len=8", message: [0xD3], digest: "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1"),
        KnownAnswer(name: "CAVP Len=16", message: [0x11, 0xAF], digest: "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98"),
        KnownAnswer(
            name: "CAVP Len=24", message: [0xB4, 0x19, 0x0E], digest: "dff2e73091f6c05e528896c4c831b9448653dc2ff043528f6769437bc7b975c2"),
    ]

    @Test(arguments: knownAnswers)
    func digestIsNISTsKnownAnswer(_ answer: KnownAnswer) {
        let digest = SHA256.digest(answer.message)
        #expect(digest.count == 32)
        #expect(SHA256.hex(digest) == answer.digest)
    }

    /// Many threads hashing at once, the first of them starting libsodium: every digest right.
    @Test func concurrentFirstUseGivesTheKnownAnswers() async {
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let digests = await withTaskGroup(of: String.self) { group in
            for _ in 0..<64 { group.addTask { SHA256.hex(SHA256.digest(bytes("abc"))) } }
            var all: [String] = []
            for await digest in group { all.append(digest) }
            return all
        }
        #expect(digests.count == 64)
        #expect(digests.allSatisfy { $0 == expected })
    }
}
