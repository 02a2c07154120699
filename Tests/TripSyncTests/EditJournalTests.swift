import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome

/// The edit journal (docs/DESIGN.md, "The edit journal"): edits append records beside the
/// replica; every reader replays them; a whole rewrite or a sync folds them in; a torn tail is
/// dropped with a warning and cut under the lock; corruption in the middle and newer formats
/// are refused naming the journal.
@Suite struct EditJournalTests {
    private func fileBytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func writeBytes(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// One random edit of the kinds the CLI and the app make.
    private func randomEdit(_ trip: inout TripEditor, _ random: inout SeededGenerator, step: Int) throws {
        let live = trip.document.items.keys.sorted()
        let dead = trip.document.tombstones.keys.sorted()
        let day = LocalDate(year: 2027, month: 6, day: 1 + Int(random.next() % 20))
        switch (live.isEmpty ? 0 : random.next() % 9) {
        case 0, 1:
            let time: TripTime? = random.next() % 2 == 0 ? day.map { .date($0) } : day.flatMap { LocalDateTime(date: $0, hour: 9, minute: 30) }.map { .local($0, zone: "Europe/Lisbon") }
            try trip.addItem(NewItem(title: "item \(step)", sortKey: "", start: time, place: random.next() % 2 == 0 ? "Alfama" : nil), at: .last)
        case 2:
            try trip.set(.note, of: live[Int(random.next() % UInt64(live.count))], to: .text("note \(step)"))
        case 3:
            try trip.set([FieldWrite(.title, .text("title \(step) é")), FieldWrite(.place, .text(nil))], of: live[Int(random.next() % UInt64(live.count))])
        case 4:
            try trip.delete(live[Int(random.next() % UInt64(live.count))])
        case 5:
            if let id = dead.first { try trip.restore(id) } else { try trip.set(.note, of: live[0], to: .text("no tombstone \(step)")) }
        case 6:
            let id = live[Int(random.next() % UInt64(live.count))]
            do {
                try trip.move(id, to: .first)
            } catch {
                // Where the day's times decide the place, a move is refused (and writes nothing).
                try trip.set(.note, of: id, to: .text("timed \(step)"))
            }
        case 7:
            try trip.rename(to: "Trip \(step)")
        default:
            try trip.set(.start, of: live[Int(random.next() % UInt64(live.count))], to: .time(day.map { .date($0) }))
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func aReplayedReplicaIsByteIdenticalToTheWholeRewrite(seed: UInt64) throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var random = SeededGenerator(seed: seed)
        let store = try TripStore.create(name: "Lisbon", defaultZone: "Europe/Lisbon", in: home)
        let journal = home.journalPath(for: store.tripID)
        var sawJournal = false
        var sawFold = false
        // Past the fold threshold, so records, folds and records after a fold all occur.
        for step in 0..<(EditJournal.foldRecords + 40) {
            try store.edit { trip in try randomEdit(&trip, &random, step: step) }
            let exists = FileManager.default.fileExists(atPath: journal)
            if exists { sawJournal = true } else if sawJournal { sawFold = true }
            if step % 37 == 0 || step == EditJournal.foldRecords - 1 {
                // What the old path writes: the store's document, whole. What a reader sees:
                // the replica with the journal replayed.
                let replayed = try home.readReplica(store.tripID).document
                #expect(replayed.canonicalJSON() == store.document.canonicalJSON(), "seed \(seed), step \(step)")
            }
        }
        #expect(sawJournal && sawFold)
        let direct = store.document.canonicalJSON()
        #expect(try TripFileReader().read(path: store.path).document.canonicalJSON() == direct)
        #expect(try home.listTrips().trips.first?.document.canonicalJSON() == direct)
        // Folded: the replica alone holds it all, and the journal is gone.
        try home.foldJournal(store.tripID)
        #expect(!FileManager.default.fileExists(atPath: journal))
        let folded = try fileBytes(store.path)
        #expect(try TripFileReader().read(bytes: folded, file: "folded").document.canonicalJSON() == direct)
    }

    @Test func replayingIsDeterministicAndIdempotent() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Porto", in: home)
        let base = try TripFileReader(maxFileBytes: 1 << 20).read(bytes: try fileBytes(store.path), file: "replica").document
        var random = SeededGenerator(seed: 9)
        for step in 0..<30 { try store.edit { trip in try randomEdit(&trip, &random, step: step) } }
        let contents = try #require(try EditJournal(path: home.journalPath(for: store.tripID)).read())
        #expect(contents.position.records == 30)
        let deltas = try contents.payloads.map { try JournalDelta.decode($0).get() }
        var once = base
        for delta in deltas { try delta.apply(to: &once) }
        var twice = once
        for delta in deltas { try delta.apply(to: &twice) }
        #expect(once.canonicalJSON() == store.document.canonicalJSON())
        #expect(twice.canonicalJSON() == once.canonicalJSON())
    }

    @Test func anEditAppendsARecordAndLeavesTheReplicaAlone() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Faro", in: home)
        let replica = try fileBytes(store.path)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Praia", sortKey: ""), at: .last) }
        try store.edit { trip in try trip.set(.note, of: id, to: .text("Towels")) }
        #expect(try fileBytes(store.path) == replica)
        let bytes = try fileBytes(home.journalPath(for: store.tripID))
        #expect(Array(bytes[0..<8]) == Array("TSJOURNL".utf8))
        #expect(EditJournal.word(bytes, at: 8) == 1)
        #expect(Array(bytes[12..<44]) == Sodium.blake2b256(replica))
        let contents = try EditJournal.parse(bytes)
        #expect(contents.position.records == 2 && contents.torn == nil && contents.position.length == bytes.count)
        // Another process (no lock) sees the edits.
        #expect(try home.listTrips().trip(store.tripID)?.document.items[id]?.note?.value == "Towels")
    }

