import Foundation
import Testing
@testable import TripSync
@testable import TripSyncCore

/// Schema 1 → 2: each step alone, the chain, and v1 → v2 → merge against the expected result.
@Suite struct MigrationTests {
    static let trip = Identifier("518f24af-7a6a-40e8-b76e-e39001eb1451")!
    static let device = Identifier("a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d")!

    static func row(
        _ id: String, instant: Int64?, zone: String?, rev: UInt64 = 3, dirty: Bool = false, deletedAt: Int64? = nil
    ) -> TripDocumentV1.Row {
        TripDocumentV1.Row(
            itemID: Identifier(id)!, tripID: trip, title: "Row \(id.prefix(4))", sortKey: "V", startInstant: instant,
            startZoneID: zone, place: nil, note: "n", serverRev: rev, deletedAt: deletedAt, dirty: dirty)
    }

    func migrate(_ rows: [TripDocumentV1.Row], bytes: [UInt8] = Array("file".utf8)) throws(MigrationFailure) -> (TripDocument, MigrationContext) {
        let v1 = TripDocumentV1(tripID: Self.trip, deviceID: Self.device, name: "Porto 2027", rows: rows)
        return try bytes.withUnsafeBufferPointer { buffer throws(MigrationFailure) in
            var context = MigrationContext(
                sourceBytes: buffer, zones: ZoneRules(), summary: MigrationSummary(fromVersion: 1, toVersion: 2, steps: []))
            let document = try Migration1To2.migrate(v1, &context)
            return (document, context)
        }
    }

    static func ms(_ text: String) -> Int64 {
        (LocalTimeParser.timestamp(text)?.secondsSinceEpoch ?? 0) * 1000
    }

    @Test(arguments: [
        // 09:00Z in Lisbon in June is local 10:00.
        ("2027-06-10T09:00:00Z", "Europe/Lisbon", "2027-06-10T10:00", false),
        // Far from UTC: +05:45 and +14:00 (the next calendar day).
        ("2027-06-13T10:15:00Z", "Asia/Kathmandu", "2027-06-13T16:00", false),
        ("2027-06-12T18:30:00Z", "Pacific/Kiritimati", "2027-06-13T08:30", false),
        ("2027-06-10T12:00:00Z", "America/New_York", "2027-06-10T08:00", false),
        ("2027-06-10T12:00:00Z", "Australia/Lord_Howe", "2027-06-10T22:30", false),
        // The Lisbon fall-back overlap: 00:30Z is the first 01:30, 01:30Z the second (warned).
        ("2027-10-31T00:30:00Z", "Europe/Lisbon", "2027-10-31T01:30", false),
        ("2027-10-31T01:30:00Z", "Europe/Lisbon", "2027-10-31T01:30", true),
    ])
    func instantsBecomeLocalTimesByTheZonesRules(instant: String, zone: String, local: String, warned: Bool) throws {
        let id = "38af4aad-ebec-4a17-b5a0-60817470f62b"
        let (document, context) = try migrate([Self.row(id, instant: Self.ms(instant), zone: zone)])
        let start = try #require(document.items[Identifier(id)!]?.start?.value)
        #expect(start == .local(LocalTimeParser.dateTime(local)!, zone: zone))
        #expect(context.warnings.isEmpty != warned)
    }

    @Test func revsComeFromTheLegacyWriterAndDirtyRowsFromTheFile() throws {
        let clean = Self.row("38af4aad-ebec-4a17-b5a0-60817470f62b", instant: nil, zone: nil, rev: 3)
        let dirty = Self.row("28d4f9c6-01f3-45cc-a453-e255425eef68", instant: nil, zone: nil, rev: 2, dirty: true)
        let deleted = Self.row("4468dd6d-b204-4c3c-90d9-71e3365085d9", instant: nil, zone: nil, rev: 4, deletedAt: 1_780_000_000_512)
        let (document, context) = try migrate([clean, dirty, deleted], bytes: Array("one file".utf8))
        let legacy = Migration1To2.legacyWriter
        #expect(legacy.description == "00000000-0000-4000-8000-000000000001")
        #expect(document.items[clean.itemID]?.title?.rev == Rev(counter: 3, device: legacy))
        let dirtyRev = try #require(document.items[dirty.itemID]?.title?.rev)
        #expect(dirtyRev.device != legacy && dirtyRev.device != Self.device)
        #expect(dirtyRev.counter > 4, "above every legacy dot")
        #expect(document.clock[legacy] == 4)
        let tombstone = try #require(document.tombstones[deleted.itemID])
        #expect(tombstone.deleted.value.at.description == "2026-05-28T20:26:40Z")
        #expect(tombstone.item.title?.value == deleted.title)
        #expect(document.editedWhileDeleted(deleted.itemID).isEmpty)
        #expect(context.summary.items == 2 && context.summary.tombstones == 1 && context.summary.dirtyItems == 1)
        // Re-migrating the same bytes gives the same dots; other bytes never share the dirty writer.
        let (again, _) = try migrate([clean, dirty, deleted], bytes: Array("one file".utf8))
        #expect(again == document)
        let (other, _) = try migrate([clean, dirty, deleted], bytes: Array("another file".utf8))
        #expect(other.items[dirty.itemID]?.title?.rev.device != dirtyRev.device)
        #expect(DocumentValidator().issues(in: document).isEmpty)
    }

