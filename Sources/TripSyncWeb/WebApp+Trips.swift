import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

extension WebApp {
    /// `/`: the home's trips (live: the page polls `/version`), and Join a trip. `join` and
    /// `problems`: a refused join shown again as typed, each wrong field marked.
    func tripsPage(
        _ request: WebRequest, join: (code: String, folder: String) = ("", ""), problems: [(name: String, message: String)] = [], status: Int = 200
    ) -> WebResponse {
        let listing: HomeTrips
        do {
            listing = try home.listTrips()
        } catch {
            return failure(error)
        }
        var body = Page.notice(takeNotice(request))
        let trips = listing.trips.map(\.document).sorted { ($0.trip.name.value, $0.tripID) < ($1.trip.name.value, $1.tripID) }
        body += "<section id=\"trips\" data-live aria-label=\"Your trips\">\n"
        if let problem = joining.lastProblem { body += Page.error("Fetching the trip you asked to join: " + problem) }
        if trips.isEmpty {
            body += "<p>No trips on this laptop yet. Join one below with the invite code someone in the group sent you.</p>\n"
        } else {
            body += "<ul class=\"trips\">\n"
            for trip in trips {
                let conflicts = ConflictSummary(trip).total
                let items = "\(trip.items.count) item\(trip.items.count == 1 ? "" : "s")" + (conflicts > 0 ? ", \(conflicts) conflict\(conflicts == 1 ? "" : "s")" : "")
                body += "<li><a href=\"\(Route.trip(trip.tripID).path)\" dir=\"auto\">\(trip.trip.name.value)</a> <span class=\"meta\">\(items)</span></li>\n"
            }
            body += "</ul>\n"
        }
        for unreadable in listing.unreadable {
            body += Page.error(unreadable.description)
        }
        body += "</section>\n"
        body += joinHTML(csrf: request.csrf, form: join, problems: problems)
        return WebResponse.html(status, Page.frame(title: "Trips", heading: "Trips", live: Route.homeVersion.path, version: homeVersionStamp(), body: body))
    }

