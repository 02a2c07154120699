import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome

/// The counter ledger (docs/DESIGN.md, "The counter ledger"): an edit records the counters it
/// issued as records of `device.issued` instead of rewriting `device.json`, every open of the
/// identity applies them, a torn append is dropped, damage is refused, and a whole save of the
/// identity folds the ledger in.
@Suite struct IssuedLedgerTests {
    private func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A home with one trip and two saved edits; answers the home, the trip and the item.
    private func editedHome(_ label: String) throws -> (Home, TripID, ItemID, cleanUp: () -> Void) {
        let (home, cleanUp) = temporaryHome(label)
        let store = try TripStore.create(name: "Ledger", owned: false, in: home)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Tram 28", sortKey: ""), at: .last) }
        try store.edit { trip in try trip.set(.note, of: id, to: .text("Front seats")) }
        return (home, store.tripID, id, cleanUp)
    }

    @Test func anEditRecordsItsCountersInTheLedgerAndLeavesDeviceJSONAlone() throws {
        let (home, cleanUp) = temporaryHome("ledger")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Ledger", owned: false, in: home)
        let identityBefore = try bytes(home.identityPath)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Tram 28", sortKey: ""), at: .last) }
        try store.edit { trip in try trip.set(.note, of: id, to: .text("Front seats")) }
        #expect(try bytes(home.identityPath) == identityBefore)
        let (entries, length) = try #require(try IssuedLedger(path: home.layout.issuedLedger).read())
        #expect(length == IssuedLedger.headerSize + entries.count * IssuedLedger.recordSize)
        #expect(entries.count >= 2 && entries.allSatisfy { $0.device == store.deviceID })
        // Every counter of ours in the trip is issued in the identity as opened again.
        let opened = try home.openIdentity().identity
        let item = try #require(store.document.items[id])
        let ours = [item.title?.rev, item.note?.rev].compactMap { $0 }
        #expect(ours.count == 2 && ours.allSatisfy { $0.device == opened.deviceID })
        for rev in ours { #expect(opened.issuedHere(rev.counter)) }
        #expect(opened.highWater >= store.document.clock[opened.deviceID])
    }

    /// The crash the ledger is for: the edit's counters and its journal record are on disk,
    /// `device.json` is as it was before the edit. Without the ledger applied when the
    /// identity is opened, the replica would hold writes of ours the identity never issued and
    /// the home would take a new device id.
    @Test func aHomeWhoseDeviceJSONMissesTheLedgersCountersKeepsItsIDWhenOpenedAgain() throws {
        let (home, cleanUp) = temporaryHome("ledger")
        defer { cleanUp() }
        let tripID: TripID
        let device: DeviceID
        do {
            let store = try TripStore.create(name: "Ledger", owned: false, in: home)
            tripID = store.tripID
            device = store.deviceID
            _ = try store.edit { trip in try trip.addItem(NewItem(title: "Belem", sortKey: ""), at: .last) }
        }
        #expect(FileManager.default.fileExists(atPath: home.layout.issuedLedger))
        let reopened = try TripStore.open(tripID.description, in: home)
        #expect(reopened.deviceID == device)
        #expect(reopened.notices.isEmpty)
        // And the same home without its ledger is the one that looks copied: the test would
        // pass for nothing if the ledger were not what kept the id.
        let ledger = try bytes(home.layout.issuedLedger)
        try FileManager.default.removeItem(atPath: home.layout.issuedLedger)
        let identity = try home.openIdentity().identity
        let replica = try home.readReplica(tripID).document
        #expect(ForkCheck.replica(replica, identity: identity) != nil)
        try write(ledger, home.layout.issuedLedger)
        #expect(ForkCheck.replica(replica, identity: try home.openIdentity().identity) == nil)
    }

    @Test(arguments: [1, 20, IssuedLedger.recordSize - 1])
    func aTornAppendIsIgnoredAndCutByTheNextAppend(cut: Int) throws {
        let (home, trip, id, cleanUp) = try editedHome("ledger")
        defer { cleanUp() }
        let path = home.layout.issuedLedger
        let whole = try bytes(path)
        let good = try #require(try IssuedLedger(path: path).read()).entries
        // Half a record more (a crash in the middle of an append), then the same with zeros.
        let extra = IssuedLedger.encode(IssuedLedger.Entry(device: good[0].device, highWater: good[0].highWater + 9, range: nil))
        for tail in [Array(extra.prefix(cut)), [UInt8](repeating: 0, count: cut), [UInt8](repeating: 0, count: IssuedLedger.recordSize + cut)] {
            try write(whole + tail, path)
            let read = try #require(try IssuedLedger(path: path).read())
            #expect(read.entries == good && read.length == whole.count)
            #expect(try home.openIdentity().identity.highWater == good.map(\.highWater).max())
        }
        // The next edit cuts the tail away and appends after the good records.
        let store = try TripStore.open(trip.description, in: home)
        try store.edit { trip in try trip.set(.note, of: id, to: .text("Back seats")) }
        let after = try bytes(path)
        #expect(Array(after.prefix(whole.count)) == whole)
        #expect((after.count - IssuedLedger.headerSize) % IssuedLedger.recordSize == 0)
        #expect(try #require(try IssuedLedger(path: path).read()).entries.count > good.count)
    }

    @Test func aBadRecordWithAGoodOneAfterItIsRefusedNamingTheLedgerAndTheByte() throws {
        let (home, _, _, cleanUp) = try editedHome("ledger")
        defer { cleanUp() }
        let path = home.layout.issuedLedger
        var damaged = try bytes(path)
        #expect(damaged.count >= IssuedLedger.headerSize + 2 * IssuedLedger.recordSize)
        damaged[IssuedLedger.headerSize + 20] ^= 0x40
        try write(damaged, path)
        #expect {
            try home.openIdentity()
        } throws: { error in
            let text = "\(error)"
            return text.contains(path) && text.contains("at byte \(IssuedLedger.headerSize)") && text.contains("nothing was changed")
        }
        // Nothing was written: the ledger is as it was found.
        #expect(try bytes(path) == damaged)
    }

