import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncCore

/// One table of hand-made cases per merge rule of DESIGN.md section 2.
@Suite struct MergeRuleTests {
    /// Two or three replicas of one small trip, each with its own hybrid logical clock.
    struct World {
        var devices: [DeviceID]
        var replicas: [TripDocument]
        var clocks: [HybridLogicalClock]
        var now: UInt64 = 1_764_400_000_000
        var itemID: ItemID

        init(replicaCount: Int = 2) throws {
            var generator = TripGenerator(seed: 3, deviceCount: replicaCount)
            devices = generator.devices
            let base = generator.document(itemCount: 0)
            var first = base
            var clock = HybridLogicalClock(highWater: base.clock.maxCounter)
            itemID = generator.identifier()
            try first.addItem(itemID, NewItem(title: "Lunch", sortKey: "V", place: "Mercado"), hlc: &clock, now: now)
            replicas = devices.map { device in
                var copy = first
                copy.deviceID = device
                return copy
            }
            clocks = devices.map { _ in clock }
        }

        mutating func tick() -> UInt64 {
            now += 1000
            return now
        }

        mutating func set(_ replica: Int, _ field: ItemField, _ value: FieldValue, item: ItemID? = nil) throws {
            let time = tick()
            try replicas[replica].set(field, of: item ?? itemID, to: value, hlc: &clocks[replica], now: time)
        }

        mutating func delete(_ replica: Int) throws {
            let time = tick()
            try replicas[replica].deleteItem(itemID, at: UTCTimestamp(secondsSinceEpoch: Int64(time / 1000)), hlc: &clocks[replica], now: time)
        }

        mutating func restore(_ replica: Int) throws {
            let time = tick()
            try replicas[replica].restoreItem(itemID, hlc: &clocks[replica], now: time)
        }

        /// `target` receives `source`'s file.
        mutating func send(_ source: Int, to target: Int) throws {
            replicas[source].acknowledgeOwnState()
            replicas[target] = try DocumentMerger.merge(replicas[target], replicas[source], writer: devices[target])
        }

        func merged(_ x: Int, _ y: Int) throws -> TripDocument {
            try DocumentMerger.merge(replicas[x], replicas[y], writer: devices[x])
        }
    }

    @Test func differentFieldsMergeByThemselves() throws {
        var world = try World()
        try world.set(0, .title, .text("Lunch at Time Out Market"))
        try world.set(1, .note, .text("Book a table"))
        let merged = try world.merged(0, 1)
        let item = try #require(merged.items[world.itemID])
        #expect(item.title?.value == "Lunch at Time Out Market")
        #expect(item.note?.value == "Book a table")
        #expect(merged.visibleConflictCount == 0)
    }

    @Test func sameFieldTwiceKeepsOneValueAndShowsTheOther() throws {
        var world = try World()
        try world.set(0, .title, .text("Lunch at Time Out Market"))
        try world.set(1, .title, .text("Lunch at Cervejaria Ramiro"))  // later rev: wins
        let merged = try world.merged(0, 1)
        let title = try #require(merged.items[world.itemID]?.title)
        #expect(title.value == "Lunch at Cervejaria Ramiro")
        #expect(title.visibleConflicts.map(\.value) == ["Lunch at Time Out Market"])
        #expect(title.visibleConflicts.first?.rev.device == world.devices[0])
        // The same outcome whichever side merges.
        #expect(try world.merged(1, 0).items == merged.items)
    }

    @Test func sameValueTypedTwiceIsNotAVisibleConflict() throws {
        var world = try World()
        try world.set(0, .place, .text("Mercado da Ribeira"))
        try world.set(1, .place, .text("Mercado da Ribeira"))
        let place = try #require(try world.merged(0, 1).items[world.itemID]?.place)
        #expect(place.conflicts.count == 1)
        #expect(!place.hasVisibleConflict)
    }