    @Test(arguments: [1, 7, 200])
    func aTornTailIsDroppedWithAWarningAndCutUnderTheLock(cut: Int) throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var store: TripStore? = try TripStore.create(name: "Evora", in: home)
        let tripID = try #require(store?.tripID)
        let first = try #require(try store?.edit { trip in try trip.addItem(NewItem(title: "Templo", sortKey: ""), at: .last) })
        let second = try #require(try store?.edit { trip in try trip.addItem(NewItem(title: "Capela", sortKey: ""), at: .last) })
        store = nil
        let path = home.journalPath(for: tripID)
        let whole = try fileBytes(path)
        let good = try EditJournal.parse(whole).payloads[0].endIndex
        try writeBytes(Array(whole.dropLast(cut)), path)
        // A reader without the lock: the torn edit dropped, with a warning naming the journal.
        let listed = try #require(try home.listTrips().trip(tripID))
        #expect(listed.document.items[first] != nil)
        #expect(listed.document.items[second] == nil)
        let warning = try #require(listed.warnings.first { $0.message.contains("torn") })
        #expect(warning.message.hasPrefix(path + ": dropped a torn record at its end"))
        #expect(try fileBytes(path).count == whole.count - cut)
        // The lock's holder cuts it away; the next edit appends after the last good record.
        let reopened = try TripStore.open(in: home)
        #expect(try fileBytes(path).count == good)
        let third = try reopened.edit { trip in try trip.addItem(NewItem(title: "Sé", sortKey: ""), at: .last) }
        let after = try #require(try home.listTrips().trip(tripID))
        #expect(after.warnings.isEmpty)
        #expect(after.document.items[third] != nil && after.document.items[first] != nil && after.document.items[second] == nil)
    }

    @Test func zerosPastTheLastRecordAreATornTail() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Braga", in: home)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Bom Jesus", sortKey: ""), at: .last) }
        let path = home.journalPath(for: store.tripID)
        try writeBytes(try fileBytes(path) + [UInt8](repeating: 0, count: 4096), path)
        let listed = try #require(try home.listTrips().trip(store.tripID))
        #expect(listed.document.items[id] != nil)
        #expect(listed.warnings.contains { $0.message.contains("torn") })
    }

    @Test func aCorruptRecordInTheMiddleIsAnErrorNamingTheJournalAndOffset() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var store: TripStore? = try TripStore.create(name: "Tomar", in: home)
        let tripID = try #require(store?.tripID)
        for title in ["Convento", "Aqueduto", "Sinagoga"] {
            _ = try store?.edit { trip in try trip.addItem(NewItem(title: title, sortKey: ""), at: .last) }
        }
        store = nil
        let path = home.journalPath(for: tripID)
        var bytes = try fileBytes(path)
        let original = bytes
        bytes[EditJournal.headerSize + 40] ^= 0x20
        try writeBytes(bytes, path)
        let listing = try home.listTrips()
        #expect(listing.trip(tripID) == nil)
        let unreadable = try #require(listing.unreadable(tripID))
        guard case .file(let error) = unreadable.failure else {
            Issue.record("expected a file error")
            return
        }
        #expect(error.file == path)
        #expect(error.description.contains("the record at byte \(EditJournal.headerSize) fails its CRC-32"))
        #expect(error.description.contains("corrupt in its middle"))
        #expect(throws: TripStoreError.self) { try TripStore.open(in: home) }
        // Nothing was guessed or cut.
        #expect(try fileBytes(path) == bytes)
        try writeBytes(original, path)
        #expect(try home.listTrips().trip(tripID)?.document.items.count == 3)
    }

    @Test func aJournalOfANewerFormatIsRefused() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var store: TripStore? = try TripStore.create(name: "Viseu", in: home)
        let tripID = try #require(store?.tripID)
        _ = try store?.edit { trip in try trip.addItem(NewItem(title: "Sé", sortKey: ""), at: .last) }
        store = nil
        let path = home.journalPath(for: tripID)
        var bytes = try fileBytes(path)
        bytes[8] = 2
        try writeBytes(bytes, path)
        let unreadable = try #require(try home.listTrips().unreadable(tripID))
        #expect(unreadable.description.contains("\(path): this trip's edit journal cannot be replayed: written by a newer TripSync: edit journal format 2, this build reads format 1"))
        do {
            _ = try TripStore.open(in: home)
            Issue.record("a newer journal was opened")
        } catch let error as TripStoreError {
            #expect(error.description.contains("edit journal format 2"))
            #expect(!error.description.contains("move the file out of the home"))
        }
        bytes[8] = 0
        try writeBytes(bytes, path)
        #expect(try home.listTrips().unreadable(tripID)?.description.contains("edit journal format 0 was never written by TripSync") == true)
    }

    @Test func aStaleJournalIsIgnoredAndANewOneStarts() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var store: TripStore? = try TripStore.create(name: "Leiria", in: home)
        let tripID = try #require(store?.tripID)
        let id = try #require(try store?.edit { trip in try trip.addItem(NewItem(title: "Castelo", sortKey: ""), at: .last) })
        let path = home.journalPath(for: tripID)
        let old = try fileBytes(path)
        // A whole rewrite that crashed before it removed the journal: the journal is stale.
        try home.foldJournal(tripID)
        try store?.edit { trip in try trip.set(.title, of: id, to: .text("Castelo de Leiria")) }
        try home.foldJournal(tripID)
        store = nil
        try writeBytes(old, path)
        let listed = try #require(try home.listTrips().trip(tripID))
        #expect(listed.document.items[id]?.title?.value == "Castelo de Leiria")
        #expect(listed.journal?.stale == true)
        let reopened = try TripStore.open(in: home)
        #expect(!FileManager.default.fileExists(atPath: path))
        try reopened.edit { trip in try trip.set(.note, of: id, to: .text("Open at 10")) }
        let after = try #require(try home.listTrips().trip(tripID)).document.items[id]
        #expect(after?.title?.value == "Castelo de Leiria" && after?.note?.value == "Open at 10")
    }

    @Test func syncFoldsTheJournalAndPublishesOneDocument() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        let shared = home.path + "-shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let store = try TripStore.create(name: "Coimbra", in: home)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Biblioteca", sortKey: ""), at: .last) }
        #expect(FileManager.default.fileExists(atPath: home.journalPath(for: store.tripID)))
        let report = try store.sync(with: shared)
        #expect(report.failed.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.journalPath(for: store.tripID)))
        // An owned trip's published file is sealed (issue 43): read with the home's keys.
        let published = try home.tripFileReader().read(path: try #require(report.published.first)).document
        #expect(published.items[id]?.title?.value == "Biblioteca")
        let names = try FileManager.default.contentsOfDirectory(atPath: shared + "/\(store.tripID)")
        // One document, and the owned trip's keyring (issue 43).
        #expect(Set(names) == ["\(store.deviceID).trip.json.gz", "\(store.deviceID).keyring.json"])
        // The replica alone holds the edit now.
        #expect(try TripFileReader().read(bytes: try fileBytes(store.path), file: "replica").document.items[id] != nil)
    }

    @Test func aRecordWhoseValuesDoNotCheckIsRefused() throws {
        let (home, cleanUp) = temporaryHome("journal")
        defer { cleanUp() }
        var store: TripStore? = try TripStore.create(name: "Lagos", in: home)
        let tripID = try #require(store?.tripID)
        let id = try #require(try store?.edit { trip in try trip.addItem(NewItem(title: "Ponta", sortKey: ""), at: .last) })
        store = nil
        // A record with a checksum that holds, whose item carries a rev its clock never saw.
        let path = home.journalPath(for: tripID)
        let contents = try #require(try EditJournal(path: path).read())
        var document = try JournalDelta.decode(contents.payloads[0]).get().document
        let item = try #require(document.items[id])
        var title = try #require(item.title)
        title.rev = Rev(counter: document.clock[document.deviceID] + 1_000, device: document.deviceID)
        document.items[id]?.title = title
        let forged = EditJournal.header(base: contents.position.base) + EditJournal.record(CanonicalWriter.encode(document))
        try writeBytes(forged, path)
        let unreadable = try #require(try home.listTrips().unreadable(tripID))
        #expect(unreadable.description.contains("record 1 (at byte 44) is a record whose values do not check"))
    }
}
