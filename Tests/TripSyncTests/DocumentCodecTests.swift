import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncCore

/// Canonical writing, reading back, gzip and the limits.
@Suite struct DocumentCodecTests {
    @Test(arguments: [0, 1, 25, 400])
    func canonicalRoundTripIsByteIdentical(items: Int) throws {
        let document = smallDocument(seed: UInt64(items) + 1, items: items)
        let first = document.canonicalJSON()
        let loaded = try TripFileReader().read(bytes: first, file: "a.trip.json")
        #expect(loaded.document == document)
        #expect(loaded.document.canonicalJSON() == first)
        #expect(first.last == 0x0A)
    }

    @Test func canonicalFormSortsKeysAndHasNoWhitespace() throws {
        let document = smallDocument(items: 1)
        let text = String(decoding: document.canonicalJSON(), as: UTF8.self)
        #expect(text.hasPrefix("{\"acks\":{"))
        #expect(!text.dropLast().contains("\n"))
        #expect(!text.contains(": "))
        let keys = ["\"acks\"", "\"clock\"", "\"deviceId\"", "\"devices\"", "\"items\"", "\"schemaVersion\"", "\"tombstones\"", "\"trip\"", "\"tripId\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())
    }

    @Test func nonCanonicalLayoutReadsAndIsRewrittenCanonically() throws {
        let document = smallDocument(items: 2)
        let canonical = document.canonicalJSON()
        // Pretty-print with Python-like spacing and escaped slashes: same document.
        var text = String(decoding: canonical, as: UTF8.self)
        text = text.replacingOccurrences(of: ",\"", with: ",\n  \"").replacingOccurrences(of: "/", with: "\\/")
        let loaded = try TripFileReader().read(bytes: Array(text.utf8), file: "pretty.json")
        #expect(loaded.document.canonicalJSON() == canonical)
    }

    @Test func escapingIsCanonical() throws {
        var document = smallDocument(items: 1)
        let id = try #require(document.items.keys.first)
        let note = "Line 1\nLine 2\t\"quoted\" \\ back — ünïcödé 🏖"
        document.items[id]?.note?.value = note
        let json = document.canonicalJSON()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("Line 1\\nLine 2\\t\\\"quoted\\\" \\\\ back — ünïcödé 🏖"))
        let loaded = try TripFileReader().read(bytes: json, file: "n.json")
        #expect(loaded.document.items[id]?.note?.value == note)
    }

    /// The version is read first: a newer file is refused by its version alone, whatever the
    /// rest holds (here items of another shape, and a truncated end); a file whose version
    /// cannot be read plainly goes to the strict decoder, which says why.
    @Test(arguments: [
        (#"{"acks":{},"items":{"x":{"shape":"of schema 8"}},"schemaVersion":8,"trip":{"#, 8),
        (#"{ "schemaVersion" : 8 }"#, 8),
    ])
    func aNewerVersionIsRefusedBeforeTheRestIsDecoded(text: String, version: Int) throws {
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("read \(text)")
            return
        }
        #expect(error.kind == .newerSchema(found: version, supported: TripDocument.currentSchemaVersion))
        #expect(error.issues.map(\.pointer) == ["/schemaVersion"])
    }

    @Test func aVersionBelowOneIsRefused() throws {
        guard case .failure(let zero) = readTrip(bytes(#"{"schemaVersion":0,"x":"#)) else { throw CancellationError() }
        #expect(zero.kind == .unsupportedSchema(found: 0))
    }

    /// Not plain: an exponent, an escaped key, a second key, no version at all. These go to
    /// the strict decoder, which says why.
    @Test(arguments: [#"{"schemaVersion":3e0}"#, #"{"schema\u0056ersion":3}"#, #"{"x":1}"#, "[3]"])
    func aVersionThatIsNotPlainGoesToTheStrictDecoder(text: String) throws {
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("read \(text)")
            return
        }
        #expect(error.kind == .invalid || error.kind == .notJSON, "\(text): \(error)")
    }

    /// The probe finds the version the strict decoder finds in every sample, gzip or not.
    @Test func theProbeAgreesWithTheReaderOnEverySample() throws {
        let folders = ["", "/invalid", "/warnings", "/v1", "/v1/invalid", "/v3", "/v3/invalid", "/v4", "/v4/invalid", "/v4/warnings", "/v5", "/v5/invalid"].map { PackagePaths.samples + $0 }
        var compared = 0
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.contains(".trip.json") {
                let path = folder + "/" + name
                let report = TripFileReader().validate(path: path)
                guard report.isValid || report.schemaVersion != nil else { continue }
                var json = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
                if name.hasSuffix(".gz") {
                    guard let inflated = try? json.withUnsafeBytes({ try Gzip.decompress($0, limits: .standard) }) else { continue }
                    json = inflated
                }
                let found: Int64? = json.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
                    return SchemaVersionProbe(JSONScanner(base: base, count: buffer.count), delimitsItems: true).version
                }
                #expect(found.map(Int.init) == report.schemaVersion, "\(path)")
                compared += 1
            }
        }
        #expect(compared >= 8)
    }

    @Test func gzipRoundTripAndMagicBytesDecide() throws {
        let document = smallDocument(items: 50)
        let gz = try document.gzipData()
        #expect(gz[0] == 0x1F && gz[1] == 0x8B)
        let loaded = try TripFileReader().read(bytes: gz, file: "named-like-plain.trip.json")
        #expect(loaded.wasGzip)
        #expect(loaded.document == document)
        let plain = try TripFileReader().read(bytes: document.canonicalJSON(), file: "named-like.trip.json.gz")
        #expect(!plain.wasGzip)
    }

    @Test func concatenatedGzipMembersAreRead() throws {
        let json = smallDocument(items: 5).canonicalJSON()
        let half = json.count / 2
        let document = try TripFileReader().read(bytes: json, file: "x").document
        let first = try gzip(Array(json[..<half]))
        let second = try gzip(Array(json[half...]))
        let loaded = try TripFileReader().read(bytes: first + second, file: "two-members.gz")
        #expect(loaded.document == document)
        guard case .failure(let error) = readTrip(first + second + [1, 2, 3]) else {
            Issue.record("accepted trailing garbage after gzip members")
            return
        }
        #expect(error.kind == .corruptGzip)
    }

    func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        // A document's gzip helper compresses canonical JSON; for raw halves use a scratch doc path.
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/x.json"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-f", path]
        try process.run()
        process.waitUntilExit()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
    }