    @Test func oneDeviceEditingTwiceNeverConflictsWithItself() throws {
        var world = try World()
        try world.set(0, .title, .text("First"))
        try world.send(0, to: 1)
        try world.set(0, .title, .text("Second"))
        try world.set(0, .title, .text("Third"))
        let title = try #require(try world.merged(1, 0).items[world.itemID]?.title)
        #expect(title.value == "Third")
        #expect(title.conflicts.isEmpty)
    }

    @Test func aKeepMineResolutionReplacesTheConflict() throws {
        var world = try World()
        try world.set(0, .title, .text("Mine"))
        try world.set(1, .title, .text("Theirs"))
        try world.send(1, to: 0)
        let time = world.tick()
        try world.replicas[0].set(.title, of: world.itemID, to: .text("Mine"), force: true, hlc: &world.clocks[0], now: time)
        try world.send(0, to: 1)
        let title = try #require(world.replicas[1].items[world.itemID]?.title)
        #expect(title.value == "Mine")
        #expect(title.conflicts.isEmpty)
    }

    @Test func deleteBeatsAConcurrentEditAndTheEditStaysRestorable() throws {
        var world = try World()
        try world.delete(0)
        try world.set(1, .note, .text("Bring the tickets"))  // concurrent: did not see the delete
        let merged = try world.merged(0, 1)
        #expect(merged.items[world.itemID] == nil)
        let tombstone = try #require(merged.tombstones[world.itemID])
        #expect(tombstone.item.note?.value == "Bring the tickets")
        #expect(merged.editedWhileDeleted(world.itemID).map(\.field) == [.note])
        // Restoring brings the edit back, on every replica.
        world.replicas[0] = merged
        try world.restore(0)
        try world.send(0, to: 1)
        #expect(world.replicas[1].items[world.itemID]?.note?.value == "Bring the tickets")
        #expect(world.replicas[1].tombstones[world.itemID] == nil)
    }

    @Test func anEditAfterSeeingTheDeleteCannotRevive() throws {
        var world = try World()
        try world.delete(0)
        try world.send(0, to: 1)
        #expect(throws: EditError.self) { try world.set(1, .title, .text("Edited")) }
    }

    /// Found by FuzzMerge (`Fuzz/regressions/merge/tombstones-each-restored-past.bin`): two
    /// tombstones whose delete dots were each replaced by a restore on the other side merge to
    /// a live item, as the register rule says, in either grouping. Before the fix one grouping
    /// kept both deletes (a fallback meant for inconsistent inputs) and merge was not associative.
    @Test func tombstonesWhoseDeletesEachSideRestoredPastMergeToALiveItem() throws {
        var world = try World(replicaCount: 2)
        try world.delete(0)
        let oldCopy = world.replicas[0]  // holds replica 0's delete
        try world.restore(0)
        try world.delete(1)
        try world.send(1, to: 0)  // replica 0: deleted again, by replica 1's delete
        try world.restore(1)  // replica 1: restored past its own delete only
        let (r0, r1) = (world.replicas[0], world.replicas[1])
        #expect(r0.tombstones[world.itemID] != nil && r1.items[world.itemID] != nil)
        let writer = world.devices[0]
        let left = try DocumentMerger.merge(try DocumentMerger.merge(r0, r1, writer: writer), oldCopy, writer: writer)
        let r1WithOldCopy = try DocumentMerger.merge(r1, oldCopy, writer: writer)
        #expect(r1WithOldCopy.tombstones[world.itemID] != nil, "the old copy's delete beats a restore that had not seen it")
        let right = try DocumentMerger.merge(r0, r1WithOldCopy, writer: writer)
        #expect(String(decoding: left.canonicalJSON(), as: UTF8.self) == String(decoding: right.canonicalJSON(), as: UTF8.self))
        #expect(right.items[world.itemID] != nil, "both deletes were restored past: the item is live")
        #expect(right.items[world.itemID]?.title?.versions.count == 2, "both restores' titles, one a conflict")
        #expect(right.tombstones[world.itemID] == nil)
    }

