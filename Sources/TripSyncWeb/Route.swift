import TripSync
import TripSyncCore

/// A request's method as a type: the only three the server answers (`WebGuard` refuses others).
package enum HTTPMethod: String, Sendable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"

    /// Whether the request only reads (GET or HEAD).
    package var reads: Bool { self != .post }
}

/// A page or action of the browser app as a value (in the style of swift-nio's typed HTTP
/// values): read once from a request's method and path, so the ids are checked in one place,
/// and written back as a path wherever a page links or redirects to it.
package enum Route: Hashable, Sendable {
    /// `GET /`: the trips.
    case trips
    /// `GET /static/NAME`.
    case staticFile(String)
    /// `GET /favicon.ico`.
    case favicon
    /// `GET /version`: the live stamp of the trips list.
    case homeVersion
    /// `POST /join`: join a trip with an invite code through a shared folder.
    case join
    /// `GET /trips/ID`: the itinerary, Add, conflicts, deleted, sync, status.
    case trip(TripID)
    /// `GET /trips/ID/calendar.ics`: the calendar file, as `export --ics` writes it.
    case calendar(TripID)
    /// `GET /trips/ID/itinerary.html`: the printable page, as `export --html` writes it.
    case printable(TripID)
    /// `GET /trips/ID/version`: the live stamp.
    case version(TripID)
    /// `POST /trips/ID/items`: Add.
    case addItem(TripID)
    /// `POST /trips/ID/resolve`: Keep this.
    case resolve(TripID)
    /// `POST /trips/ID/sync`: Sync now.
    case sync(TripID)
    /// `GET /trips/ID/members`.
    case members(TripID)
    /// `POST /trips/ID/members/ACTION` (invite, approve, decline, role).
    case membersAction(TripID, String)
    /// `GET /trips/ID/attachments/ATT`: the bytes.
    case attachment(TripID, String)
    /// `GET /trips/ID/items/ITEM`: the item whole.
    case item(TripID, ItemID)
    /// `GET /trips/ID/items/ITEM/edit`: the form with Save.
    case editItem(TripID, ItemID)
    /// `POST /trips/ID/items/ITEM`: Save.
    case saveItem(TripID, ItemID)
    /// `POST /trips/ID/items/ITEM/delete`.
    case deleteItem(TripID, ItemID)
    /// `POST /trips/ID/items/ITEM/restore`.
    case restoreItem(TripID, ItemID)
    /// `POST /trips/ID/items/ITEM/attachments`: an upload.
    case upload(TripID, ItemID)

    /// The route a request names; nil for none (404). Trip and item ids are full ids.
    package init?(_ method: HTTPMethod, _ path: String) {
        let parts = path.split(separator: "/").map(String.init)
        let reads = method.reads
        switch (reads, parts.count, parts.first) {
        case (true, 0, _): self = .trips
        case (true, 2, "static"?): self = .staticFile(parts[1])
        case (true, 1, "static"?): self = .staticFile("")
        case (true, 1, "favicon.ico"?): self = .favicon
        case (true, 1, "version"?): self = .homeVersion
        case (false, 1, "join"?): self = .join
        case (_, 2..., "trips"?):
            guard let trip = TripID(parts[1]) else { return nil }
            self.init(reads, trip: trip, Array(parts.dropFirst(2)))
        default: return nil
        }
    }

    private init?(_ reads: Bool, trip: TripID, _ rest: [String]) {
        switch (reads, rest.count, rest.first) {
        case (true, 0, _): self = .trip(trip)
        case (true, 1, "version"?): self = .version(trip)
        case (true, 1, "calendar.ics"?): self = .calendar(trip)
        case (true, 1, "itinerary.html"?): self = .printable(trip)
        case (false, 1, "items"?): self = .addItem(trip)
        case (false, 1, "resolve"?): self = .resolve(trip)
        case (false, 1, "sync"?): self = .sync(trip)
        case (true, 1, "members"?): self = .members(trip)
        case (false, 2, "members"?): self = .membersAction(trip, rest[1])
        case (true, 2, "attachments"?): self = .attachment(trip, rest[1])
        case (_, 2...3, "items"?):
            guard let item = ItemID(rest[1]) else { return nil }
            switch (reads, rest.count == 3 ? rest[2] : nil) {
            case (true, nil): self = .item(trip, item)
            case (true, "edit"?): self = .editItem(trip, item)
            case (false, nil): self = .saveItem(trip, item)
            case (false, "delete"?): self = .deleteItem(trip, item)
            case (false, "restore"?): self = .restoreItem(trip, item)
            case (false, "attachments"?): self = .upload(trip, item)
            default: return nil
            }
        default: return nil
        }
    }

    /// The route's path, as pages link and redirect to it.
    package var path: String {
        switch self {
        case .trips: return "/"
        case .staticFile(let name): return "/static/" + name
        case .favicon: return "/favicon.ico"
        case .homeVersion: return "/version"
        case .join: return "/join"
        case .calendar(let trip): return "/trips/\(trip)/calendar.ics"
        case .printable(let trip): return "/trips/\(trip)/itinerary.html"
        case .trip(let trip): return "/trips/\(trip)"
        case .version(let trip): return "/trips/\(trip)/version"
        case .addItem(let trip): return "/trips/\(trip)/items"
        case .resolve(let trip): return "/trips/\(trip)/resolve"
        case .sync(let trip): return "/trips/\(trip)/sync"
        case .members(let trip): return "/trips/\(trip)/members"
        case .membersAction(let trip, let action): return "/trips/\(trip)/members/\(action)"
        case .attachment(let trip, let attachment): return "/trips/\(trip)/attachments/\(attachment)"
        case .item(let trip, let item), .saveItem(let trip, let item): return "/trips/\(trip)/items/\(item)"
        case .editItem(let trip, let item): return "/trips/\(trip)/items/\(item)/edit"
        case .deleteItem(let trip, let item): return "/trips/\(trip)/items/\(item)/delete"
        case .restoreItem(let trip, let item): return "/trips/\(trip)/items/\(item)/restore"
        case .upload(let trip, let item): return "/trips/\(trip)/items/\(item)/attachments"
        }
    }
}
