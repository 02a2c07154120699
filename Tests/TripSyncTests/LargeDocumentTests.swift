import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome

/// Documents large enough to take the parallel paths: the writer's parts of at most 1,500
/// items (encoded and gzipped on every core) and the merge's two-core scan of B's items (from 4,096 items).
@Suite struct LargeDocumentTests {
    /// Parts cover every item once, in order, at most 1,500 each, sizes at most one apart, and
    /// several of them come in fours (so two or four cores finish together).
    @Test(arguments: [0, 1, 1_499, 1_500, 1_501, 4_600, 6_001, 9_900, 10_000, 99_999, 100_000])
    func partsAreEvenAndCoverEveryItem(items: Int) {
        let count = CanonicalWriter.Parts.count(items: items)
        #expect(count == 1 ? items <= 1_500 : count % 4 == 0, "\(items) items")
        let ranges = (0..<count).map { CanonicalWriter.Parts.range($0, of: count, items: items) }
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == items)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        let sizes = ranges.map(\.count)
        #expect((sizes.max() ?? 0) <= 1_500 && (sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(items) items: \(sizes)")
        // No more parts than needed to round up to four.
        #expect(count < 4 || items > (count - 4) * 1_500, "\(items) items in \(count) parts")
    }

    @Test func tenThousandItemsAreEightParts() {
        #expect(CanonicalWriter.Parts.count(items: 10_000) == 8)
    }

    @Test func partsJoinIntoTheCanonicalBytes() throws {
        var generator = TripGenerator(seed: 11)
        let document = generator.document(itemCount: 4_600)  // four parts of 1,150
        let json = document.canonicalJSON()
        // An independent writer (the generic JSON value, keys sorted) gives the same bytes.
        #expect(Array((try JSONValue.parse(json).text + "\n").utf8) == json)
        #expect(try readTrip(json).get().document == document)
        let gzip = try document.gzipData()
        #expect(try readTrip(gzip, file: "large.trip.json.gz").get().document == document)

        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try document.write(to: folder + "/large.trip.json")
        try document.write(to: folder + "/large.trip.json.gz")
        #expect(try FileIO.readFile(folder + "/large.trip.json", maxBytes: 1 << 30) == json)
        #expect(try TripFileReader().read(path: folder + "/large.trip.json.gz").document == document)
    }

    @Test func mergingLargeDocumentsEqualsMergingEachIdAlone() throws {
        let scenario = try MergeScenario(items: 6_000)
        let (a, b) = (scenario.a, scenario.b)
        #expect(b.items.count >= DocumentMerger.parallelItemThreshold)
        let merged = try DocumentMerger.merge(a, b, writer: a.deviceID)
        let swapped = try DocumentMerger.merge(b, a, writer: a.deviceID)
        #expect(merged == swapped)

        // Each id merged on its own (documents of one item: the one-thread path) must come out
        // exactly as in the whole merge.
        func alone(_ document: TripDocument, _ id: ItemID) -> TripDocument {
            var single = document
            single.items = document.items[id].map { [id: $0] } ?? [:]
            single.tombstones = document.tombstones[id].map { [id: $0] } ?? [:]
            return single
        }
        let ids = Set(a.items.keys).union(a.tombstones.keys).union(b.items.keys).union(b.tombstones.keys)
        var mismatches = 0
        for id in ids {
            let expected = try DocumentMerger.merge(alone(a, id), alone(b, id), writer: a.deviceID)
            if merged.items[id] != expected.items[id] || merged.tombstones[id] != expected.tombstones[id] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(merged.items.count + merged.tombstones.count == ids.count)
    }

    @Test func keptInputsChangeNothingButWhenTheyAreFreed() throws {
        let scenario = try MergeScenario(items: 5_000)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try writeScenario(scenario, in: folder)
        let writer = Identifier.random()
        var keeping = FileMerger(writer: writer)
        keeping.keepsInputs = true
        let kept = try keeping.merge(files: files)
        let freed = try FileMerger(writer: writer).merge(files: files)
        #expect(kept.document == freed.document)
        #expect(kept.keptInputs.count == 1)
        #expect(kept.keptInputs.first?.tripID == scenario.b.tripID)
        #expect(freed.keptInputs.isEmpty)
        #expect(kept.document == (try DocumentMerger.merge(scenario.a, scenario.b, writer: writer)))
    }
}