    @Test func concurrentDeletesBothHoldUntilARestoreHasSeenBoth() throws {
        var world = try World(replicaCount: 3)
        try world.delete(0)
        try world.delete(1)
        try world.send(0, to: 2)
        // Replica 2 restores having seen only replica 0's delete.
        try world.restore(2)
        var merged = try DocumentMerger.merge(world.replicas[2], world.replicas[1], writer: world.devices[2])
        #expect(merged.items[world.itemID] == nil, "the unseen delete still holds")
        #expect(merged.tombstones[world.itemID]?.deleted.versions.count == 1)
        // Both deletes together are two values of one register.
        let both = try world.merged(0, 1)
        #expect(both.tombstones[world.itemID]?.deleted.versions.count == 2)
        // A restore that has seen both wins.
        world.replicas[2] = merged
        try world.restore(2)
        merged = try DocumentMerger.merge(try DocumentMerger.merge(world.replicas[2], world.replicas[0], writer: world.devices[2]), world.replicas[1], writer: world.devices[2])
        #expect(merged.items[world.itemID] != nil)
        #expect(merged.tombstones[world.itemID] == nil)
    }

    /// A note typed on one laptop while another deleted and then restored the item, in every
    /// order of the three writes: the restore rewrites the item's fields, so the note and the
    /// restore's empty note are two values of one register. Whichever rev is greater wins and the
    /// other shows as a conflict; the item is live, nothing is "edited while deleted", and the
    /// typed note is never lost without a sign, whichever side merges.
    @Test(arguments: [0, 1, 2]) func aNoteTypedAgainstADeleteAndRestoreStaysWithASign(order: Int) throws {
        var world = try World()
        let typed = "Bring the tickets"
        if order == 0 { try world.set(1, .note, .text(typed)) }
        try world.delete(0)
        if order == 1 { try world.set(1, .note, .text(typed)) }
        try world.restore(0)
        if order == 2 { try world.set(1, .note, .text(typed)) }
        let merged = try world.merged(0, 1)
        #expect(try world.merged(1, 0).items == merged.items)
        let note = try #require(merged.items[world.itemID]?.note, "the restore holds: the item is live")
        #expect(merged.tombstones[world.itemID] == nil)
        #expect(merged.editedWhileDeleted(world.itemID).isEmpty)
        // The later write wins: the restore in orders 0 and 1, the typed note in order 2.
        if order == 2 {
            #expect(note.value == typed)
            #expect(note.visibleConflicts.map(\.value) == [nil])
        } else {
            #expect(note.value == nil)
            #expect(note.visibleConflicts.map(\.value) == [typed])
        }
    }

    @Test func aStaleCopyNeverBringsADeletedItemBack() throws {
        var world = try World()
        let stale = world.replicas[1]  // a backup taken before the delete
        try world.delete(0)
        var merged = try DocumentMerger.merge(world.replicas[0], stale, writer: world.devices[0])
        #expect(merged.items[world.itemID] == nil)
        // Even after compaction, whatever the backup's age.
        let farFuture = UTCTimestamp(secondsSinceEpoch: Int64(world.now / 1000) + 400 * 86_400)
        CompactionRuleTests.acknowledgeAll(&merged, reaching: farFuture)
        #expect(merged.compact(now: farFuture) == 1)
        #expect(merged.tombstones[world.itemID]?.item.isEmpty == true)
        let again = try DocumentMerger.merge(merged, stale, writer: world.devices[0])
        #expect(again.items[world.itemID] == nil)
        #expect(again.tombstones[world.itemID]?.item.isEmpty == true, "the stale body's values were seen and dropped")
    }

