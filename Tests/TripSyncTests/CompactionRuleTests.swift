import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncCore

/// The compaction rule of the shared design (section 2, "Compaction"): a body holding typed
/// work (a value written while the item was deleted, a caption typed while the attachment was
/// detached) is never compacted until a person restores it or deletes it again having seen the
/// edit, and the retention counts from that decision (issue 25, finding 1). And the rule costs
/// a lookup per dot, not one per dot and device (issue 26, finding 6).
@Suite struct CompactionRuleTests {
    typealias World = MergeRuleTests.World

    /// Every device in the clock acknowledges the whole document; with `reaching`, after a
    /// later write of the document's own device at that time, which every device then saw (the
    /// trip's age measured by acknowledgements: compaction waits for it).
    static func acknowledgeAll(_ document: inout TripDocument, reaching: UTCTimestamp? = nil) {
        if let reaching {
            let later = UInt64(reaching.secondsSinceEpoch) * 1000
            document.clock[document.deviceID] = max(document.clock[document.deviceID], later)
        }
        for device in document.clock.entries.keys { document.acks[device] = document.clock }
    }

    static func day(_ world: World, _ days: Int64) -> UTCTimestamp {
        UTCTimestamp(secondsSinceEpoch: Int64(world.now / 1000) + days * 86_400)
    }

    @Test func aBodyEditedWhileDeletedIsKeptWhateverItsAgeUntilDeletedAgain() throws {
        var world = try World()
        try world.delete(0)
        try world.set(1, .note, .text("tickets booked, ref 4711"))  // away: had not seen the delete
        var merged = try world.merged(0, 1)
        Self.acknowledgeAll(&merged)
        #expect(merged.editedWhileDeleted(world.itemID).map(\.field) == [.note])
        // Every device acknowledged, the retention passed long ago: still typed work.
        for days: Int64 in [91, 400, 4000] {
            #expect(merged.compactableTombstones(now: Self.day(world, days)).isEmpty, "day \(days)")
        }
        #expect(merged.compact(now: Self.day(world, 4000)) == 0)
        #expect(merged.tombstones[world.itemID]?.item.note?.value == "tickets booked, ref 4711")
        #expect(DeliveryStatus(merged, me: world.devices[0], now: Self.day(world, 85)).nearRetention.isEmpty, "never near: it waits for a person")
        // A person deletes it again, having seen the edit: the retention counts from now.
        world.replicas[0] = merged
        world.now += 200 * 86_400_000
        try world.delete(0)
        var decided = world.replicas[0]
        #expect(decided.editedWhileDeleted(world.itemID).isEmpty)
        #expect(decided.tombstones[world.itemID]?.deleted.conflicts.isEmpty == true, "the new delete replaces the old one")
        Self.acknowledgeAll(&decided, reaching: Self.day(world, 91))
        #expect(decided.compactableTombstones(now: Self.day(world, 89)).isEmpty, "the retention counts from the new delete")
        #expect(decided.compactableTombstones(now: Self.day(world, 91)) == [world.itemID])
        // The other laptop takes the decision: its own edit is seen, the item stays deleted.
        try world.send(0, to: 1)
        #expect(world.replicas[1].items[world.itemID] == nil)
        #expect(world.replicas[1].editedWhileDeleted(world.itemID).isEmpty)
    }

