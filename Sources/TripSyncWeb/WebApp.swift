import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pages and actions of `tripsync open` over one home: each reads the home through the
/// library (as the CLI's read commands do) or opens a `TripStore` for one change and closes it,
/// so the CLI and a sync can use the home between two requests. No trip logic lives here.
package final class WebApp: @unchecked Sendable {
    /// The home served.
    package let home: Home
    /// The door every page reads and writes through (the library's handle on the home).
    package let door: TripHome
    /// Sessions, tokens and the refusals.
    package let security: WebGuard
    private let lock = NSLock()
    private var notices: [String: String] = [:]
    let background = BackgroundSync()
    /// Add's one-time form keys.
    let formKeys = FormKeys()
    /// A join from the page, waiting for its trip.
    let joining = JoinWatch()

    /// Serves `home` under `origin`, its host name and cookie.
    package init(home: Home, origin: HomeOrigin) {
        self.home = home
        door = TripHome(home)
        security = WebGuard(origin: origin)
    }

    /// Serves `home` under its own origin (made and kept in the home the first time).
    package convenience init(home: Home) throws {
        self.init(home: home, origin: try HomeOrigin(home: home))
    }

    func start() { background.start(self) }
    func stop() { background.stop() }

    /// The answer to a request the guard let through: its route (`Route`, read once), then the
    /// page or action.
    package func respond(to request: WebRequest) -> WebResponse {
        guard let method = HTTPMethod(rawValue: request.method), let route = Route(method, request.path) else { return notFound() }
        switch route {
        case .trips: return tripsPage(request)
        case .staticFile(let name): return StaticFiles.response(name)
        case .favicon: return WebResponse(status: 204, headers: [], body: [])
        case .homeVersion: return homeVersion()
        case .join: return join(request)
        case .calendar(let trip): return calendar(trip)
        case .printable(let trip): return printable(trip)
        case .trip(let trip): return tripPage(request, trip: trip.description)
        case .version(let trip): return version(trip.description)
        case .addItem(let trip): return addItem(request, trip: trip.description)
        case .resolve(let trip): return resolve(request, trip: trip.description)
        case .sync(let trip): return syncNow(request, trip: trip.description)
        case .members(let trip): return membersPage(request, trip: trip.description)
        case .membersAction(let trip, let action): return membersAction(request, trip: trip.description, action: action)
        case .attachment(let trip, let attachment): return attachmentBytes(trip: trip.description, attachment: attachment)
        case .item(let trip, let item): return itemPage(request, trip: trip.description, item: item.description)
        case .editItem(let trip, let item): return editPage(request, trip: trip.description, item: item.description)
        case .saveItem(let trip, let item): return saveItem(request, trip: trip.description, item: item.description)
        case .deleteItem(let trip, let item): return deleteItem(request, trip: trip.description, item: item.description)
        case .restoreItem(let trip, let item): return restoreItem(request, trip: trip.description, item: item.description)
        case .upload(let trip, let item): return upload(request, trip: trip.description, item: item.description)
        }
    }

    // MARK: reading the home

    /// The trip `text` names by its full id: the door's snapshot, read without the lock.
    func loaded(_ text: String) throws -> LoadedTrip {
        guard let id = TripID(text) else { throw WebFailure.notFound }
        do {
            return try door.loaded(id)
        } catch TripStoreError.noMatch {
            throw WebFailure.notFound
        } catch TripStoreError.unreadable(let unreadable) {
            throw WebFailure.message(unreadable.description)
        }
    }

    /// Runs `body` with a store of the trip for one change: the door holds the home's lock for
    /// this write only.
    func withStore<T>(_ trip: String, _ body: (TripStore) throws -> T) throws -> T {
        guard let id = TripID(trip) else { throw WebFailure.notFound }
        do {
            return try door.write(id, body)
        } catch {
            // The door throws a `TripError`; the trip not found is the store error it was made from.
            switch TripError.cause(of: error) {
            case TripStoreError.noMatch: throw WebFailure.notFound
            default: throw error
            }
        }
    }

    /// The door's cheap version of the trip, which the page's script polls.
    func versionStamp(_ trip: TripID) -> String { door.version(of: trip) }

    private func version(_ trip: String) -> WebResponse {
        guard let id = TripID(trip) else { return notFound() }
        background.pageIsOpen()
        return WebResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(versionStamp(id).utf8))
    }

    // MARK: messages across a redirect

    func keepNotice(_ text: String, for request: WebRequest) {
        lock.withLock { notices[request.session] = text }
    }

    func takeNotice(_ request: WebRequest) -> String? {
        lock.withLock { notices.removeValue(forKey: request.session) }
    }

    // MARK: answers

    func notFound() -> WebResponse { WebResponse.html(404, Page.frame(title: "Not found", heading: "Not found", body: "<p><a href=\"/\">Back to the trips</a></p>\n")) }

    /// What went wrong, in words a person can act on (the library's own messages).
    static func words(_ error: Error) -> String {
        switch TripError.cause(of: error) {
        case let error as EditError: return error.message
        case let error as WebFailure: return error.description
        default: return "\(error)"
        }
    }

    /// The one place a library error's kind becomes an HTTP status: nothing of that name 404,
    /// not allowed to 403, a state that must change first (deleted, ambiguous, the order
    /// needs a time) 409, the home busy or its files unusable 503, a refused value 422.
    static func status(for error: Error) -> Int {
        if case WebFailure.notFound = error { return 404 }
        guard let error = error as? any TripSyncError else { return 422 }
        switch error.errorKind {
        case .notFound, .noTrips: return 404
        case .notAllowed, .notOwner, .openTrip, .lastOwner: return 403
        case .itemDeleted, .ambiguous, .sameName, .orderNeedsTime: return 409
        case .busy, .fileSystem, .unreadableReplica: return 503
        default: return 422
        }
    }

    /// A failure outside an edit: the trip page's error, or not found.
    func failure(_ error: Error) -> WebResponse {
        if case WebFailure.notFound = error { return notFound() }
        if Self.status(for: error) == 503 {
            return WebResponse.html(503, Page.frame(title: "Busy", heading: "Not now", body: "\(Page.error(Self.words(error)))<p><a href=\"/\">Back to the trips</a></p>\n"))
        }
        return WebResponse.html(500, Page.frame(title: "Error", heading: "Something went wrong", body: "\(Page.error(Self.words(error)))<p><a href=\"/\">Back to the trips</a></p>\n"))
    }
}