    @Test func compactionWaitsForRetentionAndEveryAck() throws {
        var world = try World()
        try world.delete(0)
        let deletedAt = Int64(world.now / 1000)
        var document = world.replicas[0]
        document.acks = [world.devices[0]: document.clock]
        let later = UTCTimestamp(secondsSinceEpoch: deletedAt + 100 * 86_400)
        #expect(document.compactableTombstones(now: later).isEmpty, "device 1 has not acknowledged")
        CompactionRuleTests.acknowledgeAll(&document, reaching: later)
        let early = UTCTimestamp(secondsSinceEpoch: deletedAt + 89 * 86_400)
        #expect(document.compactableTombstones(now: early).isEmpty, "retention not passed")
        #expect(document.compactableTombstones(now: early, policy: RetentionPolicy(retentionDays: 30)) == [world.itemID])
        #expect(document.compactableTombstones(now: later) == [world.itemID])
    }

    @Test func aLateEditFromAnUnknownOldCopyLandsInTheStub() throws {
        var world = try World()
        var oldCopy = world.replicas[1]
        let stranger = Identifier(high: 0x1234, low: 0x5678)
        oldCopy.deviceID = stranger
        try world.delete(0)
        var document = world.replicas[0]
        let later = UTCTimestamp(secondsSinceEpoch: Int64(world.now / 1000) + 100 * 86_400)
        CompactionRuleTests.acknowledgeAll(&document, reaching: later)
        document.compact(now: later)
        world.now = UInt64(later.secondsSinceEpoch) * 1000  // the old copy's edit comes later still
        var strangerClock = HybridLogicalClock(highWater: oldCopy.clock.maxCounter)
        try oldCopy.set(.note, of: world.itemID, to: .text("Late note"), hlc: &strangerClock, now: world.tick())
        let merged = try DocumentMerger.merge(document, oldCopy, writer: world.devices[0])
        #expect(merged.items[world.itemID] == nil)
        let stub = try #require(merged.tombstones[world.itemID])
        #expect(stub.item.note?.value == "Late note")
        #expect(stub.item.title == nil, "values everyone had seen stay compacted")
        #expect(merged.editedWhileDeleted(world.itemID).count == 1)
        // Restoring the stub gives a whole item: missing fields get defaults.
        var restored = merged
        var clock = world.clocks[0]
        try restored.restoreItem(world.itemID, hlc: &clock, now: world.tick())
        #expect(restored.items[world.itemID]?.isComplete == true)
        #expect(restored.items[world.itemID]?.note?.value == "Late note")
    }

    @Test func twoValuesUnderOneDotAreBothKeptAndNamed() throws {
        let world = try World()
        var forked = world.replicas[1]
        let original = try #require(world.replicas[0].items[world.itemID]?.title)
        let rev = original.rev
        forked.items[world.itemID]?.title = Register(value: "Same dot, other value", rev: rev)
        let (merged, forks) = try DocumentMerger.mergeFindingForks(world.replicas[0], forked, writer: world.devices[0])
        #expect(forks == [SameDotFork(rev: rev, pointer: "/items/\(world.itemID)/title")])
        let title = try #require(merged.items[world.itemID]?.title)
        #expect(Set(title.versions.map(\.value)) == [original.value, "Same dot, other value"])
        #expect(title.versions.allSatisfy { $0.rev == rev })
        // Either order gives the same bytes; merging again changes nothing.
        let swapped = try DocumentMerger.merge(forked, world.replicas[0], writer: world.devices[0])
        #expect(swapped.hasSameBytes(as: merged))
        #expect(try DocumentMerger.merge(merged, forked, writer: world.devices[0]).hasSameBytes(as: merged))
        // The written file reads back with both values (the reader takes a fork as valid).
        let read = try TripFileReader().read(bytes: merged.canonicalJSON(), file: "forked.trip.json")
        #expect(read.document.hasSameBytes(as: merged))
    }

    @Test func tripAndDeviceNamesMergeLikeFields() throws {
        var world = try World()
        world.replicas[0].trip.name.write("Lisbon 2027", rev: Rev(counter: world.tick(), device: world.devices[0]))
        world.replicas[0].clock.include(world.replicas[0].trip.name.rev)
        world.replicas[1].trip.name.write("Lisboa 2027", rev: Rev(counter: world.tick(), device: world.devices[1]))
        world.replicas[1].clock.include(world.replicas[1].trip.name.rev)
        let merged = try world.merged(0, 1)
        #expect(merged.trip.name.value == "Lisboa 2027")
        #expect(merged.trip.name.visibleConflicts.map(\.value) == ["Lisbon 2027"])
        #expect(merged.devices.count == 2)
    }