    @Test func anUnknownZoneOrAPartialMinuteRefusesNamingTheItem() {
        let id = "38af4aad-ebec-4a17-b5a0-60817470f62b"
        #expect {
            try migrate([Self.row(id, instant: 1_812_000_000_000, zone: "Mars/Olympus_Mons")])
        } throws: { error in
            let text = (error as? MigrationFailure)?.issues.map(\.description).joined() ?? ""
            return text.contains(id) && text.contains("Mars/Olympus_Mons") && text.contains("/items/0/startZoneId")
        }
        #expect {
            try migrate([Self.row(id, instant: 1_812_000_000_500, zone: "Europe/Lisbon")])
        } throws: { error in
            ((error as? MigrationFailure)?.issues.first?.message ?? "").contains("not a whole minute")
        }
    }

    @Test func theChainRunsEveryStepInOrder() throws {
        let v1 = TripDocumentV1(tripID: Self.trip, deviceID: Self.device, name: "Porto 2027", rows: [])
        let bytes: [UInt8] = [1, 2, 3]
        let document = try bytes.withUnsafeBufferPointer { buffer in
            var context = MigrationContext(sourceBytes: buffer, zones: ZoneRules(), summary: MigrationSummary(fromVersion: 1, toVersion: 2, steps: []))
            let result = try Migrations.run(.v1(v1), context: &context)
            #expect(context.summary.steps.count == TripDocument.currentSchemaVersion - 1)
            #expect(context.summary.steps.first?.hasPrefix("1→2") == true)
            return result
        }
        #expect(document.trip.name.value == "Porto 2027")
        #expect(Migrations.steps.map(\.from) == Array(1..<TripDocument.currentSchemaVersion))
    }

    /// Both merge orders of the two v1 files give the expected current-schema file byte for byte.
    @Test(arguments: [("porto-alex", "porto-sam"), ("porto-sam", "porto-alex")])
    func v1FilesMigrateAndMergeIntoTheExpectedResult(first: String, second: String) throws {
        let folder = PackagePaths.samples + "/v1/"
        let reader = TripFileReader()
        let x = try reader.read(path: folder + first + ".trip.json")
        let y = try reader.read(path: folder + second + ".trip.json")
        let merged = try DocumentMerger.merge(x.document, y.document, writer: Self.device)
        // Written again from this code when TRIPSYNC_WRITE_EXPECTED=1 (after a schema change).
        if ProcessInfo.processInfo.environment["TRIPSYNC_WRITE_EXPECTED"] == "1" {
            try Data(merged.canonicalJSON()).write(to: URL(fileURLWithPath: folder + "porto-merged.expected.trip.json"))
        }
        let expected = try #require(FileManager.default.contents(atPath: folder + "porto-merged.expected.trip.json"))
        #expect(merged.canonicalJSON() == Array(expected))
    }

    @Test func v1MergeKeepsTheUnconfirmedEditWithoutAConflict() throws {
        let folder = PackagePaths.samples + "/v1/"
        let reader = TripFileReader()
        let alex = try reader.read(path: folder + "porto-alex.trip.json")
        let sam = try reader.read(path: folder + "porto-sam.trip.json")
        #expect(alex.sourceSchemaVersion == 1 && alex.migration?.dirtyItems == 1)
        let merged = try DocumentMerger.merge(alex.document, sam.document, writer: Self.device)
        // The shared server state shows no conflict; Alex's unconfirmed edit wins as an edit.
        #expect(merged.visibleConflictCount == 0)
        #expect(merged.items.values.contains { $0.title?.value == "Dinner at Cantinho do Avillez" })
        #expect(merged.tombstones.count == 1)
    }

    @Test func aNewerFileIsRefusedByEveryReaderPath() {
        let report = TripFileReader().validate(path: PackagePaths.samples + "/invalid/schema-version-newer.trip.json")
        #expect(report.failure?.kind == .newerSchema(found: 8, supported: 7))
        #expect(report.errors.first?.message == "written by a newer TripSync: schema 8, this build reads up to 7")
    }
}
