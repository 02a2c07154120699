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
        let store = try TripStore.open(selector, in: HomeAccess.home(global), keepingOthers: keepingOthers)
        for unreadable in store.skipped { HomeAccess.warn(unreadable) }
        for notice in store.notices { Console.warning(notice) }
        for warning in store.warnings { Console.warning("\(store.path): \(warning)") }
        return store
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
        // The quick edit (and the home's lock it holds) ends with this closure.
        let quick: T? = try {
            switch try QuickEdit.open(home, trip: selector, needs: needs) {
            case .quick(let quick):
                return try Failure.during(.saving(quick.path), home: home) { try quick.edit(body) }
            case .whole(let notices):
                for notice in notices { Console.warning(notice) }
                return nil
            }
        }()
        if let quick { return quick }
        // The home's other trips are kept for their views: a quick edit chooses among them all.
        let store = try store(global, trip: selector, keepingOthers: true)
        let result = try Failure.during(.saving(store.path), home: store.home) { try store.edit(body) }
        do {
            try store.refreshView()
        } catch {
            Console.warning("\(error)")
        }
        return result
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
        } catch let error as EditError {
            throw refusal(error)
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
