import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// A TripSync home on this laptop: where an app starts, and the door both faces use
/// (docs/DESIGN.md, "The app API" and "One door"). Reads take a consistent snapshot without the
/// home's lock; each write takes the lock for that write only (`edit(_:_:)`, `write(_:_:)`,
/// `create`, `sync`), so the CLI, a second app and the browser app can all write the home
/// between two of this handle's writes. A store from `open(_:)` holds the lock while it lives
/// (and every write of this handle meanwhile shares it); release the store to let others in.
///
/// ```swift
/// let home = try TripHome(path: path)
/// let store = try home.create(name: "Lisbon", zone: "Europe/Lisbon")
/// try store.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
/// let report = try home.sync(with: shared)   // the shared folder, e.g. "/Volumes/Shared/trips"
/// ```
///
/// A handle is safe to use from several threads: its writes are serialized, the stores it
/// opens serialize their own calls, and a sync runs under the same lock.
public final class TripHome: @unchecked Sendable {
    /// The home's folder.
    public let path: String
    package let home: Home
    private let timeout: Double
    /// The lock while anything of this handle holds it (a store, a write in progress).
    private weak var held: HomeLock?
    /// The stores this handle opened and that are still held, to refresh after a sync.
    private var opened: [Weak] = []
    private let mutex = NSLock()
    /// One write of this handle at a time (the lock is shared within the process).
    private let writing = NSRecursiveLock()

    private struct Weak {
        weak var store: TripStore?
    }

    /// Opens the home at `path` (nil: `$TRIPSYNC_HOME`, else the platform's default). Nothing
    /// is locked until a write: each write waits up to `timeout` seconds for another process,
    /// then throws a `TripError` of kind `.busy`.
    public convenience init(path: String? = nil, timeout: Double = 10) throws {
        self.init(Home.resolve(option: path), timeout: timeout)
    }

    /// Opens `home` (the faces' route: they resolve the home themselves).
    package init(_ home: Home, timeout: Double = HomeLock.defaultTimeout) {
        self.home = home
        self.timeout = timeout
        path = home.path
    }

    /// The home's lock: the one held by this handle's stores or a write in progress, else
    /// taken now. It is released when the last holder lets it go.
    package func lease() throws -> HomeLock {
        try mutex.withLock {
            if let held { return held }
            let lock = try TripStore.takeLock(home, timeout: timeout)
            held = lock
            return lock
        }
    }

    /// Whether this handle (a store it opened, or a write in progress) holds the home's lock now.
    package var holdsLock: Bool { mutex.withLock { held != nil } }

    /// Runs `body` as one write: serialized with this handle's other writes, under the lock;
    /// what it throws is thrown as the app sees it (`TripError.forApp`).
    private func writing<T>(_ body: (HomeLock) throws -> T) throws -> T {
        writing.lock()
        defer { writing.unlock() }
        return try TripError.door {
            let lock = try lease()
            return try withExtendedLifetime(lock) { try body(lock) }
        }
    }

    /// The trip with id `trip` as saved now (its replica and edit journal), read without the
    /// lock: a consistent snapshot, never half of a write. Throws a `TripError` of kind `.notFound` when
    /// the home has no such trip, `.unreadableReplica` when its file cannot be read.
    public func document(of trip: TripID) throws -> TripDocument {
        try TripError.door {
            try loaded(trip).document
        }
    }

    /// `document(of:)` with what the read noticed (the browser app's pages).
    package func loaded(_ trip: TripID) throws -> LoadedTrip {
        let listing = try TripError.door { try home.listTrip(trip) }  // only this trip's replica
        guard let loaded = listing.trip(trip) else {
            if let unreadable = listing.unreadable(trip) { throw TripStoreError.unreadable(unreadable) }
            throw TripStoreError.noMatch(trip.description)
        }
        return loaded
    }

