import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncCore
@testable import TripSyncHome

/// Items read in exactly the bytes the canonical writer writes keep them, and writing them
/// again copies them (`TripFileReader.keepsItemBytes`). Anything else in an item's bytes
/// (whitespace, an escape the writer would not write, keys or conflicts out of order) has the
/// item encoded again; the output is the same canonical bytes either way.
@Suite struct CanonicalBytesTests {
    /// Takes the two-step read for every file, keeping canonical item bytes.
    static let keeping = DeferredDecodingTests.deferred

    /// Ways an item's bytes can depart from the canonical form without changing its value.
    enum Departure: CaseIterable, Sendable {
        case spaceAfterColons, fieldsOutOfOrder, registerKeysOutOfOrder, escapedLetter, newlineAsUnicodeEscape
        case escapedSolidus, timeKeysOutOfOrder, conflictsOutOfOrder, conflictKeysOutOfOrder
    }

    /// The note of the target item: the writer escapes its quotes and newline (`\"`, `\n`).
    static let note = "Bring the \"Lisboa Card\"\nand the tickets for 10/06"

    /// A generated trip whose item `target` starts at a local time in a zone, has a title with
    /// two conflicts (from both devices, below the clock) and a note the writer escapes.
    static func trip() throws -> (document: TripDocument, target: ItemID) {
        var generator = TripGenerator(seed: 31)
        var document = generator.document(itemCount: 40)
        let target = try #require(
            document.items.keys.sorted().first { id in
                if case .local? = document.items[id]?.start?.value { return true }
                return false
            })
        var title = try #require(document.items[target]?.title)
        // Two writes older than the winner (lower counters), one from each device.
        let devices = document.clock.entries.keys.sorted()
        try #require(devices.count >= 2)
        let below = { (device: DeviceID, by: UInt64) in
            Rev(counter: min(title.rev.counter, document.clock[device]) - by, device: device)
        }
        title.conflicts = [
            Versioned(value: "Older title", rev: below(devices[0], 1)),
            Versioned(value: "Oldest title", rev: below(devices[1], 2)),
        ].sorted { $0.rev > $1.rev }
        document.items[target]?.title = title
        document.items[target]?.note?.value = note
        return (document, target)
    }

    /// `value` (an item) as JSON text, canonical except for `departure`.
    static func render(_ value: JSONValue, _ departure: Departure?, path: [String] = []) -> String {
        switch value {
        case .object(let members):
            var keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let reversed: Bool
            switch departure {
            case .fieldsOutOfOrder?: reversed = path.isEmpty
            case .registerKeysOutOfOrder?: reversed = path == ["title"]
            case .timeKeysOutOfOrder?: reversed = path == ["start", "value"]
            case .conflictKeysOutOfOrder?: reversed = path == ["title", "conflicts", "0"]
            default: reversed = false
            }
            if reversed { keys.reverse() }
            let colon = departure == .spaceAfterColons && path.isEmpty ? ": " : ":"
            let body = keys.map { key in
                JSONValue.string(key).text + colon + render(members[key] ?? .null, departure, path: path + [key])
            }
            return "{" + body.joined(separator: ",") + "}"
        case .array(let elements):
            var rendered = elements.enumerated().map { index, element in render(element, departure, path: path + [String(index)]) }
            if departure == .conflictsOutOfOrder && path == ["title", "conflicts"] { rendered.reverse() }
            return "[" + rendered.joined(separator: ",") + "]"
        case .string(let text) where departure == .escapedLetter && path == ["title", "value"]:
            guard let first = text.unicodeScalars.first, first.value < 0x10000 else { return value.text }
            return "\"\\u" + String(format: "%04x", first.value) + String(JSONValue.string(String(text.unicodeScalars.dropFirst())).text.dropFirst())
        case .string where departure == .newlineAsUnicodeEscape && path == ["note", "value"]:
            return value.text.replacingOccurrences(of: "\\n", with: "\\u000a")
        case .string where departure == .escapedSolidus && path == ["note", "value"]:
            return value.text.replacingOccurrences(of: "/", with: "\\/")
        default:
            return value.text
        }
    }

    @Test func canonicalItemsKeepTheirBytesAndTheWriteIsTheSame() throws {
        let (document, _) = try Self.trip()
        let canonical = document.canonicalJSON()
        let loaded = try Self.keeping.read(bytes: canonical, file: "trip.json")
        #expect(loaded.document == document)
        // Every item keeps its bytes, those with the writer's own escapes too.
        let escaped = try Self.itemTexts(canonical).filter { $0.value.contains("\\") }.map(\.key)
        #expect(escaped.count > 1)
        #expect(loaded.document.items.values.allSatisfy { $0.storage.canonicalBytes != nil })
        #expect(loaded.document.canonicalJSON() == canonical)
        #expect(try loaded.document.gzipData() == document.gzipData())
        // Not asked for: no bytes kept.
        var plain = Self.keeping
        plain.keepsItemBytes = false
        #expect(try plain.read(bytes: canonical, file: "trip.json").document.items.values.allSatisfy { $0.storage.canonicalBytes == nil })
    }

    /// Each item's canonical text, by id, from the document's canonical JSON.
    static func itemTexts(_ canonical: [UInt8]) throws -> [ItemID: String] {
        guard case .object(let root) = try JSONValue.parse(canonical), case .object(let items)? = root["items"] else { return [:] }
        var texts: [ItemID: String] = [:]
        for (key, item) in items {
            if let id = Identifier(key) { texts[id] = render(item, nil) }
        }
        return texts
    }

    @Test(arguments: Departure.allCases)
    func anItemNotInCanonicalBytesIsEncodedAgain(departure: Departure) throws {
        let (document, target) = try Self.trip()
        let canonical = document.canonicalJSON()
        guard case .object(let root) = try JSONValue.parse(canonical), case .object(let items)? = root["items"],
            let item = items[target.description]
        else {
            Issue.record("the canonical JSON has no item \(target)")
            return
        }
        let key = "\"\(target)\":"
        let exact = Self.render(item, nil)
        let departing = Self.render(item, departure)
        let text = String(decoding: canonical, as: UTF8.self)
        #expect(text.contains(key + exact), "the test's renderer is canonical")
        #expect(departing != exact)
        let changed = Array(text.replacingOccurrences(of: key + exact, with: key + departing).utf8)

        let loaded = try Self.keeping.read(bytes: changed, file: "departing.json")
        #expect(loaded.document == document, "the same value, read from other bytes")
        #expect(loaded.document.items[target]?.storage.canonicalBytes == nil)
        #expect(loaded.document.items.filter { $0.value.storage.canonicalBytes == nil }.count == 1)
        #expect(loaded.document.canonicalJSON() == canonical)
    }

    @Test func changingAnItemDropsItsBytes() throws {
        let (document, target) = try Self.trip()
        var loaded = try Self.keeping.read(bytes: document.canonicalJSON(), file: "trip.json").document
        let before = try #require(loaded.items[target])
        loaded.items[target]?.title?.value = "Dinner at Cervejaria Ramiro"
        #expect(loaded.items[target]?.storage.canonicalBytes == nil)
        #expect(before.storage.canonicalBytes != nil, "a copy taken before the change keeps them")
        let json = loaded.canonicalJSON()
        #expect(Array((try JSONValue.parse(json).text + "\n").utf8) == json, "an independent writer agrees")
        #expect(String(decoding: json, as: UTF8.self).contains("Dinner at Cervejaria Ramiro"))
        var expected = document
        expected.items[target]?.title?.value = "Dinner at Cervejaria Ramiro"
        #expect(json == expected.canonicalJSON())
    }

    @Test func aMergedFileIsTheInMemoryMerge() throws {
        let scenario = try MergeScenario(items: 1_200, seed: 8)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try writeScenario(scenario, in: folder)
        let writer = Identifier.random()
        let result = try FileMerger(writer: writer).merge(files: files)
        let reused = result.document.items.values.filter { $0.storage.canonicalBytes != nil }.count
        #expect(reused > result.document.items.count / 2, "most items are copied, \(reused) of \(result.document.items.count)")
        let inMemory = try DocumentMerger.merge(scenario.a, scenario.b, writer: writer)
        #expect(result.document == inMemory)
        #expect(result.document.canonicalJSON() == inMemory.canonicalJSON())
        try result.document.write(to: folder + "/m.trip.json.gz")
        #expect(try TripFileReader().read(path: folder + "/m.trip.json.gz").document.canonicalJSON() == inMemory.canonicalJSON())
    }
}
