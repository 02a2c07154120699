import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncCore

/// Large files are read in two steps: a strict pass that only delimits the live items, then the
/// items decoded on every core, each once when several files of a batch hold the same bytes
/// (`DeferredItems`). That path must give exactly the answer of one strict pass: the same
/// document and warnings, or the same refusal. Each test reads the same bytes both ways.
@Suite struct DeferredDecodingTests {
    /// Every file of any size takes the deferred path, and keeps canonical item bytes (so each
    /// comparison of canonical output also checks the bytes it copies).
    static let deferred: TripFileReader = {
        var reader = TripFileReader()
        reader.deferredDecodingMinimumBytes = 0
        reader.keepsItemBytes = true
        return reader
    }()

    /// One strict pass, always.
    static let strict: TripFileReader = {
        var reader = TripFileReader()
        reader.deferredDecodingMinimumBytes = .max
        return reader
    }()

    /// What a read said, in a comparable form.
    enum Answer: Equatable, CustomStringConvertible {
        case loaded(document: TripDocument, canonical: [UInt8], warnings: [ValidationIssue], schema: Int, size: Int, gzip: Bool)
        case refused(TripFileError)

        init(_ result: Result<LoadedTrip, TripFileError>) {
            switch result {
            case .success(let loaded):
                self = .loaded(
                    document: loaded.document, canonical: loaded.document.canonicalJSON(), warnings: loaded.warnings,
                    schema: loaded.sourceSchemaVersion, size: loaded.jsonByteCount, gzip: loaded.wasGzip)
            case .failure(let error): self = .refused(error)
            }
        }

        var description: String {
            switch self {
            case .loaded(let document, _, let warnings, _, _, _): return "loaded \(document.items.count) items, warnings \(warnings)"
            case .refused(let error): return "refused: \(error)"
            }
        }
    }

    static func strictAnswers(_ paths: [String]) -> [Answer] {
        paths.map { path in Answer(Result { () throws(TripFileError) -> LoadedTrip in try strict.read(path: path) }) }
    }