    @Test func aLedgerOfANewerFormatOrNotALedgerIsRefused() throws {
        let (home, _, _, cleanUp) = try editedHome("ledger")
        defer { cleanUp() }
        let path = home.layout.issuedLedger
        var newer = try bytes(path)
        newer[8] = 2
        try write(newer, path)
        #expect(throws: FileSystemError.self) { try home.openIdentity() }
        #expect { try home.openIdentity() } throws: { "\($0)".contains("format 2, written by a newer TripSync") }
        try write(Array("{\"not\":\"a ledger\"}".utf8), path)
        #expect { try home.openIdentity() } throws: { "\($0)".contains("is not a counter ledger") }
    }

    @Test func recordsOfAnotherDeviceAreSkipped() throws {
        let (home, _, _, cleanUp) = try editedHome("ledger")
        defer { cleanUp() }
        let path = home.layout.issuedLedger
        let before = try home.openIdentity().identity
        let stranger = IssuedLedger.Entry(device: .random(), highWater: before.highWater + 1_000, range: (before.highWater + 1)...(before.highWater + 1_000))
        try write(try bytes(path) + IssuedLedger.encode(stranger), path)
        let after = try home.openIdentity().identity
        #expect(after.highWater == before.highWater && after.issued == before.issued)
    }

    @Test func theLedgerFoldsIntoDeviceJSONAfterItsLimitAndAtEveryWholeSave() throws {
        let (home, trip, id, cleanUp) = try editedHome("ledger")
        defer { cleanUp() }
        let path = home.layout.issuedLedger
        let store = try TripStore.open(trip.description, in: home)
        var folded = false
        for step in 0..<(IssuedLedger.foldRecords + 2) {
            try store.edit { trip in try trip.set(.note, of: id, to: .text("note \(step)")) }
            if !FileManager.default.fileExists(atPath: path) {
                // Folded: device.json alone holds every counter the edits issued.
                folded = true
                let identity = try home.openIdentity().identity
                #expect(identity.highWater >= store.document.clock[identity.deviceID])
                #expect(identity.issuedHere(store.document.clock[identity.deviceID]))
            }
        }
        #expect(folded)
        #expect(FileManager.default.fileExists(atPath: path))
        let withLedger = try home.openIdentity().identity
        // A whole save of the identity leaves no ledger and loses nothing.
        try home.save(withLedger)
        #expect(!FileManager.default.fileExists(atPath: path))
        let saved = try home.openIdentity().identity
        #expect(saved.highWater == withLedger.highWater && saved.issued == withLedger.issued)
    }

    @Test func recordsRoundTripAndACorruptedOneFailsItsCheck() {
        let device = DeviceID.random()
        for entry in [
            IssuedLedger.Entry(device: device, highWater: 42, range: 40...42), IssuedLedger.Entry(device: device, highWater: 7, range: nil),
        ] {
            let record = IssuedLedger.encode(entry)
            #expect(record.count == IssuedLedger.recordSize)
            #expect(IssuedLedger.decode(record[...]) == entry)
            for index in record.indices {
                var flipped = record
                flipped[index] ^= 1
                #expect(IssuedLedger.decode(flipped[...]) == nil)
            }
        }
    }
}