    /// Runs `body` on the trip with id `trip` and saves what it wrote, holding the home's lock
    /// for this write only (`TripStore.edit`'s rules: nothing is saved when `body` throws).
    @discardableResult
    public func edit<T>(_ trip: TripID, _ body: (inout TripEditor) throws -> T) throws -> T {
        try write(trip) { store in try store.edit(body) }
    }

    /// Runs `body` with a store of the trip with id `trip` that holds the lock for this call
    /// only (a sync of one trip, an invite, an attachment). Do not keep the store.
    @discardableResult
    public func write<T>(_ trip: TripID, _ body: (TripStore) throws -> T) throws -> T {
        try writing { lock in try body(TripStore.open(trip: trip, in: home, holding: lock)) }
    }

    /// Runs `body` on the trip `selector` names, holding the lock for this write only, without
    /// decoding every item when the trip's replica view allows (`QuickEdit`: `needs` declares
    /// the items `body` reads); otherwise on the whole trip, after which the view is written
    /// anew. `notices` hears what a person should know (a re-keyed identity, warnings); the
    /// whole trip's store is handed to `opened` before the edit (the CLI warns from it); an error
    /// of the edit or its save goes through `saving` with the file saved (a face's wording).
    package func edit<T>(
        _ selector: String?, needs: QuickEdit.Needs, notices: ([String]) -> Void, opened: (TripStore) -> Void = { _ in },
        saving: (_ path: String, _ error: any Error) -> any Error = { _, error in error }, _ body: (inout TripEditor) throws -> T
    ) throws -> T {
        try writing { lock in
            switch try QuickEdit.open(home, trip: selector, needs: needs, holding: lock) {
            case .quick(let quick):
                do {
                    if let result = try quick.edit(body) { return result }
                } catch {
                    throw saving(quick.path, error)
                }
            case .whole(let told):
                notices(told)
            }
            // The home's other trips are kept for their views: a quick edit chooses among them all.
            let store = try TripStore.open(selector, in: home, holding: lock, keepingOthers: true)
            opened(store)
            let result: T
            do {
                result = try store.edit(body)
            } catch {
                throw saving(store.path, error)
            }
            do {
                try store.refreshView()
            } catch {
                notices(["\(error)"])
            }
            return result
        }
    }

    /// A cheap version of the trip with id `trip`: a stamp of its replica file and edit journal
    /// (each one's inode, size and change time), read without opening either. It changes with
    /// every save, by this handle, the CLI or a sync; a page polls it for live updates.
    public func version(of trip: TripID) -> String {
        guard let replica = Self.stamp(home.replicaPath(for: trip)) else { return "none" }
        return replica + "/" + (Self.stamp(home.journalPath(for: trip)) ?? "none")
    }

    /// `inode-size-ctime` of a file, nil when there is none.
    private static func stamp(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let changed = info.st_ctimespec
        #else
            let changed = info.st_ctim
        #endif
        return "\(info.st_ino)-\(info.st_size)-\(changed.tv_sec)-\(changed.tv_nsec)"
    }

    /// The trips of the home: a summary of each readable one, by name, and every trip file that
    /// could not be read, with why (never dropped in silence).
    public func trips() throws -> TripList {
        try TripError.door {
            let listing = try home.listTrips()
            return TripList(
                trips: listing.trips.map { TripSummary($0.document) }.sorted { ($0.name, $0.tripID.description) < ($1.name, $1.tripID.description) },
                unreadable: listing.unreadable.map { TripList.Unreadable(path: $0.path, problems: $0.lines) })
        }
    }

    /// Opens the trip `selector` names (an id, an id prefix of at least 4 characters, or its
    /// exact name; nil: the home's only trip). Throws a `TripError`: `.notFound`, `.ambiguous`,
    /// `.sameName`, `.unreadableReplica`, `.busy`, or `.invalidFile` (this laptop's identity file broken).
    public func open(_ selector: String? = nil) throws -> TripStore {
        try open(selector, keepingOthers: false)
    }

    /// `open(_:)`, keeping the home's other trips read on the way for their views (the CLI).
    package func open(_ selector: String?, keepingOthers: Bool) throws -> TripStore {
        try writing { lock in remember(try TripStore.open(selector, in: home, holding: lock, keepingOthers: keepingOthers)) }
    }

