import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// A TripSync home on this laptop, held open: where an app starts (docs/DESIGN.md, "The app
/// API"). The handle owns the home's lock from `init` until it is released, so no `tripsync`
/// process and no other handle writes the home meanwhile; the trips it opens share that lock.
///
/// ```swift
/// let home = try TripHome(path: path)
/// let store = try home.create(name: "Lisbon", zone: "Europe/Lisbon")
/// try store.edit { trip in try trip.addItem(NewItem(title: "Castelo")) }
/// let report = try home.sync(with: "/Volumes/Shared/trips")
/// ```
///
/// A handle is safe to use from several threads: the stores it opens serialize their own calls,
/// and a sync runs under the same lock.
public final class TripHome: @unchecked Sendable {
    /// The home's folder.
    public let path: String
    package let home: Home
    package let lock: HomeLock
    /// The stores this handle opened and that are still held, to refresh after a sync.
    private var opened: [Weak] = []
    private let mutex = NSLock()

    private struct Weak {
        weak var store: TripStore?
    }

    /// Opens the home at `path` (nil: `$TRIPSYNC_HOME`, else the platform's default), making
    /// its folder when missing, and takes its lock, waiting up to `timeout` seconds for another
    /// process. Throws `TripStoreError.busy` when the lock stays taken, `FileSystemError` when
    /// the folder cannot be made or locked.
    public convenience init(path: String? = nil, timeout: Double = 10) throws {
        try self.init(Home.resolve(option: path), timeout: timeout)
    }

    /// Opens `home` (the faces' route: they resolve the home themselves).
    package init(_ home: Home, timeout: Double = HomeLock.defaultTimeout) throws {
        self.home = home
        path = home.path
        lock = try TripStore.takeLock(home, timeout: timeout)
    }

    /// The trips of the home: a summary of each readable one, by name, and every trip file that
    /// could not be read, with why (never dropped in silence).
    public func trips() throws -> TripList {
        let listing = try home.listTrips()
        return TripList(
            trips: listing.trips.map { TripSummary($0.document) }.sorted { ($0.name, $0.tripID.description) < ($1.name, $1.tripID.description) },
            unreadable: listing.unreadable.map { TripList.Unreadable(path: $0.path, problems: $0.lines) })
    }

    /// Opens the trip `selector` names (an id, an id prefix of at least 4 characters, or its
    /// exact name; nil: the home's only trip). Throws `TripStoreError` (no such trip, several,
    /// its file unreadable) or `TripFileError` (this laptop's identity file broken).
    public func open(_ selector: String? = nil) throws -> TripStore {
        remember(try TripStore.open(selector, in: home, holding: lock))
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
    /// otherwise anyone with the folder may write it. Throws `EditError` for a name or zone
    /// refused, `TripStoreError.nameTaken` when another trip of the home has the name.
    public func create(name: String, zone: String? = nil, owned: Bool = true) throws -> TripStore {
        remember(try TripStore.create(name: name, defaultZone: zone, owned: owned, in: home, holding: lock))
    }

    /// Asks to join the trip an invite code names, through the shared `folder`: writes a signed
    /// request there for the owner to approve; the trip arrives with a sync once approved.
    /// Throws `InviteError` (a malformed or expired code, a trip already held under another
    /// owner) or `FileSystemError`.
    public func join(code: String, folder: String) throws {
        let invite = try InviteCode(parsing: code)
        _ = try TripStore.join(code: invite, folder: folder, in: home, holding: lock)
    }

    /// Reads a trip file to import (a backup, a file someone sent) and says what merging it or
    /// replacing this home's copy with it would do, without changing anything: what it holds,
    /// how old it is, which items it deleted that live here, which unpublished changes a replace
    /// would discard. Throws `TripFileError` for a file that cannot be read.
    public func prepareImport(file: String) throws -> TripImport {
        try TripImport.prepare(file: file, into: home, holding: lock)
    }

    /// Merges the prepared file into the home's copy, or replaces the copy with it (keeping
    /// the replaced one as a backup), and saves durably; a store of that trip this handle opened
    /// shows the result. Throws `TripImport.Refusal` when the file is not accepted
    /// (`refusal(for:)` says why) or the home's copy changed since `prepareImport`.
    @discardableResult
    public func apply(_ prepared: TripImport, _ mode: TripImport.Mode) throws -> TripImport.Outcome {
        let stores = mutex.withLock { opened.compactMap(\.store) }.filter { $0.tripID == prepared.incoming.document.tripID }
        for store in stores { try store.save() }
        let outcome = try prepared.apply(mode, holding: lock)
        for store in stores { store.adopt(identity: outcome.identity, document: outcome.document) }
        return outcome
    }

    /// Syncs every trip of the home with the shared `folder` (nil: the folder the trips last
    /// synced with): merges each device's file there and publishes this laptop's, and records
    /// the folder as the trips' last one. Stores this handle opened show the synced trips
    /// afterwards (their unsaved edits were saved first: every edit is saved on return). Throws when the folder cannot be used at all
    /// (`LastFolderError` when there is none to reuse); a trip that could not sync is reported
    /// in its `SyncReport.Trip.failure`, and the others go on.
    public func sync(with folder: String? = nil) throws -> SyncReport {
        let sync = try folder.map { FolderSync(home: home, folder: $0) } ?? FolderSync(lastFolderOf: home)
        let stores = mutex.withLock { opened.compactMap(\.store) }
        for store in stores { try store.save() }
        let result = try sync.runKeeping(locked: lock, only: nil, now: FileMerger.wallClockMilliseconds())
        for store in stores { store.adopt(result) }
        return result.report
    }

    /// The folder the home's trips last synced with, or nil when they have synced with none
    /// (or with different folders). Throws when a trip's settings file cannot be read.
    public func lastFolder() throws -> String? {
        do {
            return try FolderSync.lastFolder(of: home)
        } catch {
            switch error {
            case .none, .ambiguous: return nil
            case .unreadable: throw error
            }
        }
    }

    /// What each change of this laptop to the trip `selector` names has reached, the numbers a
    /// team watches, and the attachments by state (the report of `tripsync status`).
    public func status(of selector: String? = nil) throws -> StatusReport {
        try open(selector).status()
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
