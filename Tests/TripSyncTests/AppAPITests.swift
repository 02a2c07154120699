import Foundation
import Testing
import TripSync
import TripSyncCore
import TripSyncHome

/// The app API as an app meets it (`TripStore`), and docs/REFERENCE.md's "For app developers", which must
/// compile and do what it says (the block between the markers is that section's, line for line).
@Suite struct AppAPITests {
    @Test func readmeExampleRuns() throws {
        let (made, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let shared = made.path + "-shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        do { _ = try TripStore.create(name: "Lisbon 2027", defaultZone: "Europe/Lisbon", in: made) }
        let path = made.path

        // docs/REFERENCE.md: For app developers (begin)
        let home = try TripHome(path: path)                            // locks nothing until a write
        let store = try home.open("Lisbon 2027")                       // holds the lock while it lives
        let castle = try store.edit { trip in                          // saved durably on return
            try trip.addItem(NewItem(title: "Castelo", place: "Alfama"), at: .last)
        }
        try store.edit { trip in
            try trip.set([FieldWrite(.note, .text("Tickets at the gate"))], of: castle)
        }
        let snapshot = store.document                                  // a value; later edits don't change it
        for conflict in store.conflicts.fields {                       // fields two people changed at once
            try store.edit { trip in try trip.resolve(conflict.field, of: conflict.item, keeping: .mine) }
        }
        let report = try home.sync(with: shared)                       // merge every device's file, publish ours
        // docs/REFERENCE.md: For app developers (end)

        #expect(snapshot.items[castle]?.note?.value == "Tickets at the gate")
        #expect(report.failed.isEmpty)
        #expect(report.published.count == 1)
        // An owned trip's published file is sealed (issue 43): read with the home's keys.
        let published = try made.tripFileReader().read(path: try #require(report.published.first))
        #expect(published.document.items[castle]?.place?.value == "Alfama")
    }

    @Test func anEditIsDurableOnReturnAndStampedWithTheStoresClock() throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Porto", in: home)
        let first = try store.edit { trip in try trip.addItem(NewItem(title: "Ribeira", sortKey: ""), at: .last) }
        let second = try store.edit { trip in try trip.addItem(NewItem(title: "Livraria", sortKey: ""), at: .after(first)) }
        let onDisk = try TripFileReader().read(path: store.path).document
        #expect(onDisk == store.document)
        let keys = [first, second].compactMap { onDisk.items[$0]?.sortKey?.value }
        #expect(keys.count == 2 && keys[0] < keys[1])
        // Every write has its own counter, all under this device.
        let revs = onDisk.items.values.flatMap { item in [item.title?.rev, item.sortKey?.rev, item.note?.rev].compactMap { $0 } }
        #expect(Set(revs).count == revs.count)
        #expect(revs.allSatisfy { $0.device == store.deviceID })
    }

    @Test func anEditThatThrowsChangesNothing() throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Sintra", in: home)
        let id = try store.edit { trip in try trip.addItem(NewItem(title: "Pena", sortKey: ""), at: .last) }
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let document = store.document
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.edit { trip in
                try trip.set(.title, of: id, to: .text("Pena palace"))
                throw Stop()
            }
        }
        // A value readers would refuse, after a good write in the same edit: all or nothing.
        #expect(throws: EditError.self) {
            try store.edit { trip in
                try trip.set(.note, of: id, to: .text("fine"))
                try trip.set(.title, of: id, to: .text(String(repeating: "x", count: 201)))
            }
        }
        #expect(store.document == document)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    }

    @Test(arguments: [
        ("zzzz", EditError.Kind.noSuchItem), ("ab", .shortItemPrefix),
    ])
    func itemLookupErrorsHaveKinds(text: String, kind: EditError.Kind) throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let store = try TripStore.create(name: "Évora", in: home)
        try store.edit { trip in _ = try trip.addItem(NewItem(title: "Templo", sortKey: ""), at: .last) }
        do {
            try store.edit { trip in _ = try trip.item(text) }
            Issue.record("'\(text)' was found")
        } catch let error as EditError {
            #expect(error.kind == kind, "\(error)")
        }
    }

    @Test(arguments: [ConflictChoice.mine, .current, .alternative(1)])
    func resolvingKeepsTheChosenValueAndEndsTheConflict(choice: ConflictChoice) throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let file = home.path + "-other.trip.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let id: ItemID
        do {
            // An open trip: the unsigned file of a device without a grant is taken (an owned trip
            // refuses it, as sync does: FolderAttackTests).
            let store = try TripStore.create(name: "Faro", owned: false, in: home)
            id = try store.edit { trip in try trip.addItem(NewItem(title: "Ria", sortKey: ""), at: .last) }
            // Another device's concurrent title, in a file (as a backup or a shared folder brings it).
            var other = store.document
            other.deviceID = Identifier.random()
            var clock = HybridLogicalClock(highWater: other.clock.maxCounter)
            _ = try other.set(.title, of: id, to: .text("Ria Formosa"), hlc: &clock, now: FileMerger.wallClockMilliseconds())
            try other.write(to: file)
            try store.edit { trip in try trip.set(.title, of: id, to: .text("Ria (mine)")) }
        }
        // The store is released, and its lock with it: the import can take the home.
        let plan = try TripImport.prepare(file: file, into: home)
        #expect(plan.existing != nil)
        _ = try plan.apply(.merge)
        let store = try TripStore.open(in: home)
        let conflict = try #require(store.conflicts.fields.first)
        #expect(Set(conflict.distinctVersions.map(\.text)) == ["Ria (mine)", "Ria Formosa"])
        let expected: String
        switch choice {
        case .mine: expected = "Ria (mine)"
        case .current: expected = conflict.current.text
        case .alternative(let n): expected = conflict.alternatives[n - 1].text
        }
        let kept = try store.edit { trip in try trip.resolve(.title, of: id, keeping: choice) }
        #expect(kept.text == expected)
        #expect(store.conflicts.fields.isEmpty)
        #expect(store.document.items[id]?.title?.value == expected)
        #expect(throws: EditError.self) { try store.edit { trip in try trip.resolve(.title, of: id, keeping: .current) } }
    }

    @Test func anImportRefusesWhenTheHomesCopyChangedWhileItWaited() throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let file = home.path + "-backup.trip.json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let id: ItemID
        do {
            let store = try TripStore.create(name: "Tavira", in: home)
            id = try store.edit { trip in try trip.addItem(NewItem(title: "Beach", sortKey: ""), at: .last) }
            try store.document.write(to: file)
        }
        let plan = try TripImport.prepare(file: file, into: home)
        do {
            let store = try TripStore.open(in: home)
            try store.edit { trip in try trip.set(.note, of: id, to: .text("typed while the question was open")) }
        }
        #expect(throws: TripImport.Refusal.self) { _ = try plan.apply(.replace) }
        #expect(try TripStore.open(in: home).document.items[id]?.note?.value == "typed while the question was open")
    }

    @Test func aSecondStoreOnTheSameHomeIsRefusedWhileTheFirstIsOpen() throws {
        let (home, cleanUp) = temporaryHome("app")
        defer { cleanUp() }
        let first = try TripStore.create(name: "Braga", in: home)
        _ = withExtendedLifetime(first) {
            #expect(throws: TripStoreError.self) { _ = try TripStore.open(in: home, timeout: 0.2) }
        }
    }
}