    private func remember(_ store: TripStore) -> TripStore {
        mutex.withLock {
            opened.removeAll { $0.store == nil }
            opened.append(Weak(store: store))
        }
        return store
    }

    /// Creates a trip named `name`, optionally with its zone (an IANA id such as
    /// `Europe/Lisbon`), saved durably, and opens it. An `owned` trip has an owner key kept in
    /// this home, so its members and roles are enforced (docs/DESIGN.md, "Members and roles");
    /// otherwise anyone with the folder may write it. Throws a `TripError`: `.invalidValue` for a
    /// name or zone refused, `.refused` when another trip of the home has the name.
    public func create(name: String, zone: String? = nil, owned: Bool = true) throws -> TripStore {
        try writing { lock in remember(try TripStore.create(name: name, defaultZone: zone, owned: owned, in: home, holding: lock)) }
    }

    /// Asks to join the trip an invite code names, through the shared `folder`: writes a signed
    /// request there for the owner to approve; the trip arrives with a sync once approved.
    /// Throws a `TripError`: `.badInvite` or `.expiredInvite` for the code, another kind for a trip
    /// already held under another owner, `.fileSystem` when the request cannot be written.
    public func join(code: String, folder: String) throws {
        try TripError.door {
            _ = try join(code: try InviteCode(parsing: code), folder: folder)
        }
    }

    /// `join(code:folder:)` with the code read already, answering the request written.
    package func join(code: InviteCode, folder: String) throws -> JoinRequest {
        try writing { lock in try TripStore.join(code: code, folder: folder, in: home, holding: lock) }
    }

    /// Reads a trip file to import (a backup, a file someone sent) and says what merging it or
    /// replacing this home's copy with it would do, without changing anything: what it holds,
    /// how old it is, which items it deleted that live here, which unpublished changes a replace
    /// would discard. Throws a `TripError` (`.invalidFile`) for a file that cannot be read.
    public func prepareImport(file: String) throws -> TripImport {
        try writing { lock in try TripImport.prepare(file: file, into: home, holding: lock) }
    }

    /// Merges the prepared file into the home's copy, or replaces the copy with it (keeping
    /// the replaced one as a backup), and saves durably; a store of that trip this handle opened
    /// shows the result. Throws a `TripError` (`.refused`) when the file is not accepted
    /// (`refusal(for:)` says why) or the home's copy changed since `prepareImport`.
    @discardableResult
    public func apply(_ prepared: TripImport, _ mode: TripImport.Mode) throws -> TripImport.Outcome {
        try writing { lock in
            let stores = mutex.withLock { opened.compactMap(\.store) }.filter { $0.tripID == prepared.incoming.document.tripID }
            for store in stores { try store.save() }
            let outcome = try prepared.apply(mode, holding: lock)
            for store in stores { store.adopt(identity: outcome.identity, document: outcome.document) }
            return outcome
        }
    }

    /// Syncs every trip of the home with the shared `folder` (nil: the folder the trips last
    /// synced with, `syncFolder(_:)`): merges each device's file there and publishes this
    /// laptop's, and records the folder as the trips' last one. `progress` hears each trip and
    /// each large attachment's copy as the sync goes. Stores this handle opened show the synced
    /// trips afterwards (their unsaved edits were saved first: every edit is saved on return).
    /// Throws when the folder cannot be used at all (a `TripError` of kind `.notFound` or
    /// `.ambiguous` about the "last folder" when there is no one folder to reuse); a trip that
    /// could not sync is reported in its `SyncReport.Trip.failure`, and the others go on.
    public func sync(with folder: String? = nil, progress: (@Sendable (SyncProgress) -> Void)? = nil) throws -> SyncReport {
        let sync = try folderSync(folder, progress: progress)
        return try TripError.door { try run(sync) }
    }

