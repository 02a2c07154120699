import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Why a trip of a home could not be opened (`TripStore`, `Home.trip(matching:)`). Edits that
/// are refused throw `EditError`; files that are refused throw `TripFileError`; the file system
/// throws `FileSystemError`.
package enum TripStoreError: TripSyncError {
    /// The home holds no trip yet.
    case noTrips(home: String)
    /// No trip has that id, id prefix, name or name start.
    case noMatch(String)
    /// Several trips fit (`selector` nil: the home holds several and none was named); `unreadable`
    /// of them cannot be read.
    case ambiguous(selector: String?, count: Int, unreadable: Int)
    /// Several trips of the home have the name `selector` (two joins of trips with one name):
    /// each is listed, to be picked by id.
    case sameName(String, trips: [(id: TripID, items: Int)])
    /// The trip meant is one whose replica cannot be read: nothing is changed until the file is
    /// moved away and the trip brought back from a backup or a shared folder.
    case unreadable(HomeTrips.Unreadable)
    /// Another process holds the home's lock (or the lock file cannot be opened).
    case busy(FileSystemError)

    /// What a person reads.
    package var description: String {
        switch self {
        case .noTrips(let home): return "\(home): this home holds no trip yet; create one first"
        case .noMatch(let selector): return "no trip matches '\(selector)'"
        case .ambiguous(nil, let count, let unreadable):
            return "this home holds \(count) trips\(unreadable == 0 ? "" : " (\(unreadable) of them unreadable)"); name the one meant"
        case .ambiguous(let selector?, let count, _): return "'\(selector)' matches \(count) trips; give more of the id or the name"
        case .sameName(let name, let trips):
            let list = trips.map { "\($0.id) (\($0.items) item\($0.items == 1 ? "" : "s"))" }.joined(separator: ", ")
            return "\(trips.count) trips of this home are named '\(name)': \(list); pick one by its id (and rename one of them)"
        case .unreadable(let file):
            if case .file(let error) = file.failure, error.file.hasSuffix(EditJournal.fileSuffix) {
                // The replica reads; its edit journal does not (what to do is in its error).
                return (file.lines + ["\(error.file): nothing was changed"]).joined(separator: "\n")
            }
            return (file.lines + [
                "\(file.path): this trip's replica cannot be read, so nothing was changed; "
                    + "move the file out of the home, then bring the trip back from a backup (by importing it) or a shared folder (by syncing with it)"
            ]).joined(separator: "\n")
        case .busy(let error): return error.description
        }
    }
}

extension HomeTrips {
    /// The trip `selector` names: an id, an id prefix of at least 4 characters, an exact name,
    /// or else the start of one name (in any case); nil picks the only trip. An unreadable file counts as a trip of the home: naming
    /// it, or leaving the selector out when it could be the one meant, is `.unreadable`.
    package func choose(_ selector: String?, home: String) -> Result<LoadedTrip, TripStoreError> {
        guard let selector else {
            let count = trips.count + unreadable.count
            if count == 1, let trip = trips.first { return .success(trip) }
            if count == 1, let broken = unreadable.first { return .failure(.unreadable(broken)) }
            if count == 0 { return .failure(.noTrips(home: home)) }
            return .failure(.ambiguous(selector: nil, count: count, unreadable: unreadable.count))
        }
        func names(_ id: TripID) -> Bool { HomeTrips.names(id, selector) }
        if let exact = trips.first(where: { $0.document.tripID.description == selector }) { return .success(exact) }
        if let exact = unreadable.first(where: { $0.tripID?.description == selector }) { return .failure(.unreadable(exact)) }
        let named = named(selector)
        if named.count > 1 {
            return .failure(.sameName(selector, trips: named.map { ($0.document.tripID, $0.document.items.count) }))
        }
        let readable = trips.filter { names($0.document.tripID) || $0.document.trip.name.value == selector }
        let broken = unreadable.filter { $0.tripID.map(names) ?? false }
        if readable.count + broken.count == 1 {
            if let trip = readable.first { return .success(trip) }
            if let file = broken.first { return .failure(.unreadable(file)) }
        }
        if trips.isEmpty && unreadable.isEmpty { return .failure(.noTrips(home: home)) }
        if readable.isEmpty && broken.isEmpty {
            // Last, the start of a name, in any case ("lis" for "Lisbon 2027").
            let started = trips.filter { HomeTrips.startsName($0.document.trip.name.value, selector) }
            if started.count == 1, let trip = started.first { return .success(trip) }
            if started.count > 1 { return .failure(.ambiguous(selector: selector, count: started.count, unreadable: 0)) }
            return .failure(.noMatch(selector))
        }
        return .failure(.ambiguous(selector: selector, count: readable.count + broken.count, unreadable: broken.count))
    }
}

extension TripStoreError {
    /// The shared code of the case.
    package var errorKind: TripSyncErrorKind {
        switch self {
        case .noTrips: .noTrips
        case .noMatch: .notFound
        case .ambiguous: .ambiguous
        case .sameName: .sameName
        case .unreadable: .unreadableReplica
        case .busy: .busy
        }
    }

    /// The home, the trip as named, or the unreadable file.
    package var facts: ErrorFacts {
        switch self {
        case .noTrips(let home): ErrorFacts(file: home)
        case .noMatch(let selector), .sameName(let selector, _): ErrorFacts(item: selector, thing: "trip")
        case .ambiguous(let selector, _, _): ErrorFacts(item: selector, thing: "trip")
        case .unreadable(let file): ErrorFacts(file: file.path, trip: file.tripID?.description)
        case .busy(let error): error.facts
        }
    }
}
