import CZlib
import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncPlatform
@testable import TripSyncCore

/// The gzip TripSync writes (libdeflate) and reads: our reader and the system's `gzip` give
/// back every input byte for byte, each member's trailer (CRC-32 by zlib, an independent
/// implementation, and ISIZE) is right, and the reader's limits and messages hold.
@Suite struct GzipWriterTests {
    /// An input for the writer, named for the test list.
    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var testDescription: String { name }
    }

    static let inputs: [Input] = {
        var generator = SeededGenerator(seed: 51)
        let random = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let phrase = Array(random[0..<1_000])
        return [
            Input(name: "empty", bytes: []),
            Input(name: "one byte", bytes: [42]),
            Input(name: "short text", bytes: bytes("abcabcabcabcabcabcabc")),
            Input(name: "100,000 zeros", bytes: [UInt8](repeating: 0, count: 100_000)),
            Input(name: "300,000 random bytes", bytes: random),
            Input(name: "600 copies of 1,000 bytes", bytes: Array((0..<600).map { _ in phrase }.joined())),
            Input(name: "trip JSON", bytes: smallDocument(items: 300).canonicalJSON()),
        ]
    }()

    /// `gzip` (the system tool) run on `input` with `arguments`: its exit status and stdout.
    func systemGzip(_ arguments: [String], input: [UInt8]) throws -> (status: Int32, output: [UInt8]) {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/in.gz"
        try Data(input).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = arguments + [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(output))
    }

    /// zlib's CRC-32 of `bytes`.
    func zlibCRC(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// The little-endian word at `offset`.
    func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    @Test(arguments: inputs)
    func memberInflatesBackWithOurReaderAndSystemGzip(_ input: Input) throws {
        let member = try GzipCompression.fast.gzip(input.bytes)
        #expect(Array(member.prefix(3)) == [0x1F, 0x8B, 8])
        #expect(try member.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) } == input.bytes)
        #expect(try systemGzip(["-t"], input: member).status == 0)
        #expect(try systemGzip(["-dc"], input: member).output == input.bytes)
        #expect(word(member, at: member.count - 8) == zlibCRC(input.bytes))
        #expect(word(member, at: member.count - 4) == UInt32(input.bytes.count))
        // Stored blocks at worst: never much larger than the input.
        #expect(member.count <= input.bytes.count + input.bytes.count / 10_000 * 5 + 64, "\(member.count) bytes")
        #expect(try GzipCompression.fast.gzip(input.bytes) == member, "the same input gives the same bytes")
    }

    /// A document of several parts is several members, one per part: each ends in its part's
    /// CRC-32 and length, and the whole file is the canonical JSON to `gzip -dc`.
    @Test(arguments: [(300, 1), (4_600, 4), (10_000, 8)])
    func documentIsOneMemberPerPart(items: Int, parts: Int) throws {
        var generator = TripGenerator(seed: 8)
        let document = generator.document(itemCount: items)
        let split = CanonicalWriter.Parts(document)
        #expect(split.count == parts)
        let members = try document.gzipMembers(.fast).map { $0.toArray() }
        #expect(members.count == parts)
        for (index, member) in members.enumerated() {
            let json = split.encode(index).toArray()
            #expect(word(member, at: member.count - 8) == zlibCRC(json), "member \(index)")
            #expect(word(member, at: member.count - 4) == UInt32(json.count), "member \(index)")
            #expect(try systemGzip(["-dc"], input: member).output == json, "member \(index)")
        }
        let file = try document.gzipData()
        #expect(file == Array(members.joined()))
        let json = document.canonicalJSON()
        #expect(try systemGzip(["-t"], input: file).status == 0)
        #expect(try systemGzip(["-dc"], input: file).output == json)
        #expect(try file.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) } == json)
        // Against the hand-written encoder this replaces: 982,409 bytes for a 6.55 MB merge.
        if items == 10_000 { #expect(Double(file.count) < Double(json.count) / 7, "\(file.count) of \(json.count) bytes") }
    }

    /// zlib's levels still write ordinary gzip; a level zlib lacks is refused, not a crash.
    @Test(arguments: [GzipCompression.fast, .zlib(level: 0), .zlib(level: 1), .zlib(level: 9)])
    func everyCompressionIsOrdinaryGzip(_ compression: GzipCompression) throws {
        let text = bytes(String(repeating: "{\"title\":\"Lunch at the market\"},", count: 500))
        let member = try compression.gzip(text)
        #expect(try systemGzip(["-dc"], input: member).output == text)
        #expect(try member.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) } == text)
    }

    @Test(arguments: [Int32(-2), 10, 42])
    func unknownZlibLevelsAreRefused(_ level: Int32) {
        #expect(throws: FileSystemError.self) { try GzipCompression.zlib(level: level).gzip(bytes("text")) }
    }

    /// Members whose sizes the reader cannot know before inflating: several members, the last
    /// one small (its ISIZE is the only hint), so the block must grow and a member be inflated
    /// again; the size limit holds to the byte wherever it falls.
    struct LimitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var memberSizes: [Int]
        var maxOutputBytes: Int
        var accepted: Bool
        var testDescription: String { name }
    }

    static let limitCases: [LimitCase] = [
        LimitCase(name: "4 MB then 10 bytes, no limit reached", memberSizes: [4 << 20, 10], maxOutputBytes: 256 << 20, accepted: true),
        LimitCase(name: "exactly at the limit", memberSizes: [3 << 20, 1 << 20], maxOutputBytes: 4 << 20, accepted: true),
        LimitCase(name: "one byte past, in the second member", memberSizes: [3 << 20, 1 << 20], maxOutputBytes: (4 << 20) - 1, accepted: false),
        LimitCase(name: "past, in the first member", memberSizes: [5 << 20, 1], maxOutputBytes: 4 << 20, accepted: false),
        LimitCase(name: "empty members", memberSizes: [0, 0, 7, 0], maxOutputBytes: 7, accepted: true),
    ]

    @Test(arguments: limitCases)
    func sizeLimitHoldsAcrossMembers(_ limit: LimitCase) throws {
        let parts = limit.memberSizes.enumerated().map { [UInt8](repeating: UInt8(65 + $0.offset), count: $0.element) }
        let file = try parts.flatMap { try GzipCompression.fast.gzip($0) }
        let limits = InflateLimits(maxOutputBytes: limit.maxOutputBytes, maxRatio: 1 << 20)
        let result = Result { try file.withUnsafeBytes { try Gzip.decompress($0, limits: limits) } }
        switch result {
        case .success(let bytes):
            #expect(limit.accepted)
            #expect(bytes == Array(parts.joined()))
        case .failure(let error):
            #expect(!limit.accepted, "\(error)")
            #expect((error as? GzipError)?.kind == .tooLarge)
            #expect((error as? GzipError)?.message.contains("size limit of \(limit.maxOutputBytes) bytes") == true)
        }
    }

    /// The ratio limit: 20 MB of one byte (about 1,000:1) is refused at the default ratio of
    /// 200, also when it comes after a harmless member.
    @Test(arguments: [false, true])
    func ratioLimitHolds(afterAnotherMember: Bool) throws {
        let bomb = try GzipCompression.fast.gzip([UInt8](repeating: 32, count: 20 << 20))
        let file = (afterAnotherMember ? try GzipCompression.fast.gzip(smallDocument().canonicalJSON()) : []) + bomb
        let error = #expect(throws: GzipError.self) { try file.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) } }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message.contains("200 times its compressed size") == true, "\(String(describing: error))")
    }

    /// A damaged member is refused with what is wrong with it.
    struct Damage: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable ([UInt8]) -> [UInt8]
        var message: String
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(name: "CRC flipped", change: { var b = $0; b[b.count - 8] ^= 1; return b }, message: "incorrect data check"),
        Damage(name: "ISIZE flipped", change: { var b = $0; b[b.count - 2] ^= 1; return b }, message: "incorrect length check"),
        Damage(name: "trailer cut", change: { Array($0.dropLast(3)) }, message: "gzip data is truncated, expected the rest"),
        Damage(name: "cut in half", change: { Array($0.prefix($0.count / 2)) }, message: "truncated or corrupt"),
        Damage(name: "header cut", change: { Array($0.prefix(6)) }, message: "gzip data is truncated"),
        Damage(name: "method 7", change: { var b = $0; b[2] = 7; return b }, message: "compression method 7"),
        Damage(name: "reserved flag", change: { var b = $0; b[3] = 0x80; return b }, message: "reserved flags"),
        Damage(name: "stray bytes", change: { $0 + [1, 2, 3] }, message: "3 stray bytes after gzip member 1"),
        Damage(name: "a second member cut", change: { $0 + $0.prefix(30) }, message: "truncated"),
    ]

    @Test(arguments: damages)
    func damagedMembersAreRefusedWithTheReason(_ damage: Damage) throws {
        let member = try GzipCompression.fast.gzip(smallDocument(items: 20).canonicalJSON())
        let damaged = damage.change(member)
        let error = #expect(throws: GzipError.self) { try damaged.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) } }
        #expect(error?.kind == .corruptGzip)
        #expect(error?.message.contains(damage.message) == true, "\(String(describing: error?.message))")
        #expect(try systemGzip(["-t"], input: damaged).status != 0, "the system's gzip refuses it too")
    }
}