    /// One sync under this handle's lock, the stores it opened saved before and shown the result
    /// after (`sync(with:)` and each round of `watch`).
    func run(_ sync: FolderSync) throws -> SyncReport {
        try writing { lock in
            let stores = mutex.withLock { opened.compactMap(\.store) }
            for store in stores { try store.save() }
            let result = try sync.runKeeping(locked: lock, only: nil, now: FileMerger.wallClockMilliseconds())
            for store in stores { store.adopt(result) }
            return result.report
        }
    }

    /// The shared folder a sync or a watch with `folder` uses: `folder` itself, else the one
    /// folder the home's trips last synced with (or the folder of a pending join); the one rule
    /// every face follows. Throws a `TripError` about the "last folder" (`facts.thing`):
    /// `.notFound` when none is recorded, `.ambiguous` when the trips used several (the message
    /// names each with its trips), `.fileSystem` when a trip's record cannot be read.
    public func syncFolder(_ folder: String? = nil) throws -> String {
        if let folder { return folder }
        return try TripError.door { try FolderSync.lastFolder(of: home) }
    }

    /// The sync `sync(with:)` and `watch` run: with `syncFolder(folder)`, telling `progress`.
    func folderSync(_ folder: String?, progress: (@Sendable (SyncProgress) -> Void)?) throws -> FolderSync {
        var sync = FolderSync(home: home, folder: try syncFolder(folder))
        if let progress {
            sync.progress = { done, total in progress(.trip(done: done, of: total)) }
            sync.blobProgress = { name, done, total, fetching in progress(.attachment(name: name, done: done, of: total, fetching: fetching)) }
        }
        return sync
    }

    /// The folder the home's trips last synced with, or nil when they have synced with none
    /// (or with different folders). Throws when a trip's settings file cannot be read.
    public func lastFolder() throws -> String? {
        do {
            return try FolderSync.lastFolder(of: home)
        } catch {
            switch error {
            case .none, .ambiguous: return nil
            case .unreadable: throw TripError(error)
            }
        }
    }

    /// The folder the trip with id `trip` last synced with (or asked to join through), nil when
    /// none is recorded. Throws when a trip's settings file cannot be read.
    public func lastFolder(of trip: TripID) throws -> String? {
        try TripError.door { try home.lastFolders().first { $0.trips.contains(trip) }?.folder }
    }

    /// What each change of this laptop to the trip `selector` names has reached, the numbers a
    /// team watches, and the attachments by state (the report of `tripsync status`).
    /// Read without the lock, from a snapshot of the trip as saved now (as `document(of:)`).
    public func status(of selector: String? = nil) throws -> StatusReport {
        let loaded = try TripError.door { try home.listTrips().choose(selector, home: home.path).get() }
        let me = try TripError.door { try home.identity().deviceID }
        return StatusReport(loaded.document, me: me, home: home, now: .now)
    }

    /// How `document`, a trip of this home, travels through the shared folder: open, owned and
    /// not sealed yet, sealed, or sealed without this laptop (`StatusReport.folderForm`).
    package func folderForm(of document: TripDocument) -> StatusReport.FolderForm {
        StatusReport.folderForm(of: document, home: home)
    }

    /// The trip with id `trip` as saved now with its members and pending devices
    /// (`TripStore.members()`) and whether this home holds its owner key, all from one read
    /// snapshot without the lock (the browser app's members page).
    package func members(of trip: TripID) throws -> (document: TripDocument, members: [MemberEntry], holdsOwnerKey: Bool) {
        let document = try document(of: trip)
        return (document, try TripStore.members(of: document, home: home), try TripStore.holdsOwnerKey(document, home: home))
    }
}

/// The trips of a home (`TripHome.trips()`).
public struct TripList: Sendable {
    /// A trip file of the home that could not be read.
    public struct Unreadable: Sendable, Hashable {
        /// The file.
        public var path: String
        /// Its problems, one line each (the first says why it was refused).
        public var problems: [String]
    }

    /// The readable trips, by name.
    public var trips: [TripSummary]
    /// The trip files that could not be read.
    public var unreadable: [Unreadable]
}