    /// Issue 40: a laptop whose clock runs ten years ahead decided alone that 90 days had
    /// passed and compacted a delete made the day before; the stub reached everyone and a
    /// restore brought back an empty item. The age is measured by every device's own
    /// acknowledged counters, so one fast clock moves only its own entry.
    @Test func aClockYearsAheadCompactsNothingUntilEveryDeviceHasReachedTheRetention() throws {
        var world = try World()
        try world.set(1, .place, .text("Rua Augusta"))  // device 1 is in the clock
        try world.send(1, to: 0)
        try world.delete(0)
        let deleted = world.now
        let tenYears: UInt64 = 3650 * 86_400_000
        var document = world.replicas[0]
        // Every device acknowledged the delete; device 0's own clock says ten years later.
        for device in document.clock.entries.keys { document.acks[device] = document.clock }
        document.clock[world.devices[0]] = deleted + tenYears
        document.acks[world.devices[0]] = document.clock
        let fastWallClock = UTCTimestamp(millisecondsSinceEpoch: deleted + tenYears)
        #expect(document.compactableTombstones(now: fastWallClock).isEmpty, "device 1 has reached only the day of the delete")
        #expect(document.compact(now: fastWallClock) == 0)
        #expect(document.tombstones[world.itemID]?.item.isEmpty == false)
        // Device 1 publishes 89 days later: still within the retention by its time. (It never
        // took device 0's counters from ten years ahead: every reader refuses those.)
        var seenBy1 = try #require(document.acks[world.devices[1]])
        seenBy1[world.devices[1]] = deleted + 89 * 86_400_000
        document.clock[world.devices[1]] = seenBy1[world.devices[1]]
        document.acks[world.devices[1]] = seenBy1
        #expect(document.compactableTombstones(now: fastWallClock).isEmpty)
        // And 91 days later: every device has reached the end of the retention.
        seenBy1[world.devices[1]] = deleted + 91 * 86_400_000
        document.clock[world.devices[1]] = seenBy1[world.devices[1]]
        document.acks[world.devices[1]] = seenBy1
        #expect(document.compactableTombstones(now: fastWallClock) == [world.itemID])
        // A wall clock behind the end still keeps the body (either measure keeps it).
        #expect(document.compactableTombstones(now: UTCTimestamp(millisecondsSinceEpoch: deleted + 86_400_000)).isEmpty)
    }

    @Test func aDeleteAgainOfAnItemWithoutEditsIsStillRefused() throws {
        var world = try World()
        try world.delete(0)
        #expect(throws: EditError.self) { try world.delete(0) }
    }

    @Test func aRestoreKeepsTheEditAndADeleteAfterItCompactsPastTheRetention() throws {
        var world = try World()
        try world.delete(0)
        try world.set(1, .note, .text("tickets booked, ref 4711"))
        world.replicas[0] = try world.merged(0, 1)
        try world.restore(0)
        #expect(world.replicas[0].items[world.itemID]?.note?.value == "tickets booked, ref 4711")
        try world.delete(0)
        var document = world.replicas[0]
        Self.acknowledgeAll(&document, reaching: Self.day(world, 91))
        #expect(document.compactableTombstones(now: Self.day(world, 91)) == [world.itemID])
    }

    @Test func oneOfTwoConcurrentDeletesThatSawTheEditIsEnough() throws {
        var world = try World(replicaCount: 3)
        try world.delete(0)
        try world.set(1, .note, .text("Seen by replica 2"))
        try world.send(1, to: 2)
        try world.delete(2)  // saw the edit
        var merged = try DocumentMerger.merge(world.replicas[0], world.replicas[2], writer: world.devices[0])
        #expect(merged.tombstones[world.itemID]?.deleted.versions.count == 2)
        #expect(merged.editedWhileDeleted(world.itemID).isEmpty)
        Self.acknowledgeAll(&merged, reaching: Self.day(world, 91))
        #expect(merged.compactableTombstones(now: Self.day(world, 91)) == [world.itemID])
    }

    @Test func aCaptionTypedWhileDetachedIsKeptUntilRestoredOrDetachedAgain() throws {
        var (a, b, id, hlcA) = try AttachmentTests.attachedPair()
        var hlcB = HybridLogicalClock(highWater: b.clock.maxCounter)
        let detachedAt: Int64 = 1_780_000_100
        try a.detach(id, at: UTCTimestamp(secondsSinceEpoch: detachedAt), hlc: &hlcA, now: AttachmentTests.now + 20)
        _ = try b.setCaption(id, to: "typed while it was detached", hlc: &hlcB, now: AttachmentTests.now + 21)
        var merged = try DocumentMerger.merge(a, b, writer: a.deviceID)
        Self.acknowledgeAll(&merged)
        #expect(merged.editedWhileDetached(id).map(\.field) == ["caption"])
        let later = UTCTimestamp(secondsSinceEpoch: detachedAt + 400 * 86_400)
        #expect(merged.compactableAttachments(now: later).isEmpty)
        #expect(merged.compact(now: later) == 0)
        #expect(merged.attachments[id]?.caption?.value == "typed while it was detached")
        #expect(DeliveryStatus(merged, me: a.deviceID, now: later).attachmentsNearRetention.isEmpty)
        // Restored, then detached again having seen the caption: compactable past the retention.
        try merged.restoreAttachment(id, hlc: &hlcA, now: AttachmentTests.now + 30)
        let again: Int64 = detachedAt + 500 * 86_400
        try merged.detach(id, at: UTCTimestamp(secondsSinceEpoch: again), hlc: &hlcA, now: AttachmentTests.now + 31)
        Self.acknowledgeAll(&merged, reaching: UTCTimestamp(secondsSinceEpoch: again + 91 * 86_400))
        #expect(merged.compactableAttachments(now: UTCTimestamp(secondsSinceEpoch: again + 89 * 86_400)).isEmpty)
        #expect(merged.compactableAttachments(now: UTCTimestamp(secondsSinceEpoch: again + 91 * 86_400)) == [id])
    }