    @Test func acksMergeByPointwiseMaximumAndTheWriterIsOurs() throws {
        var world = try World()
        try world.set(0, .title, .text("x"))
        world.replicas[0].acknowledgeOwnState()
        world.replicas[1].acknowledgeOwnState()
        let merged = try world.merged(1, 0)
        #expect(merged.acks[world.devices[0]] == world.replicas[0].clock)
        #expect(merged.acks[world.devices[1]] == world.replicas[1].clock)
        #expect(merged.deviceID == world.devices[1])
    }

    @Test func differentTripsAreRefused() throws {
        let a = smallDocument(seed: 1)
        let b = smallDocument(seed: 2)
        #expect(throws: MergeError.self) { try DocumentMerger.merge(a, b, writer: a.deviceID) }
    }

    @Test func aClockFromTheFutureIsRefusedNamingDeviceAndSkew() throws {
        let world = try World()
        let now = world.now
        var future = world.replicas[1]
        let ahead = now + 30 * 3_600_000
        future.trip.name.write("Future", rev: Rev(counter: ahead, device: world.devices[1]))
        future.clock.include(future.trip.name.rev)
        let found = try #require(ClockGuard.futureDevice(in: future, nowMilliseconds: now))
        #expect(found.device == world.devices[1])
        #expect(found.skewMilliseconds == 30 * 3_600_000)
        #expect(ClockGuard.describe(device: found.device, skewMilliseconds: found.skewMilliseconds).contains("30 hours ahead"))
        #expect(ClockGuard.describe(device: found.device, skewMilliseconds: found.skewMilliseconds, name: "Sam's laptop").contains("Sam's laptop must set its clock right"))
        #expect(ClockGuard.futureDevice(in: world.replicas[1], nowMilliseconds: now) == nil)
        // Issue 40: our own counter never goes backwards, whatever the wall clock says: a write
        // after the clock was set back still sorts after the writes before it.
        var clock = HybridLogicalClock(highWater: ahead)
        #expect(clock.next(nowMilliseconds: now) == ahead + 1)
        #expect(clock.next(nowMilliseconds: now + 7 * 3_600_000) == ahead + 2)
        #expect(clock.next(nowMilliseconds: ahead + 1000) == ahead + 1000)
    }

    /// Issue 40: a register built from its versions (a recovery, a re-key, a merge) orders two
    /// values under one rev by their canonical bytes, as every reader expects; ordered by rev
    /// alone, the replica was written in an order its own reader refused, and the owner's every
    /// command failed ("this trip's replica cannot be read").
    @Test func twoValuesUnderOneRevAreOrderedAsReadersExpectWhateverTheInputOrder() throws {
        let rev = Rev(counter: 1_764_400_000_000, device: Identifier(high: 7, low: 7))
        let versions: [Versioned<String?>] = [Versioned(value: "Lunch", rev: rev), Versioned(value: nil, rev: rev), Versioned(value: "Zoo", rev: rev)]
        for order in [versions, versions.reversed(), [versions[1], versions[0], versions[2]]] {
            let register = try #require(Register(versions: order))
            #expect(register.versions.map(\.value) == [nil, "Zoo", "Lunch"], "null sorts after any quoted text")
        }
        let seenA = VersionVector([rev.device: 1]), seenB = VersionVector([rev.device: 2])
        let deletes = [Versioned(value: Deletion(at: UTCTimestamp(secondsSinceEpoch: 0), seen: seenA), rev: rev), Versioned(value: Deletion(at: UTCTimestamp(secondsSinceEpoch: 0), seen: seenB), rev: rev)]
        let one = try #require(Register(versions: deletes)), other = try #require(Register(versions: deletes.reversed()))
        #expect(one == other)
        // Written and read back: the reader takes the replica, both values kept.
        var document = try World().replicas[0]
        let id = try #require(document.items.keys.first)
        document.items[id]?.note = try #require(Register(versions: versions.reversed()))
        document.clock.include(rev)
        let reread = try TripFileReader().read(bytes: document.canonicalJSON(), file: "replica").document
        #expect(reread.items[id]?.note?.versions.count == 3)
    }

