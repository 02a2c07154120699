import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// One trip of a home, open for reading and editing: the app API (docs/DESIGN.md, "The app
/// API"). A store owns the home's lock (so no other `tripsync` process or store writes the home
/// while it is open; released when the store is), this device's identity and clock, and the
/// document. Reads are snapshots (values); every change goes through `edit`, which stamps each
/// write with the next rev of the one clock and saves durably before it returns.
///
/// ```swift
/// let store = try TripHome(path: path).open("Lisbon")
/// let id = try store.edit { trip in try trip.addItem(NewItem(title: "Castelo"), at: .last) }
/// let conflicts = store.conflicts
/// ```
///
/// A store is safe to use from several threads: its calls run one at a time.
public final class TripStore: @unchecked Sendable {
    /// The home the trip lives in.
    package let home: Home
    /// Problems noticed when the trip was read (unknown zones, an end before its start); the
    /// file was still valid.
    public let warnings: [ValidationIssue]
    /// Trip files of the home that could not be read (other trips; this one read), to tell a
    /// person, never to drop in silence.
    package let skipped: [HomeTrips.Unreadable]

    let lock: HomeLock
    private let mutex = NSLock()
    var state: ReplicaState
    var unsaved: Bool
    var storedNotices: [String]
    private var storedDefaultZone: String?
    /// Set by `forget()`: the replica is gone from the home, so nothing more is saved.
    var forgotten = false
    /// The home's other trips as `open(keepingOthers:)` read them, until `refreshView`.
    var otherTrips: [LoadedTrip] = []

    private init(home: Home, lock: HomeLock, state: ReplicaState, warnings: [ValidationIssue], skipped: [HomeTrips.Unreadable], notices: [String]) {
        self.home = home
        self.lock = lock
        self.state = state
        self.warnings = warnings
        self.skipped = skipped
        storedNotices = notices + state.notices
        // A re-keyed identity is saved with the first edit (or `save()`), before any write.
        unsaved = !state.notices.isEmpty
        do {
            storedDefaultZone = try home.defaultZone(for: state.document.tripID)
        } catch {
            storedDefaultZone = nil
            storedNotices.append("\(error) (the trip's default zone is not used)")
        }
    }

    /// Opens the trip `selector` names (an id, an id prefix of at least 4 characters, or its
    /// exact name; nil: the home's only trip), taking the home's lock (waiting up to
    /// `timeout` seconds for another process or store). Throws `TripStoreError` (no such trip,
    /// several, its replica unreadable, the home busy), `TripFileError` (device.json broken) or
    /// `FileSystemError`.
    package static func open(_ selector: String? = nil, in home: Home, timeout: Double = HomeLock.defaultTimeout, keepingOthers: Bool = false) throws -> TripStore {
        try open(selector, in: home, holding: takeLock(home, timeout: timeout), keepingOthers: keepingOthers)
    }

    /// Opens the trip `selector` names under a lock the caller holds already (`TripHome.open`).
    /// With `keepingOthers`, the home's other trips read on the way are kept until
    /// `refreshView` writes their views (the CLI's edits that can go quick).
    package static func open(_ selector: String?, in home: Home, holding lock: HomeLock, keepingOthers: Bool = false) throws -> TripStore {
        let (identity, notice) = try home.openIdentity()
        return try open(listing: home.listTrips(), selector, in: home, holding: lock, identity: identity, notice: notice, keepingOthers: keepingOthers)
    }

    /// Opens the trip with id `trip`, reading only its replica (`Home.listTrip`), not the
    /// home's other trips: what the browser app does for each change it saves. Throws
    /// `.noMatch` when the home has no such trip.
    package static func open(trip: TripID, in home: Home, timeout: Double = HomeLock.defaultTimeout) throws -> TripStore {
        try open(trip: trip, in: home, holding: takeLock(home, timeout: timeout))
    }

    /// Opens the trip with id `trip` under a lock the caller holds already (`TripHome.write`).
    package static func open(trip: TripID, in home: Home, holding lock: HomeLock) throws -> TripStore {
        let (identity, notice) = try home.openIdentity()
        let listing = try home.listTrip(trip)
        if listing.trips.isEmpty && listing.unreadable.isEmpty { throw TripStoreError.noMatch(trip.description) }
        return try open(listing: listing, trip.description, in: home, holding: lock, identity: identity, notice: notice, keepingOthers: false)
    }