    /// The floor of acknowledgements agrees with the rule as written (every clock device's
    /// `acks` entry covers the dot), on random small documents.
    @Test(arguments: 0..<20) func theAckFloorAgreesWithEveryDeviceCheckedOneByOne(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let devices = (0..<5).map { _ in Identifier.random(using: &random) }
        var clock = VersionVector()
        for device in devices where random.next() % 4 != 0 { clock[device] = 1 + random.next() % 10 }
        var document = TripDocument(tripID: Identifier.random(using: &random), deviceID: devices[0], clock: clock, trip: TripInfo(name: Register(value: "T", rev: Rev(counter: 1, device: devices[0]))))
        for device in devices where random.next() % 5 != 0 {
            var ack = VersionVector()
            for writer in devices where random.next() % 3 != 0 { ack[writer] = random.next() % 11 }
            document.acks[device] = ack
        }
        let floor = AckFloor(document)
        for writer in devices {
            for counter: UInt64 in 1...11 {
                let rev = Rev(counter: counter, device: writer)
                let oneByOne = document.clock.entries.keys.allSatisfy { document.acks[$0]?.sees(rev) ?? false }
                #expect(floor.sees(rev) == oneByOne)
            }
        }
    }

    /// Issue 26: 10,000 old tombstones × 10,000 acknowledging devices, one of which never
    /// acknowledges. Checked one device per tombstone this is 10^8 steps and more (minutes);
    /// with the floor, one pass over the acks and one lookup per dot.
    @Test(.timeLimit(.minutes(1))) func compactionIsNearLinearInTombstonesTimesDevices() {
        let document = HostileTrip.document(tombstones: 10_000, devices: 10_000)
        #expect(document.clock.entries.count == 10_000)
        #expect(document.compactableTombstones(now: UTCTimestamp(secondsSinceEpoch: 1_900_000_000)).isEmpty)
        var acked = document
        // Every device acknowledges, and has reached a point past the retention by a later write.
        let later = UInt64(1_900_000_000) * 1000
        acked.clock[document.deviceID] = later
        for device in document.acks.keys { acked.acks[device]?[document.deviceID] = later }
        acked.acks[document.clock.entries.keys.first { document.acks[$0] == nil } ?? document.deviceID] = acked.clock
        #expect(acked.compactableTombstones(now: UTCTimestamp(secondsSinceEpoch: 1_900_000_000)).count == 10_000)
    }

    /// Issue 26: registers of a thousand values under one dot (a forked or hostile writer),
    /// read, merged with a copy that holds half of them, and read back. One scan of the other
    /// side per value made this 100 × 1,000 × 1,000 steps; through hashed writes it is linear.
    @Test(.timeLimit(.minutes(1))) func registersOfManyValuesReadAndMergeInNearLinearTime() throws {
        let document = HostileTrip.document(tombstones: 0, devices: 2, forkedItems: 100, valuesPerRegister: 1_000)
        var half = document
        for (id, item) in document.items {
            guard var title = item.title else { continue }
            title.conflicts = title.conflicts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            half.items[id]?.title = title
        }
        let reader = TripFileReader()
        let read = try reader.read(bytes: document.canonicalJSON(), file: "hostile").document
        #expect(read.hasSameBytes(as: document))
        let (merged, forks) = try DocumentMerger.mergeFindingForks(read, half, writer: document.deviceID)
        #expect(merged.hasSameBytes(as: document), "every value kept, none twice")
        #expect(forks.count == 100 * 499, "each value only one side holds, under a dot both hold, is named")
        let again = try DocumentMerger.merge(half, read, writer: document.deviceID)
        #expect(again.hasSameBytes(as: merged))
    }
}