    /// A cheap stamp of every trip of the home (its replica's and journal's `door.version`),
    /// so the trips list changes on the page when a trip arrives, goes, or changes.
    func homeVersionStamp() -> String {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: home.tripsPath)
        } catch {
            return "none"  // no trips folder yet: nothing to show
        }
        let trips = names.compactMap { name -> TripID? in
            guard name.hasSuffix(Home.tripFileSuffix) else { return nil }
            return TripID(String(name.dropLast(Home.tripFileSuffix.count)))
        }.sorted { $0.description < $1.description }
        return trips.map { "\($0):\(door.version(of: $0))" }.joined(separator: ";") + (joining.lastProblem ?? "")
    }

    /// `GET /version`: the trips list's stamp; a poll also keeps the page's syncs running.
    func homeVersion() -> WebResponse {
        background.pageIsOpen()
        joining.tick(door)
        return WebResponse(status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(homeVersionStamp().utf8))
    }

    /// `GET /trips/ID/calendar.ics`: the trip as `export --ics` writes it (the library's
    /// `ICalendarExporter`), downloaded.
    func calendar(_ trip: TripID) -> WebResponse {
        let document: TripDocument
        do {
            document = try loaded(trip.description).document
        } catch {
            return failure(error)
        }
        let text = ICalendarExporter().calendar(document).text
        return Self.download(Array(text.utf8), type: "text/calendar; charset=utf-8", name: document.trip.name.value + ".ics")
    }

    /// `GET /trips/ID/itinerary.html`: the printable page, as `export --html` writes it (the
    /// library's `ItineraryPage`), downloaded: it carries its own style and policy, which this
    /// server's policy would not let run in place.
    func printable(_ trip: TripID) -> WebResponse {
        let document: TripDocument
        do {
            document = try loaded(trip.description).document
        } catch {
            return failure(error)
        }
        let page = ItineraryPage(document, generatedAt: .now).html
        return Self.download(Array(page.utf8), type: "text/html; charset=utf-8", name: document.trip.name.value + " itinerary.html")
    }

    /// Bytes sent as a file to save, named `name` (the trip's name may hold anything: the plain
    /// name keeps printable ASCII alone, `filename*` has it whole).
    static func download(_ bytes: [UInt8], type: String, name: String) -> WebResponse {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" && $0 != ";" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "file"
        return WebResponse(
            status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)")], body: bytes)
    }

    /// The trip page's downloads: the calendar file and the printable page.
    func downloadsHTML(_ trip: TripID) -> HTML {
        "<h2 id=\"downloads-h\">Take it with you</h2>\n<ul class=\"downloads\">"
            + "<li><a href=\"\(Route.calendar(trip).path)\" download>Download the calendar (.ics)</a> <span class=\"meta\">for your phone's or laptop's calendar</span></li>"
            + "<li><a href=\"\(Route.printable(trip).path)\" download>Download the printable page</a> <span class=\"meta\">one page to print or keep offline</span></li></ul>\n"
    }

    /// The navigation of a trip's pages.
    func tripNav(_ trip: TripID) -> HTML {
        let page = Route.trip(trip).path
        return "<nav aria-label=\"Trip\"><a href=\"\(page)\">Itinerary</a> <a href=\"\(page)#add\">Add</a> "
            + "<a href=\"\(page)#conflicts\">Conflicts</a> <a href=\"\(page)#deleted\">Deleted</a> "
            + "<a href=\"\(page)#sync\">Sync</a> <a href=\"\(Route.members(trip).path)\">Members</a> <a href=\"\(page)#downloads\">Downloads</a></nav>"
    }

    /// `/trips/ID`: the itinerary by day, the Add form, conflicts, deleted items, sync and status.
    /// `error` and `form`: an Add that was refused, shown with what was typed.
    func tripPage(
        _ request: WebRequest, trip: String, error: String? = nil, problems: [(name: String, message: String)] = [], form: ItemForm? = nil, status: Int = 200
    ) -> WebResponse {
        let loaded: LoadedTrip
        do {
            loaded = try self.loaded(trip)
        } catch {
            return failure(error)
        }
        let document = loaded.document
        let id = document.tripID
        var body = Page.notice(takeNotice(request))
        body += "<section id=\"itinerary\" data-live aria-labelledby=\"itinerary-h\">\n<h2 id=\"itinerary-h\">Itinerary</h2>\n"
        body += itineraryHTML(document)
        body += "</section>\n"
        var add = form ?? ItemForm()
        if form == nil { add.zone = document.formZone }
        if add.formKey.isEmpty { add.formKey = formKeys.fresh() }
        body += "<section id=\"add\" aria-labelledby=\"add-h\">\n<h2 id=\"add-h\">Add an item</h2>\n\(Page.error(error))"
        body += Page.errors(problems.map { ("add-" + $0.name, $0.message) })
        let errors = Dictionary(problems.map { ($0.name, $0.message) }) { first, _ in first }
        body += Page.form(Route.addItem(id).path, csrf: request.csrf, cssClass: "item-form", "\(add.html(prefix: "add", errors: errors))<button type=\"submit\">Add</button>\n")
        body += "</section>\n"
        body += "<section id=\"conflicts\" data-live aria-labelledby=\"conflicts-h\">\n\(conflictsHTML(document, csrf: request.csrf))</section>\n"
        body += "<section id=\"deleted\" data-live aria-labelledby=\"deleted-h\">\n\(deletedHTML(document, csrf: request.csrf))</section>\n"
        body += "<section id=\"sync\" aria-labelledby=\"sync-h\">\n\(syncHTML(document, csrf: request.csrf))</section>\n"
        body += "<section id=\"status\" data-live aria-labelledby=\"status-h\">\n\(statusHTML(document))</section>\n"
        body += "<section id=\"downloads\" aria-labelledby=\"downloads-h\">\n\(downloadsHTML(id))</section>\n"
        let page = Page.frame(
            title: document.trip.name.value, heading: document.trip.name.value, nav: tripNav(id), live: "/trips/\(id)/version",
            version: versionStamp(id), body: body)
        return WebResponse.html(status, page)
    }

    /// The days, each item at its own local time in its own zone: the library's one itinerary
    /// renderer (`ItineraryPage`, as `export --html` draws it: map links, a stay on each of its
    /// days, a flight from departure to arrival), each title linked to its item's page.
    func itineraryHTML(_ document: TripDocument) -> HTML {
        let trip = document.tripID
        let live = ItineraryPage.Live(
            item: { Route.item(trip, $0).path }, conflicts: Route.trip(trip).path + "#conflicts", deleted: Route.trip(trip).path + "#deleted")
        return ItineraryPage(document, generatedAt: .now, live: live).days
    }

    /// The deleted items, each with Restore.
    func deletedHTML(_ document: TripDocument, csrf: String) -> HTML {
        let deleted = DeletedItemList(document).entries
        var out: HTML = "<h2 id=\"deleted-h\">Deleted</h2>\n"
        guard !deleted.isEmpty else { return out + "<p class=\"empty\">No deleted items.</p>\n" }
        out += "<ul class=\"deleted\">\n"
        for entry in deleted {
            let names = entry.detail.deletes.map(\.deviceName).joined(separator: ", ")
            let restore = Page.button(Route.restoreItem(document.tripID, entry.detail.id).path, csrf: csrf, label: "Restore")
            out += "<li><span dir=\"auto\">\(entry.title ?? "(no title)")</span> <span class=\"meta\">deleted by \(names) on \(Page.when(entry.deletedAt))</span> "
                + "\(restore)</li>\n"
        }
        return out + "</ul>\n"
    }
}
