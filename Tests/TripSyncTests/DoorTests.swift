import Foundation
import Synchronization
import Testing
import TripSync
import TripSyncCore
import TripSyncHome

/// The handle is the door (issue 39): reads without the lock, each write holding it for that
/// write only, and both faces going through it.
@Suite struct DoorTests {
    @Test("a write holds the home's lock for that write only: another process's store opens between two writes")
    func lockForOneWrite() throws {
        let (home, cleanUp) = temporaryHome("door")
        defer { cleanUp() }
        let door = TripHome(home)
        let trip = try door.create(name: "Lisbon 2027", zone: "Europe/Lisbon").tripID
        #expect(!door.holdsLock)
        let id = try door.edit(trip) { try $0.addItem(NewItem(title: "Castelo", sortKey: ""), at: .last) }
        #expect(!door.holdsLock)
        // What another process does (the CLI): it takes the lock at once.
        do {
            let other = try TripStore.open(trip.description, in: home, timeout: 0)
            try other.edit { try $0.set(.note, of: id, to: .text("from the CLI")) }
        }
        #expect((try door.document(of: trip).items[id]?.note?.value ?? nil) == "from the CLI")
        let before = door.version(of: trip)
        try door.edit(trip) { try $0.set(.place, of: id, to: .text("Alfama")) }
        #expect(door.version(of: trip) != before)
        // A store from `open` holds the lock while it lives, and the handle's writes share it.
        do {
            let store = try door.open(trip.description)
            #expect(door.holdsLock)
            #expect(throws: TripStoreError.self) { _ = try TripStore.open(trip.description, in: home, timeout: 0) }
            try door.edit(trip) { try $0.set(.note, of: id, to: .text("shared lock")) }
            _ = store.document
        }
        #expect(!door.holdsLock)
    }

    @Test("the door's watch reports a failed round as an error value (kind, facts, message), not only words")
    func watchFailureIsAValue() throws {
        let (home, cleanUp) = temporaryHome("door-watch")
        defer { cleanUp() }
        let door = TripHome(home)
        _ = try door.create(name: "Lisbon 2027", zone: "Europe/Lisbon")
        let missing = home.path + "-no-such-folder"
        let seen = Mutex<[SyncWatch.Failure]>([])
        let watch = try door.watch(missing) { event in
            if case .failed(let failure, _, _) = event { seen.withLock { $0.append(failure) } }
        }
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        watch.stop()
        let failure = try #require(seen.withLock { $0.first })
        #expect(failure.errorKind == .fileSystem)
        #expect(failure.message.contains(missing))
        #expect(!door.holdsLock)
    }

    @Test("neither face opens or creates a store below the door")
    func facesUseTheDoor() throws {
        let sources = PackagePaths.root + "/Sources"
        for face in ["tripsync", "TripSyncWeb"] {
            let folder = sources + "/" + face
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            #expect(!files.isEmpty)
            for file in files {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for call in ["TripStore.open(", "TripStore.create(", "TripStore.join(", "QuickEdit.open("] {
                    #expect(!text.contains(call), "\(face)/\(file) calls \(call)")
                }
            }
        }
    }
}
