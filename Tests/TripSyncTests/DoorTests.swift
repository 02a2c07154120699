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
        let seen = Mutex<[TripError]>([])
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

    /// A temporary home with two trips, Lisbon and Porto, through the door.
    static func twoTrips(_ label: String) throws -> (home: Home, door: TripHome, lisbon: TripID, porto: TripID, cleanUp: () -> Void) {
        let (home, cleanUp) = temporaryHome(label)
        let door = TripHome(home)
        let lisbon = try door.create(name: "Lisbon 2027", zone: "Europe/Lisbon").tripID
        let porto = try door.create(name: "Porto 2027", zone: "Europe/Lisbon").tripID
        return (home, door, lisbon, porto, cleanUp)
    }

    @Test("the one last-folder rule: none is .notFound, several .ambiguous (naming each), one is used by sync and watch alike")
    func lastFolderRule() throws {
        let (home, door, lisbon, porto, cleanUp) = try Self.twoTrips("door-folder")
        defer { cleanUp() }
        let first = home.path + "-shared-a"
        let second = home.path + "-shared-b"
        for folder in [first, second] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { for folder in [first, second] { try? FileManager.default.removeItem(atPath: folder) } }  // the test's own folders
        // None yet: a value of kind .notFound about the last folder, from sync, watch and syncFolder alike.
        for call in [{ _ = try door.syncFolder() }, { _ = try door.sync() }, { _ = try door.watch { _ in } }] as [() throws -> Void] {
            let error = try #require(throws: TripError.self, performing: call)
            #expect(error.errorKind == .notFound && error.facts.thing == "last folder")
        }
        // One folder for every trip: the one used, with progress heard trip by trip.
        let heard = Mutex<[SyncProgress]>([])
        let report = try door.sync(with: first) { step in heard.withLock { $0.append(step) } }
        #expect(report.trips.count == 2 && report.failed.isEmpty)
        #expect(heard.withLock { $0 } == [.trip(done: 0, of: 2), .trip(done: 1, of: 2)])
        #expect(try door.syncFolder() == first)
        #expect(try door.lastFolder(of: porto) == first)
        // Porto synced elsewhere since: the trips used two folders, and nobody guesses which.
        _ = try door.write(porto) { try $0.sync(with: second) }
        let ambiguous = try #require(throws: TripError.self) { _ = try door.syncFolder() }
        #expect(ambiguous.errorKind == .ambiguous && ambiguous.facts.thing == "last folder")
        #expect(ambiguous.message.contains(first) && ambiguous.message.contains(second))
        #expect(try door.lastFolder() == nil)
        #expect(try door.lastFolder(of: lisbon) == first && door.lastFolder(of: porto) == second)
        let watchError = try #require(throws: TripError.self) { _ = try door.watch { _ in } }
        #expect(watchError == ambiguous)
    }

    @Test("a trip that could not sync is a typed value in the report (its kind and message), not a string")
    func tripFailureIsAValue() throws {
        let (home, cleanUp) = temporaryHome("door-trip-failure")
        defer { cleanUp() }
        let door = TripHome(home)
        let trip = try door.create(name: "Lisbon 2027", zone: "Europe/Lisbon").tripID
        let shared = home.path + "-shared"
        defer { try? FileManager.default.removeItem(atPath: shared) }  // the test's own folder
        // The trip's folder in the shared folder is a file: the trip cannot sync, the sync runs.
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: shared + "/" + trip.description, contents: Data("not a folder".utf8)))
        let report = try door.sync(with: shared)
        let failure = try #require(report.trips.first { $0.tripID == trip }?.failure)
        #expect(failure.errorKind == .fileSystem)
        #expect(failure.message.contains("not a folder"))
        #expect(report.failed.count == 1)
    }

    @Test("no error type below the app API escapes a public call: a merge refused and an attachment's bad bytes are TripError values with their kind")
    func packageErrorsDoNotEscape() throws {
        let (home, door, lisbon, porto, cleanUp) = try Self.twoTrips("door-errors")
        defer { cleanUp() }
        // Two copies of different trips: refused, as a value of kind .refused.
        let merge = try #require(throws: TripError.self) { _ = try door.document(of: lisbon).merged(with: door.document(of: porto)) }
        #expect(merge.errorKind == .refused)
        // An attachment whose stored bytes were changed on disk: never handed out, a .fileSystem value naming the file.
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }  // the test's own folder
        let file = folder + "/ticket.pdf"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("%PDF-1.4 ticket".utf8)))
        let id = try door.edit(lisbon) { try $0.addItem(NewItem(title: "Flight", sortKey: ""), at: .last) }
        let attached = try door.write(lisbon) { try $0.attach(file: file, to: id, caption: nil, stripLocation: false) }
        let blob = try #require(BlobID(attached.entry.blob.sha256))
        let stored = try BlobStore(home: home.path).path(of: blob)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: stored)
        try Data("%PDF-1.4 forged".utf8).write(to: URL(fileURLWithPath: stored))
        let bytes = try #require(throws: TripError.self) { _ = try door.write(lisbon) { try $0.bytes(of: attached.entry.id) } }
        #expect(bytes.errorKind == .fileSystem)
        #expect(bytes.facts.file == stored)
    }

    @Test("the status and the members are read from a snapshot: no lock taken, so another process's store opens meanwhile")
    func readsTakeNoLock() throws {
        let (home, cleanUp) = temporaryHome("door-status")
        defer { cleanUp() }
        let door = TripHome(home)
        let trip = try door.create(name: "Lisbon 2027", zone: "Europe/Lisbon").tripID
        try door.edit(trip) { _ = try $0.addItem(NewItem(title: "Castelo", sortKey: ""), at: .last) }
        // Another process holds the lock (the CLI in the middle of a write).
        let other = try TripStore.open(trip.description, in: home, timeout: 0)
        let status = try door.status(of: trip.description)
        #expect(status.status.ours > 0)
        let read = try door.members(of: trip)
        #expect(read.holdsOwnerKey)
        #expect(read.members.map(\.device) == [read.document.deviceID])
        #expect(!door.holdsLock)
        withExtendedLifetime(other) {}
    }

    /// Each face's source files, by `face/file`.
    static func faceSources() throws -> [(file: String, text: String)] {
        let sources = PackagePaths.root + "/Sources"
        var found: [(String, String)] = []
        for face in ["tripsync", "TripSyncWeb"] {
            let folder = sources + "/" + face
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            #expect(!files.isEmpty)
            for file in files { found.append((face + "/" + file, try String(contentsOfFile: folder + "/" + file, encoding: .utf8))) }
        }
        return found
    }

    @Test("neither face runs a sync, a watch loop, the last-folder rule or an import of its own: both go through the door")
    func facesSyncThroughTheDoor() throws {
        for (file, text) in try Self.faceSources() {
            for call in ["FolderSync(", "SyncLoop(", "FolderSync.lastFolder(", ".lastFolders(", "recordLastFolder(", "TripImport.prepare(", "plan.apply("] {
                #expect(!text.contains(call), "\(file) calls \(call)")
            }
        }
    }

    @Test("neither face opens or creates a store below the door")
    func facesUseTheDoor() throws {
        for (file, text) in try Self.faceSources() {
            for call in ["TripStore.open(", "TripStore.create(", "TripStore.join(", "QuickEdit.open("] {
                #expect(!text.contains(call), "\(file) calls \(call)")
            }
        }
    }
}
