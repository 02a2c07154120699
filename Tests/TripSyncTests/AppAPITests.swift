import Foundation
import Testing
import TripSync
import TripSyncCore
import TripSyncHome

/// The app API as an app meets it (`TripStore`). docs/REFERENCE.md's "For app developers" is
/// compiled and run in Tests/app, against the public API alone (`DocExampleTests`).
@Suite struct AppAPITests {
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
        #expect(throws: TripError.self) {
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
        } catch let error as TripError {
            // The store's edit throws the one public error; the lookup's own is its cause.
            #expect((error.cause as? EditError)?.kind == kind, "\(error)")
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
        #expect(throws: TripError.self) { try store.edit { trip in try trip.resolve(.title, of: id, keeping: .current) } }
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

    /// Every public call throws the one `TripError` (issue 39): a trip not found, a value
    /// refused inside an edit, a file refused with each problem's pointer, a bad invite code, a
    /// member not found, an invite for a role no invite gives, an import of a missing file, a
    /// rename onto another trip's name. Each threw its own type before (`TripStoreError`,
    /// `EditError`, `TripFileError`, `InviteError`, `MembershipError`), which an app outside the
    /// package cannot name; the faces still read that error as the `cause`.
    @Test func everyPublicThrowIsATripError() throws {
        let (made, cleanUp) = temporaryHome("errors")
        defer { cleanUp() }
        let home = try TripHome(path: made.path)
        let lisbon = try home.create(name: "Lisbon", zone: "Europe/Lisbon")
        _ = try home.create(name: "Porto", owned: false)
        let castle = try lisbon.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }

        func thrown(_ body: () throws -> Void) -> (any Error)? {
            do {
                try body()
                return nil
            } catch {
                return error
            }
        }
        let calls: [(String, TripSyncErrorKind, () throws -> Void)] = [
            ("open", .notFound, { _ = try home.open("Madrid") }),
            ("document(of:)", .notFound, { _ = try home.document(of: Identifier.random()) }),
            ("edit", .invalidValue, { try lisbon.edit { trip in _ = try trip.set(.title, of: castle, to: .text("   ")) } }),
            ("home edit", .notFound, { try home.edit(lisbon.tripID) { trip in try trip.delete(Identifier.random()) } }),
            ("read", .invalidFile, { _ = try TripFile.read(PackagePaths.root + "/samples/invalid/title-empty.trip.json") }),
            ("join", .badInvite, { try home.join(code: "not a code", folder: made.path + "-shared") }),
            ("approve", .notFound, { _ = try lisbon.approve("zzzzzzzz") }),
            ("invite", .refused, { _ = try lisbon.invite(role: .owner) }),
            ("prepareImport", .invalidFile, { _ = try home.prepareImport(file: made.path + "/missing.trip.json") }),
            ("rename", .refused, { _ = try lisbon.rename(to: "Porto") }),
            ("attachment", .notFound, { _ = try lisbon.attachment("zzzzzzzz") }),
        ]
        for (name, kind, call) in calls {
            let error = thrown(call)
            let value = error as? TripError
            #expect(value != nil, "\(name) threw \(error.map { "\(type(of: $0))" } ?? "nothing"), not a TripError")
            #expect(value?.errorKind == kind, "\(name): \(error.map { "\($0)" } ?? "nothing")")
            #expect(value?.message.isEmpty == false)
        }
        let refused = thrown { _ = try TripFile.read(PackagePaths.root + "/samples/invalid/title-empty.trip.json") } as? TripError
        #expect(refused?.problems.isEmpty == false)
        #expect(refused?.problems.allSatisfy { $0.facts.pointer?.hasPrefix("/") == true } == true)
        let missing = thrown { _ = try home.open("Madrid") } as? TripError
        #expect(missing?.facts.item == "Madrid")
        #expect(missing?.cause is TripStoreError)
    }
}
