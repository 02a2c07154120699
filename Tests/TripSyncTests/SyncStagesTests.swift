import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// The sync as stages (`TripRound`): each file of the shared folder is read once per sync.
@Suite struct SyncStagesTests {
    /// Two laptops' homes and the shared folder they meet in (made), and how to remove all three.
    func twoLaptops() throws -> (home: Home, other: Home, shared: String, cleanUp: () -> Void) {
        let (homes, shared, cleanUp) = try temporaryLaptops("stages")
        return (homes[0], homes[1], shared, cleanUp)
    }

    /// Paths told by a sync, from its thread.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func append(_ path: String) { lock.withLock { paths.append(path) } }
        var all: [String] { lock.withLock { paths } }
    }

    /// Another laptop's edit arrives: the sync reads that laptop's file and ours once each (ours
    /// used to be read a second time to compare it with the bytes about to be published).
    @Test func eachFileOfTheFolderIsReadOncePerSync() throws {
        let (home, other, shared, cleanUp) = try twoLaptops()
        defer { cleanUp() }
        let tripID: TripID
        do {
            let store = try TripStore.create(name: "Lisbon", owned: false, in: home)
            tripID = store.tripID
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Castelo", sortKey: ""), at: .last) }
            _ = try store.sync(with: shared)
        }
        _ = try FolderSync(home: other, folder: shared).run()
        do {
            let store = try TripStore.open(tripID.description, in: other)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Tram 28", sortKey: ""), at: .last) }
            _ = try store.sync(with: shared)
        }
        // This laptop changes too, so it publishes a new file.
        do {
            let store = try TripStore.open(tripID.description, in: home)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Fado", sortKey: ""), at: .last) }
        }
        let reads = Reads()
        var sync = FolderSync(home: home, folder: shared)
        sync.onFolderRead = { reads.append($0) }
        let report = try sync.run()
        #expect(report.failed.isEmpty)
        #expect(report.merged.count == 1, "the other laptop's file: \(report.merged)")
        #expect(report.trips.first?.wrote == true)
        let counts = Dictionary(reads.all.map { ($0, 1) }, uniquingKeysWith: +)
        #expect(counts.count == 2, "ours and the other laptop's: \(counts)")
        #expect(counts.values.allSatisfy { $0 == 1 }, "each file read once: \(counts)")
        // Nothing changed since: a second sync reads nothing at all.
        let again = Reads()
        sync.onFolderRead = { again.append($0) }
        _ = try sync.run()
        #expect(again.all.isEmpty, "\(again.all)")
    }

    /// The round's stages hand each other values (docs/DESIGN.md, "The sync round as a
    /// pipeline of values"): publishing, given a crafted scan and merge, removes exactly the
    /// own copies the merge handed it whose bytes are still the ones merged, and the stale
    /// temporaries the scan handed it; a copy whose bytes changed since stays.
    @Test func publishingActsOnTheValuesItIsHanded() throws {
        let (home, _, shared, cleanUp) = try twoLaptops()
        defer { cleanUp() }
        let tripID = try TripStore.create(name: "Braga", owned: false, in: home).tripID
        _ = try FolderSync(home: home, folder: shared).run()
        let sync = FolderSync(home: home, folder: shared)
        let identity = try home.openIdentity().identity
        let me = identity.deviceID
        let tripFolder = shared + "/\(tripID)/"
        let merged = Array("the copy as merged".utf8)
        let changed = Array("a copy that changed since".utf8)
        try Data(merged).write(to: URL(fileURLWithPath: tripFolder + "\(me).copy-1.trip.json.gz"))
        try Data(changed).write(to: URL(fileURLWithPath: tripFolder + "\(me).copy-2.trip.json.gz"))
        try Data([1]).write(to: URL(fileURLWithPath: tripFolder + ".\(me).trip.json.gz.tmp-1-1-stale"))
        let local = try home.readReplica(tripID, reader: sync.reader).document
        let now = FileMerger.wallClockMilliseconds()
        let folder = try FolderHandle.open(path: shared).openFolder(EntryName(tripID.description))
        var round = try TripRound(
            sync: sync, trip: SyncReport.Trip(tripID: tripID), folder: folder, local: local, identity: identity, state: SyncState.load(home).0, now: now)
        var scan = FolderScan()
        scan.ownStaleTemps = [EntryName(".\(me).trip.json.gz.tmp-1-1-stale")]
        var outcome = TripRound.Merged()
        outcome.ownCopies = [
            (EntryName("\(me).copy-1.trip.json.gz"), SHA256.digest(merged)),
            (EntryName("\(me).copy-2.trip.json.gz"), SHA256.digest(Array("what was merged of it".utf8))),
        ]
        try round.publish(ReplicaState(home: home, identity: round.identity, document: local, now: now), scan: scan, merged: outcome)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: tripFolder))
        #expect(!names.contains("\(me).copy-1.trip.json.gz"), "\(names)")
        #expect(names.contains("\(me).copy-2.trip.json.gz"), "\(names)")
        #expect(!names.contains(".\(me).trip.json.gz.tmp-1-1-stale"), "\(names)")
        #expect(names.contains("\(me).trip.json.gz"), "\(names)")
        #expect(round.trip.removed == [folder.display(EntryName("\(me).copy-1.trip.json.gz"))])
    }

    /// Our file unchanged and the trip unchanged but another file new: ours is compared by the
    /// digest of what the scan read, so an unchanged file is not rewritten.
    @Test func anUnchangedOwnFileIsNotRewritten() throws {
        let (home, other, shared, cleanUp) = try twoLaptops()
        defer { cleanUp() }
        let tripID = try TripStore.create(name: "Porto", owned: false, in: home).tripID
        _ = try FolderSync(home: home, folder: shared).run()
        _ = try FolderSync(home: other, folder: shared).run()
        // The other laptop joined: its file is new, ours only takes its acks.
        let first = try FolderSync(home: home, folder: shared).run()
        #expect(first.trips.first?.merged.count == 1)
        // Then nothing new: our file as published is left alone (not rewritten).
        let ours = shared + "/\(tripID)/" + (first.published.first.map { String($0.split(separator: "/").last ?? "") } ?? "")
        let before = try FileManager.default.attributesOfItem(atPath: ours)[.modificationDate] as? Date
        let second = try FolderSync(home: home, folder: shared).run()
        #expect(second.trips.first?.wrote == false)
        let after = try FileManager.default.attributesOfItem(atPath: ours)[.modificationDate] as? Date
        #expect(before == after)
    }

    /// `store.sync` reads this home's replica and identity once each: the fold of the edit
    /// journal reads the replica, the sync goes on with that copy, and the store keeps what the
    /// sync saved (it used to read the replica three times and the identity twice).
    @Test func aStoreSyncReadsTheReplicaAndTheIdentityOnce() throws {
        let (home, other, shared, cleanUp) = try twoLaptops()
        defer { cleanUp() }
        let tripID = try TripStore.create(name: "Lisbon", owned: false, in: home).tripID
        _ = try FolderSync(home: home, folder: shared).run()
        _ = try FolderSync(home: other, folder: shared).run()
        do {
            let store = try TripStore.open(tripID.description, in: other)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Tram 28", sortKey: ""), at: .last) }
            _ = try store.sync(with: shared)
        }
        let reads = Reads()
        var counted = home
        counted.onRead = { reads.append($0) }
        let store = try TripStore.open(tripID.description, in: counted)
        // An edit first: it is in the edit journal, which the sync folds in.
        try store.edit { trip in _ = try trip.addItem(NewItem(title: "Fado", sortKey: ""), at: .last) }
        #expect(FileManager.default.fileExists(atPath: home.journalPath(for: tripID)))
        let before = reads.all.count
        let report = try store.sync(with: shared)
        let during = Dictionary(reads.all.dropFirst(before).map { ($0, 1) }, uniquingKeysWith: +)
        #expect(report.failed.isEmpty)
        #expect(report.merged.count == 1, "the other laptop's file: \(report.merged)")
        #expect(during[home.replicaPath(for: tripID)] == 1, "\(during)")
        #expect(during[home.identityPath] == 1, "\(during)")
        #expect(during.count == 2, "\(during)")
        // The store holds what the sync saved, and goes on editing from it.
        #expect(Set(store.document.items.values.compactMap { $0.title?.value }) == ["Tram 28", "Fado"])
        try store.edit { trip in _ = try trip.addItem(NewItem(title: "Castelo", sortKey: ""), at: .last) }
        let reopened = try home.readReplica(tripID).document
        #expect(Set(reopened.items.values.compactMap { $0.title?.value }) == ["Tram 28", "Fado", "Castelo"])
    }
}