    /// The store of the trip `selector` chooses in `listing`, under `lock`, with the home's
    /// identity opened already.
    private static func open(
        listing: HomeTrips, _ selector: String?, in home: Home, holding lock: HomeLock, identity: DeviceIdentity,
        notice: String?, keepingOthers: Bool
    ) throws -> TripStore {
        let loaded = try listing.choose(selector, home: home.path).get()
        var state = ReplicaState(home: home, identity: identity, document: loaded.document)
        // A torn tail of the edit journal is cut away now that the lock is held.
        state.journal = try home.settleJournal(loaded.journal)
        let store = TripStore(
            home: home, lock: lock, state: state, warnings: loaded.warnings,
            skipped: listing.unreadable, notices: notice.map { [$0] } ?? [])
        if keepingOthers { store.otherTrips = listing.trips.filter { $0.document.tripID != loaded.document.tripID } }
        return store
    }

    /// Creates a trip named `name` in `home` (made when missing), optionally with the trip's zone
    /// (`zone`: the `trip.zone` register new timed items take by default), saved durably, and
    /// opens it. An `owned` trip has an owner key made and kept in this home, and its id derived
    /// from that key (docs/DESIGN.md, "Members and roles"); otherwise the trip is open until
    /// `claim()`. Throws `EditError` for a name or zone an editor refuses.
    package static func create(name: String, defaultZone zone: String? = nil, owned: Bool = true, in home: Home) throws -> TripStore {
        try TripDocument.check(name: name)
        return try create(name: name, defaultZone: zone, owned: owned, in: home, holding: takeLock(home))
    }

    /// Creates a trip under a lock the caller holds already (`TripHome.create`).
    package static func create(name: String, defaultZone zone: String?, owned: Bool, in home: Home, holding lock: HomeLock) throws -> TripStore {
        try TripDocument.check(name: name)
        try checkNameIsFree(name, in: home, except: nil)
        if let zone {
            guard ZoneID.isWellFormed(zone), ZoneDatabase.isTypeable(zone) else {
                throw EditError("zone \"\(zone.prefix(70))\" is not a zone of this machine's time zone database; expected an IANA id such as Europe/Lisbon")
            }
        }
        var (identity, notice) = try home.openIdentity()
        // The trip's owner key, kept in this home; the trip id is derived from it.
        let ownerKey = owned ? SigningKey.generate() : nil
        let tripID = ownerKey.map { TripOwner.derivedTripID(for: $0.publicKey) } ?? Identifier.random()
        var clock = HybridLogicalClock(highWater: identity.highWater)
        guard let counter = clock.next(nowMilliseconds: FileMerger.wallClockMilliseconds()) else {
            throw EditError(.clockAhead, "this laptop's counter has reached the largest a rev can hold (its clock was once set hundreds of thousands of years ahead); set the date and time right and run the command again")
        }
        let rev = Rev(counter: counter, device: identity.deviceID)
        let document = TripDocument(
            tripID: tripID, deviceID: identity.deviceID, clock: VersionVector([identity.deviceID: counter]),
            trip: TripInfo(name: Register(value: name, rev: rev)))
        // The counter is ours: the identity issued it (so opening the trip is no sign of a copy).
        identity.highWater = max(identity.highWater, counter)
        var state = ReplicaState(home: home, identity: identity, document: document)
        state.clock = clock
        var editor = TripEditor(document: state.document, clock: state.clock, defaultZone: nil, now: FileMerger.wallClockMilliseconds())
        // The trip's zone is a register of the trip (the same on every replica), never a
        // setting of this home.
        if let zone { try editor.setZone(zone) }
        if ownerKey == nil { try editor.registerDevice(name: identity.name) }
        state.document = editor.document
        state.clock = editor.clock
        if let ownerKey {
            // The owner's name is in its grant (an owned trip names members only there).
            let deviceKey = try home.signingKey(for: identity.deviceID)
            try state.document.claim(
                ownerKey: ownerKey, deviceKey: deviceKey.publicKey, box: try home.encryptionKey(for: identity.deviceID).publicKey, name: identity.name,
                hlc: &state.clock, now: FileMerger.wallClockMilliseconds())
            // The key first: a trip of this home is never without the owner key that made it.
            try TripAccess(ownerKey: ownerKey).save(home, tripID)
        }
        try state.save()
        return TripStore(home: home, lock: lock, state: state, warnings: [], skipped: [], notices: notice.map { [$0] } ?? [])
    }

    /// Takes `home`'s lock, waiting up to `timeout` seconds; a lock held elsewhere is
    /// `TripStoreError.busy`.
    package static func takeLock(_ home: Home, timeout: Double = HomeLock.defaultTimeout) throws -> HomeLock {
        do {
            return try HomeLock(home: home, timeout: timeout)
        } catch let error as FileSystemError {
            throw TripStoreError.busy(error)
        }
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }

