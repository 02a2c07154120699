import Foundation
import Testing
import TripSync
import TripSyncCore

/// The numbers a team watches (`TeamMetrics`, `status --json` `metrics`), each against a history
/// built by hand: every write, conflict, delete and published clock chosen here.
@Suite struct TeamMetricsTests {
    typealias F = PageFixture
    static let day: UInt64 = 86_400_000

    /// Alex (this device), Sam and Kim. Lunch: 6 writes of Alex. Fado: title written by Alex,
    /// then by Sam concurrently (Sam's shown). Castle: place by Sam, then Alex concurrently (Alex's
    /// shown). Boat: all Sam's, its note by Sam and Kim concurrently. Museum: deleted by Sam, its
    /// note edited by Alex meanwhile. Alex published after its Fado title (t0 + 6 s); Sam
    /// published yesterday; Kim published at t0 + 7 s, 100 days ago.
    static func history() throws -> TripDocument {
        let now = F.t0 + 100 * day
        var fado = F.item("Fado", start: try F.at("2027-06-08T21:00", "Europe/Lisbon"), by: F.alex)
        fado.title = Register(versions: [
            Versioned(value: "Fado at Clube", rev: F.rev(F.t0 + 5_000, F.alex)), Versioned(value: "Fado at Tasca", rev: F.rev(F.t0 + 6_000, F.sam)),
        ])
        var castle = F.item("Castle", start: try F.at("2027-06-09T10:00", "Europe/Lisbon"), by: F.alex)
        castle.place = Register(versions: [
            Versioned(value: "Main gate", rev: F.rev(F.t0 + 8_000, F.alex)), Versioned(value: "Side gate", rev: F.rev(F.t0 + 7_000, F.sam)),
        ])
        var boat = F.item("Boat", start: try F.day("2027-06-10"), by: F.sam, counter: F.t0 + 1_000)
        boat.note = Register(versions: [
            Versioned(value: "Bring jackets", rev: F.rev(F.t0 + 7_000, F.kim)), Versioned(value: "Bring hats", rev: F.rev(F.t0 + 6_500, F.sam)),
        ])
        var museum = F.item("Museum", start: try F.at("2027-06-11T10:00", "Europe/Lisbon"), by: F.alex)
        museum.note = Register(value: "Closed Tuesdays", rev: F.rev(F.t0 + 9_000, F.alex))
        var seen = VersionVector()
        seen.include(F.rev(F.t0, F.alex))
        seen.include(F.rev(F.t0 + 2_000, F.sam))
        let deleted = Register(value: Deletion(at: UTCTimestamp(millisecondsSinceEpoch: F.t0 + 2_000), seen: seen), rev: F.rev(F.t0 + 2_000, F.sam))
        let legacy = DeviceID(high: 0, low: 1)  // a writer only the clock names (schema 1's server)
        return F.document(
            items: [F.id(1): F.item("Lunch", start: nil), F.id(2): fado, F.id(3): castle, F.id(4): boat],
            tombstones: [F.id(5): Tombstone(deleted: deleted, item: museum)],
            acks: [
                F.alex: VersionVector([F.alex: F.t0 + 6_000, F.sam: F.t0 + 6_000]),
                F.sam: VersionVector([F.sam: now - day, F.alex: F.t0 + 6_000]),
                F.kim: VersionVector([F.kim: F.t0 + 7_000]),
            ],
            extraClock: [F.sam: now - day, legacy: 40])
    }

    static let now = UTCTimestamp(millisecondsSinceEpoch: F.t0 + 100 * day)

    @Test func changesAreEveryWriteTheDocumentHolds() throws {
        let metrics = TeamMetrics(try Self.history(), me: F.alex, now: Self.now)
        // Trip name 1, device names 2, Lunch 6, Fado 7, Castle 7, Boat 7, Museum 6 + its delete 1.
        #expect(metrics.changes == 37)
        #expect(metrics.conflicts == ConflictSummary(fields: 3, editedWhileDeleted: 1))
        // 1,000 × 4 / 37 = 108.108…
        #expect(metrics.conflictsPer1000Changes == 108.1)
    }