    @Test func inflateStopsAtTheRatioAndSizeLimits() throws {
        // 20 MB of spaces after a valid start compresses about 1000:1.
        let bomb = try gzip(Array(repeating: UInt8(ascii: " "), count: 20 << 20))
        guard case .failure(let error) = readTrip(bomb) else {
            Issue.record("inflated a gzip bomb")
            return
        }
        #expect(error.kind == .tooLarge)
        #expect(error.description.contains("200 times its compressed size"))
        let json = smallDocument(items: 200).canonicalJSON()
        let gz = try gzip(json)
        let strict = TripFileReader(inflateLimits: InflateLimits(maxOutputBytes: json.count - 1))
        guard case .failure(let sizeError) = readTrip(gz, reader: strict) else {
            Issue.record("inflated past the size limit")
            return
        }
        #expect(sizeError.kind == .tooLarge)
        #expect(sizeError.description.contains("size limit of \(json.count - 1) bytes"))
        #expect((try? TripFileReader(inflateLimits: InflateLimits(maxOutputBytes: json.count)).read(bytes: gz, file: "ok")) != nil)
    }

    @Test func truncatedAtEveryByteIsRefused() throws {
        let document = smallDocument(items: 2)
        let json = document.canonicalJSON()
        let gz = try document.gzipData()
        for length in 0..<(json.count - 1) {
            // Cutting the final newline still leaves the whole value; anything shorter is refused.
            if case .success = readTrip(Array(json[..<length])) { Issue.record("accepted JSON cut at \(length)") }
        }
        for length in 0..<gz.count {
            guard case .failure(let error) = readTrip(Array(gz[..<length])) else {
                Issue.record("accepted gzip cut at \(length)")
                continue
            }
            if length >= 10 { #expect(error.kind == .corruptGzip, "cut at \(length): \(error)") }
        }
    }

    @Test func singleBitFlipsNeverCrashAndGzipDataFlipsAreRefused() throws {
        let document = smallDocument(items: 2)
        let gz = try document.gzipData()
        // Bytes 4...9 of the gzip header (mtime, flags, OS) are not covered by the CRC, and
        // deflate has bits that change nothing (padding, codes for unused symbols): a flip there
        // may be accepted only if it inflates to exactly the same document.
        var gzRefused = 0
        for index in 10..<gz.count {
            for bit in 0..<8 {
                var flipped = gz
                flipped[index] ^= UInt8(1 << bit)
                switch readTrip(flipped) {
                case .failure: gzRefused += 1
                case .success(let loaded):
                    #expect(loaded.document == document, "a flip at byte \(index) bit \(bit) changed the content")
                }
            }
        }
        #expect(gzRefused > (gz.count - 10) * 8 * 95 / 100)
        let json = document.canonicalJSON()
        var refused = 0
        var total = 0
        for index in stride(from: 0, to: json.count, by: 3) {
            for bit in 0..<8 {
                var flipped = json
                flipped[index] ^= UInt8(1 << bit)
                total += 1
                switch readTrip(flipped) {
                case .failure: refused += 1
                case .success(let loaded):
                    // An accepted flip (a letter in a title) must still be a valid, canonical document.
                    let again = loaded.document.canonicalJSON()
                    #expect((try? TripFileReader().read(bytes: again, file: "again")) != nil)
                }
            }
        }
        #expect(refused > total * 3 / 4, "\(refused) of \(total) refused")
    }

    @Test func moreThan100000ItemsIsRefused() throws {
        var document = smallDocument(items: 1)
        let template = try #require(document.items.values.first)
        var generator = TripGenerator(seed: 99)
        for _ in 0..<100_000 { document.items[generator.identifier()] = template }
        guard case .failure(let error) = readTrip(document.canonicalJSON()) else {
            Issue.record("accepted 100,001 items")
            return
        }
        #expect(error.errors.contains { $0.pointer == "/items" && $0.message.contains("more than 100000 items") })
    }

    @Test func writesAreAtomicAtAFixedMode() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/trip.trip.json.gz"
        let document = smallDocument(items: 3)
        try document.write(to: path)
        // Whatever mode was at the path (world-writable, setuid), the new file has the fixed one.
        #expect(chmod(path, 0o4777) == 0)
        try document.write(to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        #expect(try TripFileReader().read(path: path).document == document)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(leftovers == ["trip.trip.json.gz"])
    }
}