    /// The trip now (a value: later edits do not change it).
    public var document: TripDocument { locked { state.document } }
    /// The trip's id.
    public var tripID: TripID { locked { state.document.tripID } }
    /// This installation's device.
    public var deviceID: DeviceID { locked { state.identity.deviceID } }
    /// This installation's name for itself (written into the trip with its first edit).
    public var deviceName: String { locked { state.identity.name } }
    /// The replica's file in the home.
    package var path: String { locked { state.path } }
    /// The zone new timed items take when none is given: the trip's zone (`trip.zone`), else
    /// this home's older local default for the trip (`TripEditor.suggestedZone`).
    public var suggestedZone: String? { locked { (state.document.trip.zone?.value ?? nil) ?? storedDefaultZone } }
    /// What a person should know about this home (it was copied or restored and now writes as
    /// a new device; a broken local setting), in the order noticed.
    public var notices: [String] { locked { storedNotices } }

    /// Every conflict of the trip now.
    public var conflicts: ConflictList { ConflictList(document) }

    /// What each change of this device has reached now.
    public var delivery: DeliveryStatus {
        let (document, me) = locked { (state.document, state.identity.deviceID) }
        return DeliveryStatus(document, me: me, now: .now)
    }

    /// Runs `body` on the trip and saves what it wrote before returning (identity, then one
    /// record of the edit appended to the trip's edit journal and fsynced; the replica itself is
    /// rewritten whole only now and then: docs/DESIGN.md, "The edit journal"). When `body` throws, or the save fails,
    /// nothing is changed, here or on disk, and the error is rethrown. An edit that writes
    /// nothing saves nothing (unless a re-keyed identity is waiting to be saved).
    @discardableResult
    public func edit<T>(_ body: (inout TripEditor) throws -> T) throws -> T {
        try TripError.door {
            try locked {
                if forgotten { throw EditError(.notAllowed, "this trip was forgotten from this home; nothing more is saved") }
                var editor = TripEditor(
                    document: state.document, clock: state.clock, defaultZone: storedDefaultZone, now: FileMerger.wallClockMilliseconds())
                let result = try body(&editor)
                if editor.wrote { try checkMayEdit() }
                if editor.wrote { try editor.registerDevice(name: state.identity.name) }
                guard editor.wrote || unsaved else { return result }
                var next = state
                next.document = editor.document
                next.clock = editor.clock
                if unsaved {
                    // A re-keyed identity: the trip is written whole under the new id.
                    try next.save()
                } else if let notice = try next.saveEdit(from: state.document) {
                    storedNotices.append(notice)
                }
                state = next
                unsaved = false
                return result
            }
        }
    }

    /// Saves now: needed only to record a re-keyed identity (see `notices`) without an edit.
    public func save() throws {
        try TripError.door {
            try locked {
                guard unsaved else { return }
                var next = state
                try next.save()
                state = next
                unsaved = false
            }
        }
    }

    /// Syncs this trip with a shared folder (`FolderSync`: merge every device's file there,
    /// then publish ours), under the lock this store holds, and keeps the trip as the sync left
    /// it (the identity opened once and the replica read once per sync: nothing is read back).
    /// Throws when the folder cannot be used at all; a trip that could not sync is reported in
    /// the result's `failure`.
    public func sync(with folder: String) throws -> SyncReport {
        try TripError.door {
            try locked {
                if unsaved {
                    try state.save()
                    unsaved = false
                }
                let tripID = state.document.tripID
                let kept = try FolderSync(home: home, folder: folder).runKeeping(locked: lock, only: tripID, now: FileMerger.wallClockMilliseconds())
                adoptLocked(kept)
                return kept.report
            }
        }
    }

    /// Takes what a sync under this store's lock ended with (`TripHome.sync`): this laptop's
    /// identity and, when the sync saved the trip, its document, so the store shows the trip as
    /// it is now without reading it again.
    package func adopt(_ kept: FolderSync.Kept) {
        locked { adoptLocked(kept) }
    }

    private func adoptLocked(_ kept: FolderSync.Kept) {
        guard !forgotten else { return }
        let tripID = state.document.tripID
        // The sync folded the edit journal into the replica (and removed it), unless it
        // stopped before; a trip it did not save is on disk as this store holds it.
        let journal = kept.folded.contains(tripID) ? nil : state.journal
        state = ReplicaState(home: home, identity: kept.identity, document: kept.documents[tripID] ?? state.document)
        state.journal = journal
        unsaved = !state.notices.isEmpty
        storedNotices += state.notices
    }

    /// Takes the trip as an import under this store's lock saved it (`TripHome.apply`): the
    /// replica was rewritten whole, so no journal is left.
    package func adopt(identity: DeviceIdentity, document: TripDocument) {
        locked {
            guard !forgotten else { return }
            state = ReplicaState(home: home, identity: identity, document: document)
            unsaved = !state.notices.isEmpty
            storedNotices += state.notices
        }
    }
}