    @Test func everySampleReadsAlikeBothWays() throws {
        let root = PackagePaths.samples
        let files = try FileManager.default.subpathsOfDirectory(atPath: root)
            .filter { ($0.hasSuffix(".json") || $0.hasSuffix(".gz")) && !$0.hasSuffix("index.json") }
            .sorted()
        #expect(files.count >= 60)
        var refused = 0
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: root + "/" + file))
            let expected = Answer(readTrip(Array(bytes), file: file, reader: Self.strict))
            let got = Answer(readTrip(Array(bytes), file: file, reader: Self.deferred))
            #expect(got == expected, "\(file)")
            if case .refused = expected { refused += 1 }
        }
        #expect(refused >= 60)  // the invalid samples, v2 and v1
    }

    /// The benchmark's diverged pair: most items are byte-identical and decoded once.
    /// Every saved FuzzRead regression reads alike both ways: among them a file broken inside
    /// its items that declares schema 1 after them, where the two-step path's probe (which jumps
    /// over items by shape) found the version and the strict probe did not, so the two refusals
    /// named different pointers (found by FuzzRead in CI).
    @Test func everyFuzzRegressionReadsAlikeBothWays() throws {
        let root = PackagePaths.root + "/Fuzz/regressions/read"
        let files = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        #expect(files.contains("two-step-probe-finds-version-past-broken-items"))
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: root + "/" + file))
            let expected = Answer(readTrip(Array(bytes), file: file, reader: Self.strict))
            let got = Answer(readTrip(Array(bytes), file: file, reader: Self.deferred))
            #expect(got == expected, "\(file)")
        }
    }

    @Test func aDivergedPairReadsAlikeInAnyOrderAndRepeated() throws {
        let scenario = try MergeScenario(items: 1_200, seed: 5)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = try writeScenario(scenario, in: folder, names: ("a.trip.json.gz", "b.trip.json"))
        let (a, b) = (written[0], written[1])
        for paths in [[a, b], [b, a], [a, b, a, b], [b]] {
            let got = Self.deferred.read(paths: paths).map(Answer.init)
            #expect(got == Self.strictAnswers(paths))
        }
        let both = Self.deferred.read(paths: [a, b])
        #expect(try both[0].get().document == scenario.a)
        #expect(try both[1].get().document == scenario.b)
        // Shared items are one value, not a copy.
        let loadedA = try both[0].get().document
        let loadedB = try both[1].get().document
        let shared = loadedB.items.filter { id, fields in loadedA.items[id].map { $0.isIdentical(to: fields) } ?? false }
        #expect(shared.count > loadedB.items.count / 2)
    }

    /// Bytes broken anywhere in the second file (mostly inside items, where the deferred path
    /// only delimits at first): the same refusal, message and pointer, as one strict pass.
    @Test func brokenBytesAreRefusedAlike() throws {
        let scenario = try MergeScenario(items: 400, seed: 9)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = folder + "/a.trip.json"
        let b = folder + "/b.trip.json"
        try scenario.a.write(to: a)
        let original = scenario.b.canonicalJSON()
        let replacements: [UInt8] = Array("\"\\{}[],:0x n".utf8) + [0x00, 0x1F, 0xC3, 0xFF, 0x7F]
        var random = SeededGenerator(seed: 2026)
        var refusals = 0
        for round in 0..<100 {
            var bytes = original
            switch round % 4 {
            case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = replacements.randomElement(using: &random) ?? 0
            case 1: bytes.removeLast(Int.random(in: 1..<bytes.count, using: &random))
            case 2: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
            default:
                // A stretch of the file copied over another place: well-formed pieces in the
                // wrong spot, brackets that still balance.
                let length = Int.random(in: 1...400, using: &random)
                let from = Int.random(in: 0..<(bytes.count - length), using: &random)
                let to = Int.random(in: 0..<(bytes.count - length), using: &random)
                bytes.replaceSubrange(to..<(to + length), with: original[from..<(from + length)])
            }
            try Data(bytes).write(to: URL(fileURLWithPath: b))
            let got = Self.deferred.read(paths: [a, b]).map(Answer.init)
            let expected = Self.strictAnswers([a, b])
            #expect(got == expected, "round \(round)")
            if case .refused = expected[1] { refusals += 1 }
        }
        #expect(refusals > 60)
    }

    /// An item byte-identical to the first file's is checked against the second file's own
    /// clock: a dot above it refuses the second file, as a strict read does.
    @Test func aSharedItemAboveTheFilesClockIsRefused() throws {
        var generator = TripGenerator(seed: 21)
        let a = generator.document(itemCount: 300)
        var b = a
        let (device, counter) = try #require(a.clock.entries.max { $0.value < $1.value })
        b.clock[device] = counter - 1
        b.acks = [:]
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = [folder + "/a.trip.json", folder + "/b.trip.json"]
        try a.write(to: paths[0])
        try Data(b.canonicalJSON()).write(to: URL(fileURLWithPath: paths[1]))
        let expected = Self.strictAnswers(paths)
        guard case .refused(let error) = expected[1] else {
            Issue.record("the lowered clock should refuse the file")
            return
        }
        #expect(error.description.contains("above the document's clock"))
        #expect(Self.deferred.read(paths: paths).map(Answer.init) == expected)
    }

    /// The delimiting skip ends exactly where the strict scanner ends, on values with every
    /// kind of string escape and nesting; cut short, it says so instead of running past.
    @Test func theUncheckedSkipEndsWhereTheStrictScannerEnds() throws {
        var random = SeededGenerator(seed: 77)
        let pieces = ["a", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "é", "😀", " ", "}", "]", "{", "[", ",", ":", "\\/"]
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 5 ? 3 : 6), using: &random) {
            case 0: return String(Int.random(in: -1_000_000...1_000_000, using: &random))
            case 1: return ["null", "true", "false"].randomElement(using: &random) ?? "null"
            case 2: return "\"" + (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "a" }.joined() + "\""
            case 3: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default:
                return "{" + (0..<Int.random(in: 0...3, using: &random)).map { index in "\"k\(index)\":" + value(depth + 1) }.joined(separator: ",") + "}"
            }
        }
        for _ in 0..<500 {
            let text = value(0)
            let bytes = Array((text + " ,]").utf8)
            try bytes.withUnsafeBufferPointer { buffer in
                let base = try #require(buffer.baseAddress)
                var strict = JSONScanner(base: base, count: buffer.count)
                try strict.skipValue()
                var unchecked = JSONScanner(base: base, count: buffer.count)
                let ended = unchecked.skipValueUnchecked()
                #expect(ended)
                #expect(unchecked.offset == strict.offset, "\(text)")
                #expect(unchecked.offset == text.utf8.count)
                // Cut inside a container or string: never past the end, and not a whole value.
                if text.first == "{" || text.first == "[" || text.first == "\"" {
                    var cut = JSONScanner(base: base, count: text.utf8.count - 1)
                    let cutEnded = cut.skipValueUnchecked()
                    #expect(!cutEnded)
                    #expect(cut.offset <= text.utf8.count - 1)
                }
            }
        }
    }

    /// The skip passes whole words inside strings; on any bytes at all (broken JSON too) it
    /// stops where a skip of one byte at a time stops, with the same answer.
    @Test func theUncheckedSkipMatchesOneByteAtATime() throws {
        // One byte at a time: strings (with escapes) and bracket depth, as the skip promises.
        func reference(_ bytes: [UInt8]) -> (Bool, Int) {
            var offset = 0
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
            var level = 0
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x22:
                    offset += 1
                    while offset < bytes.count, bytes[offset] != 0x22 { offset += bytes[offset] == 0x5C ? 2 : 1 }
                    guard offset < bytes.count else { return (false, bytes.count) }
                    offset += 1
                    if level == 0 { return (true, offset) }
                case 0x7B, 0x5B:
                    level += 1
                    offset += 1
                case 0x7D, 0x5D:
                    guard level > 0 else { return (false, offset) }
                    level -= 1
                    offset += 1
                    if level == 0 { return (true, offset) }
                default:
                    if level == 0 {
                        while offset < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
                        return (true, offset)
                    }
                    offset += 1
                }
            }
            return (false, offset)
        }
        var random = SeededGenerator(seed: 2026)
        // Structural bytes, bytes one bit away from them (near misses for a word-at-a-time test),
        // and ordinary text.
        let alphabet: [UInt8] = Array("\"\\{}[]:,0123456789 \n\tYy_aZ".utf8) + [0x5A, 0x5C, 0x7A, 0x7C, 0x7E, 0x7F, 0x3B, 0x3D, 0x01, 0x00, 0x80, 0xA2, 0xDB, 0xFB, 0xFD, 0xFF]
        for round in 0..<20_000 {
            let length = Int.random(in: 0...48, using: &random)
            var bytes = (0..<length).map { _ in alphabet.randomElement(using: &random) ?? 0x61 }
            // Most inputs open a container, so the skip goes on past the first string.
            if round % 4 != 0 { bytes.insert(round % 2 == 0 ? 0x7B : 0x5B, at: 0) }
            let expected = reference(bytes)
            try bytes.withUnsafeBufferPointer { buffer in
                let base = try #require(buffer.baseAddress ?? UnsafePointer(bitPattern: 1))
                var scanner = JSONScanner(base: base, count: buffer.count)
                let ended = scanner.skipValueUnchecked()
                #expect(ended == expected.0 && scanner.offset == expected.1, "\(bytes)")
            }
        }
    }
}