    /// Issue 40: what a laptop's wall clock says against a trip's counters decides what it does:
    /// behind the other devices (its clock is wrong now: it keeps its id and counts on), ahead by
    /// its own counters a little (it counts on from them) or far (a new id and a re-stamp).
    @Test func aClockIsReadAgainstTheOtherDevicesCounters() throws {
        let world = try World()
        let now = world.now
        let me = world.devices[0]
        let hour: UInt64 = 3_600_000
        var document = world.replicas[0]
        #expect(ClockGuard.reading(of: document, ours: [me], highWater: now, now: now) == .right)
        // Another device wrote three days past this laptop's clock: this clock is behind.
        document.clock[world.devices[1]] = now + 72 * hour
        #expect(ClockGuard.reading(of: document, ours: [me], highWater: now, now: now) == .behind(device: world.devices[1], milliseconds: 72 * hour))
        // Only this home's own counters are ahead: it ran ahead, a little or far.
        document = world.replicas[0]
        #expect(ClockGuard.reading(of: document, ours: [me], highWater: now + 30 * hour, now: now) == .ranAhead(milliseconds: 30 * hour))
        document.clock[me] = now + 400 * 24 * hour
        #expect(ClockGuard.reading(of: document, ours: [me], highWater: now, now: now) == .ranFarAhead(milliseconds: 400 * 24 * hour))
        #expect(ClockGuard.span(30 * hour) == "30 hours")
        #expect(ClockGuard.span(72 * hour) == "3 days")
        #expect(ClockGuard.span(3650 * 24 * hour) == "10 years")
    }
}

/// Found by the fuzzer: text that differs only in Unicode normalisation is a different value.
@Suite struct MergeNormalisationTests {
    @Test func canonicallyEquivalentButDifferentBytesUnderOneDotAreTwoValuesInEveryOrder() throws {
        let sample = try TripFileReader().read(path: PackagePaths.samples + "/lisbon-new-york.trip.json").document
        var decomposed = sample
        let id = try #require(sample.items.first { $0.value.title?.value.unicodeScalars.contains { $0.value > 0x7F } == true }?.key
            ?? sample.items.keys.first)
        let title = try #require(sample.items[id]?.title)
        // The same rev, the same text to Swift's `==`, different bytes (NFD instead of NFC).
        let nfd = title.value.decomposedStringWithCanonicalMapping == title.value ? title.value + "e\u{301}" : title.value.decomposedStringWithCanonicalMapping
        let nfc = nfd.precomposedStringWithCanonicalMapping
        var composed = sample
        composed.items[id]?.title = Register(value: nfc, rev: title.rev)
        decomposed.items[id]?.title = Register(value: nfd, rev: title.rev)
        #expect(nfc == nfd, "Swift compares them as equal")
        #expect(Array(nfc.utf8) != Array(nfd.utf8), "their bytes differ")
        // Two writes under one dot (a fork): both kept, in either order the same bytes.
        let one = try DocumentMerger.merge(composed, decomposed, writer: sample.deviceID)
        let other = try DocumentMerger.merge(decomposed, composed, writer: sample.deviceID)
        #expect(one.hasSameBytes(as: other))
        let merged = try #require(one.items[id]?.title)
        #expect(Set(merged.versions.map { Array($0.value.utf8) }) == [Array(nfc.utf8), Array(nfd.utf8)])
        #expect(composed != decomposed, "documents with different canonical bytes are not equal")
    }
}
