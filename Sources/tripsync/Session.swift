import TripSync
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Opens the home's chosen trip for a command, and turns library errors into exits.
enum Session {
    /// The trip chosen by `--trip` (or the only one), open with the home locked; its notices,
    /// warnings and the home's other unreadable files are told on stderr.
    static func store(_ global: GlobalOptions, trip selector: String?) throws -> TripStore {
        let store: TripStore
        do {
            store = try TripStore.open(selector, in: HomeAccess.home(global))
        } catch let error as TripStoreError {
            throw refusal(error, home: HomeAccess.home(global))
        } catch let error as TripFileError {
            throw CLIError.file(error)
        }
        for unreadable in store.skipped { HomeAccess.warn(unreadable) }
        for notice in store.notices { Console.warning(notice) }
        for warning in store.warnings { Console.warning("\(store.path): \(warning)") }
        return store
    }

    /// Runs `body` on the chosen trip and saves what it wrote before returning.
    @discardableResult
    static func edit<T>(_ global: GlobalOptions, trip selector: String?, _ body: (inout TripEditor) throws -> T) throws -> T {
        let store = try store(global, trip: selector)
        do {
            return try store.edit(body)
        } catch let error as EditError {
            throw refusal(error)
        } catch let error as FileSystemError {
            throw CLIError.refused("\(store.path): cannot save: \(error); \(error.outcome)")
        }
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

    /// A refused edit: exit 1, or 2 for an item named by too short a prefix.
    static func refusal(_ error: EditError) -> CLIError {
        error.kind == .shortItemPrefix ? .usage(error.message, command: nil) : .refused(error.message)
    }

    /// A trip that cannot be opened: naming the trip wrongly is a usage error (exit 2).
    static func refusal(_ error: TripStoreError, home: Home) -> CLIError {
        switch error {
        case .noMatch: return .usage(error.description, command: nil)
        case .sameName(let name, let trips):
            // The full ids: two trips of one name may share any prefix.
            let lines = trips.map { "hint:   \($0.id)  \(name)  (\($0.items) item\($0.items == 1 ? "" : "s"))" }
            return .usage(
                (["\(trips.count) trips of this home are named '\(name)'; pick one with --trip ID (and 'tripsync rename' one of them)", "hint: the candidates are:"] + lines)
                    .joined(separator: "\n"), command: nil)
        case .ambiguous(let selector, _, _):
            // As git lists the objects an ambiguous short sha names: every candidate, with its id.
            let message = error.description
            let candidates: [HomeTrips.Candidate]
            do {
                candidates = try home.listTrips().candidates(selector)
            } catch {
                return .usage(message, command: nil)
            }
            let lines = candidates.map { "hint:   \($0.id)  \($0.name ?? "(unreadable replica)")" }
            return .usage(([message, "hint: the candidates are:"] + lines).joined(separator: "\n"), command: nil)
        case .unreadable(let file): return HomeAccess.refusal(file)
        case .noTrips:
            // A laptop that asked to join has no trip until the owner admits it: say that instead.
            let joins: [(trip: TripID, role: MemberRole, folder: String)]
            do {
                joins = try home.pendingJoins()
            } catch let unreadable {
                return .refused([error.description, "\(home.path)/access: cannot read this home's join records (\(unreadable))"])
            }
            guard !joins.isEmpty else { return .refused(error.description) }
            return .refused(
                joins.map {
                    "\(home.path): no trip here yet: this laptop asked to join trip \($0.trip) as \($0.role.rawValue) and waits for the owner to admit it; then run tripsync sync \($0.folder)"
                })
        case .busy: return .refused(error.description)
        }
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
        do {
            return try body()
        } catch let error as EditError {
            throw refusal(error)
        } catch let error as AttachmentError {
            throw CLIError.refused(error.message)
        } catch let error as BlobError {
            if case .fileSystem(let cause) = error.reason, cause.inPlace { throw CLIError.refused("\(error); \(cause.outcome)") }
            throw CLIError.refused("\(error); \(nothing)")
        } catch let error as FileSystemError {
            throw CLIError.refused("\(error); \(error.inPlace ? error.outcome : nothing)")
        }
    }
}
