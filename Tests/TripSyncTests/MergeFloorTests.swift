import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncPlatform
@testable import TripSyncCore

/// Issue 30, the merge at its floor: the work a merge no longer does twice must not change what
/// it says or writes. The report's conflict count (counted once by the merge, no list built)
/// equals what `ConflictList` lists, and the merged JSON of the benchmark's pair is the same
/// bytes as before the speed work.
@Suite struct MergeFloorTests {
    /// SHA-256 of the canonical JSON `FileMergeJob` writes for `MergeScenario(items: 10_000,
    /// seed: 42)` (the pair `tripsync-bench generate --items 10000` writes) merged by
    /// `writer`, recorded before issue 30: the release `tripsync merge` of main at 53fa057 on
    /// that pair, its one `deviceId` replaced by this writer's id, gives the same hash.
    static let mergedJSONSHA256 = "91f200275b8c0d6f74a89af24c9a18c95457dc3f74d4a039d0af4e9d7e8e81ee"
    /// The hash of the same bytes as schema 5 wrote them (before issue 43): schemas 6 and 7
    /// changed the version number and nothing else of this merge.
    static let mergedJSONSchema5SHA256 = "22a42be9d52fc0310dafa04c34d9fda4085b9f94fce1012f3d861f9df80b825e"
    static let writer = DeviceID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)

    @Test func theCountedSummaryEqualsTheListedOneThroughSeededHistories() throws {
        var seen = (fields: 0, edited: 0, registers: 0)
        for seed in 0..<UInt64(200) {
            var simulation = try MergeSimulationTests.Simulation(seed: seed &+ 7_000_000)
            let steps = Int.random(in: 10...50, using: &simulation.random)
            for _ in 0..<steps {
                try simulation.step()
                for document in simulation.replicas {
                    let list = ConflictList(document)
                    #expect(ConflictSummary(document) == ConflictSummary(list), "seed \(seed)")
                    seen.fields += list.fields.count
                    seen.edited += list.deletedWhileEdited.count
                    seen.registers += list.registers.count
                }
            }
        }
        // The histories made every kind of conflict the summary counts.
        #expect(seen.fields > 0 && seen.edited > 0 && seen.registers > 0, "\(seen)")
    }

    @Test func theMergedJSONOfTheBenchmarkPairIsUnchangedAndTheReportCountsItsConflicts() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = try MergeScenario(items: 10_000, seed: 42)
        let a = folder + "/a.trip.json.gz"
        let b = folder + "/b.trip.json.gz"
        try scenario.a.write(to: a)
        try scenario.b.write(to: b)
        let output = folder + "/m.trip.json.gz"
        let summary = try FileMergeJob(files: [a, b], output: output).run(writer: Self.writer)
        let gzip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        let json = try gzip.withUnsafeBytes { try Gzip.decompress($0, limits: .standard) }
        #expect(json == summary.result.document.canonicalJSON())
        #expect(SHA256.hex(SHA256.digest(json)) == Self.mergedJSONSHA256)
        let asSchema5 = Array(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":7,", with: "\"schemaVersion\":5,").utf8)
        #expect(SHA256.hex(SHA256.digest(asSchema5)) == Self.mergedJSONSchema5SHA256)
        #expect(summary.conflicts == ConflictList(summary.result.document).summary)
        #expect(summary.conflicts == ConflictSummary(fields: 238, editedWhileDeleted: 50))
    }
}