    @Test func aWriteReplacedByOneThatSawItIsNoLongerAChange() throws {
        var document = try Self.history()
        let before = TeamMetrics(document, me: F.alex, now: Self.now)
        // Sam settles Fado's title: one write replaces both values.
        try #require(document.items[F.id(2)] != nil)
        var fado = try #require(document.items[F.id(2)])
        fado.title?.write("Fado at Tasca", rev: F.rev(F.t0 + 10_000, F.sam))
        document = F.document(
            items: [F.id(1): document.items[F.id(1)] ?? ItemFields(), F.id(2): fado, F.id(3): document.items[F.id(3)] ?? ItemFields(),
                    F.id(4): document.items[F.id(4)] ?? ItemFields()],
            tombstones: document.tombstones, acks: document.acks)
        let after = TeamMetrics(document, me: F.alex, now: Self.now)
        #expect(after.changes == before.changes - 1)
        #expect(after.conflicts.total == 3)
        #expect(after.conflictsPer1000Changes == 83.3)  // 3000 / 36
        #expect(after.openConflictsWithMine == 1)
    }

    @Test func keepMineShareIsOverOpenConflictsHoldingAValueOfThisDevice() throws {
        let document = try Self.history()
        let alex = TeamMetrics(document, me: F.alex, now: Self.now)
        // Fado (Sam's shown) and Castle (Alex's shown) hold a value of Alex; Boat does not.
        #expect(alex.openConflictsWithMine == 2)
        #expect(alex.openConflictsShowingMine == 1)
        #expect(alex.keepMineShare == 0.5)
        let sam = TeamMetrics(document, me: F.sam, now: Self.now)
        // Fado (shown), Castle (not), Boat (Kim's shown): 1 of 3.
        #expect(sam.openConflictsWithMine == 3)
        #expect(sam.openConflictsShowingMine == 1)
        #expect(sam.keepMineShare == 0.333)
        let nobody = TeamMetrics(document, me: DeviceID(high: 9, low: 9), now: Self.now)
        #expect(nobody.openConflictsWithMine == 0)
        #expect(nobody.keepMineShare == nil)
    }

    @Test func theOldestUnpublishedChangeIsTheOldestWriteAboveThePublishedClock() throws {
        let document = try Self.history()
        let metrics = TeamMetrics(document, me: F.alex, now: Self.now)
        // Published up to t0 + 6 s: the Castle place (t0 + 8 s) and the Museum note (t0 + 9 s) are not.
        #expect(metrics.oldestUnpublishedChange == UTCTimestamp(millisecondsSinceEpoch: F.t0 + 8_000))
        #expect(metrics.oldestUnpublishedChangeSeconds == Int64(100 * 86_400 - 8))
        // The same, seen from the delivery status: two of Alex's changes are unpublished.
        #expect(DeliveryStatus(document, me: F.alex, now: Self.now).unpublished == 2)
        // A clock ahead of now gives 0, never a negative age.
        let early = TeamMetrics(document, me: F.alex, now: UTCTimestamp(millisecondsSinceEpoch: F.t0))
        #expect(early.oldestUnpublishedChangeSeconds == 0)
        // Once Alex publishes its whole state, nothing is unpublished.
        var published = document.acks
        published[F.alex] = document.clock
        let clean = TeamMetrics(F.document(items: document.items, tombstones: document.tombstones, acks: published), me: F.alex, now: Self.now)
        #expect(clean.oldestUnpublishedChange == nil)
        #expect(clean.oldestUnpublishedChangeSeconds == nil)
        // A device that never published: every write of its own counts, the oldest first.
        var unpublishedAll = document.acks
        unpublishedAll[F.alex] = nil
        let never = TeamMetrics(F.document(items: document.items, tombstones: document.tombstones, acks: unpublishedAll), me: F.alex, now: Self.now)
        #expect(never.oldestUnpublishedChange == UTCTimestamp(millisecondsSinceEpoch: F.t0))
    }

