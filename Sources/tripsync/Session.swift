import TripSync
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Opens the home's chosen trip for a command, and turns library errors into exits.
enum Session {
    /// The trip chosen by `--trip` (or the only one), open with the home locked; its notices,
    /// warnings and the home's other unreadable files are told on stderr.
    static func store(_ global: GlobalOptions, trip selector: String?, keepingOthers: Bool = false) throws -> TripStore {
        // A trip that cannot be opened is worded by `Failure` (from `runTool`).
        let store = try TripHome(HomeAccess.home(global)).open(selector, keepingOthers: keepingOthers)
        tell(store)
        return store
    }

    /// A store's notices, warnings and the home's other unreadable files, on stderr.
    static func tell(_ store: TripStore) {
        for unreadable in store.skipped { HomeAccess.warn(unreadable) }
        for notice in store.notices { Console.warning(notice) }
        for warning in store.warnings { Console.warning("\(store.path): \(warning)") }
    }

    /// Runs `body` on the chosen trip and saves what it wrote before returning.
    @discardableResult
    static func edit<T>(_ global: GlobalOptions, trip selector: String?, _ body: (inout TripEditor) throws -> T) throws -> T {
        let store = try store(global, trip: selector)
        return try Failure.during(.saving(store.path), home: store.home) { try store.edit(body) }
    }

    /// Runs `body` as `edit` does, first without decoding every item when the trip's replica
    /// view allows (`QuickEdit`: `needs` declares the items `body` reads); otherwise on the
    /// whole trip, after which the view is written anew when it was missing or behind (and the
    /// home's other trips get one when theirs is missing or not current).
    @discardableResult
    static func edit<T>(
        _ global: GlobalOptions, trip selector: String?, needs: QuickEdit.Needs, _ body: (inout TripEditor) throws -> T
    ) throws -> T {
        let home = HomeAccess.home(global)
        // The door chooses the quick edit or the whole trip, under the lock for this write only.
        return try TripHome(home).edit(
            selector, needs: needs, notices: { for notice in $0 { Console.warning(notice) } }, opened: tell,
            saving: { path, error in Failure.cliError(error, doing: .saving(path), home: home) }, body)
    }

    /// The trip for reading only (no lock: a reader sees the last saved state); a home that
    /// does not exist is refused and nothing is created.
    static func read(_ global: GlobalOptions, trip selector: String?) throws -> (trip: LoadedTrip, me: DeviceIdentity) {
        let home = HomeAccess.home(global)
        let identity = try HomeAccess.existingIdentity(global)
        let listing = try HomeAccess.listing(home)
        switch listing.choose(selector, home: home.path) {
        case .success(let loaded):
            HomeAccess.warnAll(listing)
            for warning in loaded.warnings { Console.warning("\(home.replicaPath(for: loaded.document.tripID)): \(warning)") }
            return (loaded, identity)
        case .failure(let error):
            if case .unreadable(let broken) = error { HomeAccess.warnAll(listing, except: broken) } else { HomeAccess.warnAll(listing) }
            throw refusal(error, home: home)
        }
    }

    /// A refused edit: exit 1, or 2 for an item named by too short a prefix (`Failure`).
    static func refusal(_ error: EditError) -> CLIError {
        Failure.cliError(error)
    }

    /// A trip that cannot be opened (`Failure`).
    static func refusal(_ error: TripStoreError, home: Home) -> CLIError {
        Failure.tripStore(error, home: home)
    }

    /// Turns a library edit error into a refusal (for checks made outside `edit`).
    static func attempt<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error where TripError.cause(of: error) is EditError {
            throw Failure.cliError(error)
        }
    }
}

extension Session {
    /// Runs attachment work, turning its errors into refusals: an `EditError` as every edit's,
    /// the others (`AttachmentError`, `BlobError`, `FileSystemError`) as one line ending in
    /// `nothing` (such as "nothing was changed").
    static func attachmentWork<T>(nothing: String, _ body: () throws -> T) throws -> T {
        try Failure.during(.changingAttachments(nothing: nothing), body)
    }
}