    @Test func staleDevicesAreThoseSilentForLongerThanTheRetention() throws {
        let document = try Self.history()
        let metrics = TeamMetrics(document, me: F.alex, now: Self.now)
        // Kim: last heard t0 + 7 s, 100 days ago; Sam published yesterday; the legacy writer is
        // only in the clock; Alex is this device.
        #expect(metrics.staleDevices.map(\.id) == [F.kim])
        #expect(metrics.staleDevices.first?.lastHeard == UTCTimestamp(millisecondsSinceEpoch: F.t0 + 7_000))
        #expect(metrics.staleDevices.first?.silentSeconds == Int64(100 * 86_400 - 7))
        #expect(metrics.staleDevices.first?.name == "device 0c100000")
        #expect(metrics.retentionSeconds == 90 * 86_400)
        // With a retention of 120 days nobody is stale; at exactly the retention, not yet.
        #expect(TeamMetrics(document, me: F.alex, now: Self.now, policy: RetentionPolicy(retentionDays: 120)).staleDevices.isEmpty)
        let atTheLimit = UTCTimestamp(millisecondsSinceEpoch: F.t0 + 7_000 + 90 * Self.day)
        #expect(TeamMetrics(document, me: F.alex, now: atTheLimit).staleDevices.isEmpty)
        let justPast = UTCTimestamp(secondsSinceEpoch: atTheLimit.secondsSinceEpoch + 1)
        #expect(TeamMetrics(document, me: F.alex, now: justPast).staleDevices.map(\.id) == [F.kim])
        // Seen from Kim, Alex (heard at t0 + 9 s) and Sam (yesterday): Alex is stale.
        #expect(TeamMetrics(document, me: F.kim, now: Self.now).staleDevices.map(\.id) == [F.alex])
    }

    @Test func statusJSONCarriesEveryMetric() throws {
        let document = try Self.history()
        let status = DeliveryStatus(document, me: F.alex, now: Self.now)
        let report = StatusReport(tripID: document.tripID, device: F.alex, status: status, metrics: TeamMetrics(document, me: F.alex, now: Self.now))
        let json = try ReportEncoding.json(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect(
            Set(metrics.keys) == [
                "changes", "conflicts", "conflictsPer1000Changes", "openConflictsWithMine", "openConflictsShowingMine", "keepMineShare",
                "oldestUnpublishedChange", "oldestUnpublishedChangeSeconds", "staleDevices", "retentionSeconds",
            ])
        #expect(json.contains(#""conflictsPer1000Changes":108.1"#))
        #expect(json.contains(#""keepMineShare":0.5"#))
        #expect(json.contains(#""oldestUnpublishedChangeSeconds":8639992"#))
        #expect(json.contains(#""staleDevices":[{"device":"0c100000-0000-4000-8000-000000000003","lastHeard":"2025-11-29T07:06:47Z","name":"device 0c100000","silentSeconds":8639993}]"#))
        // Nothing to say is null, never a missing key.
        var published = document.acks
        published[F.alex] = document.clock
        let clean = F.document(items: [:], acks: published)
        let empty = try ReportEncoding.json(
            StatusReport(tripID: clean.tripID, device: F.alex, status: DeliveryStatus(clean, me: F.alex, now: Self.now), metrics: TeamMetrics(clean, me: F.alex, now: Self.now)))
        #expect(empty.contains(#""keepMineShare":null"#))
        #expect(empty.contains(#""oldestUnpublishedChange":null,"oldestUnpublishedChangeSeconds":null"#))
        #expect(empty.contains(#""conflictsPer1000Changes":0"#))
    }
}
