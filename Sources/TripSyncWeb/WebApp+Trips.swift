import TripSync
import TripSyncCore
import TripSyncHome

extension WebApp {
    /// `/`: the home's trips.
    func tripsPage(_ request: WebRequest) -> WebResponse {
        let listing: HomeTrips
        do {
            listing = try home.listTrips()
        } catch {
            return failure(error)
        }
        var body = HTML.trusted(Page.notice(takeNotice(request)))
        let trips = listing.trips.map(\.document).sorted { ($0.trip.name.value, $0.tripID) < ($1.trip.name.value, $1.tripID) }
        if trips.isEmpty {
            body += "<p>No trips in this home yet. Make one with <code>tripsync new \"Lisbon 2027\"</code>, or join one with an invite code: <code>tripsync join CODE FOLDER</code>.</p>\n"
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
            body += HTML.trusted(Page.error(unreadable.description))
        }
        return WebResponse.html(Page.frame(title: "Trips", heading: "Trips", body: body.description))
    }

    /// The navigation of a trip's pages.
    func tripNav(_ trip: TripID) -> String {
        let page = Route.trip(trip).path
        let nav: HTML = "<nav aria-label=\"Trip\"><a href=\"\(page)\">Itinerary</a> <a href=\"\(page)#add\">Add</a> "
            + "<a href=\"\(page)#conflicts\">Conflicts</a> <a href=\"\(page)#deleted\">Deleted</a> "
            + "<a href=\"\(page)#sync\">Sync</a> <a href=\"\(Route.members(trip).path)\">Members</a></nav>"
        return nav.description
    }

    /// `/trips/ID`: the itinerary by day, the Add form, conflicts, deleted items, sync and status.
    /// `error` and `form`: an Add that was refused, shown with what was typed.
    func tripPage(_ request: WebRequest, trip: String, error: String? = nil, form: ItemForm? = nil, status: Int = 200) -> WebResponse {
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
        body += "<section id=\"add\" aria-labelledby=\"add-h\">\n<h2 id=\"add-h\">Add an item</h2>\n" + Page.error(error)
        body += Page.form(Route.addItem(id).path, csrf: request.csrf, cssClass: "item-form", add.html(prefix: "add") + "<button type=\"submit\">Add</button>\n")
        body += "</section>\n"
        body += "<section id=\"conflicts\" data-live aria-labelledby=\"conflicts-h\">\n" + conflictsHTML(document, csrf: request.csrf) + "</section>\n"
        body += "<section id=\"deleted\" data-live aria-labelledby=\"deleted-h\">\n" + deletedHTML(document, csrf: request.csrf) + "</section>\n"
        body += "<section id=\"sync\" aria-labelledby=\"sync-h\">\n" + syncHTML(document, csrf: request.csrf) + "</section>\n"
        body += "<section id=\"status\" data-live aria-labelledby=\"status-h\">\n" + statusHTML(document) + "</section>\n"
        let page = Page.frame(
            title: document.trip.name.value, heading: document.trip.name.value, nav: tripNav(id), live: "/trips/\(id)/version",
            version: versionStamp(id), body: body)
        return WebResponse.html(status, page)
    }

    /// The days, each item at its own local time in its own zone: the library's one itinerary
    /// renderer (`ItineraryPage`, as `export --html` draws it: map links, a stay on each of its
    /// days, a flight from departure to arrival), each title linked to its item's page.
    func itineraryHTML(_ document: TripDocument) -> String {
        let trip = document.tripID
        let live = ItineraryPage.Live(
            item: { Route.item(trip, $0).path }, conflicts: Route.trip(trip).path + "#conflicts", deleted: Route.trip(trip).path + "#deleted")
        return ItineraryPage(document, generatedAt: .now, live: live).daysHTML
    }

    /// The deleted items, each with Restore.
    func deletedHTML(_ document: TripDocument, csrf: String) -> String {
        let deleted = DeletedItemList(document).entries
        var out: HTML = "<h2 id=\"deleted-h\">Deleted</h2>\n"
        guard !deleted.isEmpty else { return (out + "<p class=\"empty\">No deleted items.</p>\n").description }
        out += "<ul class=\"deleted\">\n"
        for entry in deleted {
            let names = entry.detail.deletes.map(\.deviceName).joined(separator: ", ")
            let restore = Page.button(Route.restoreItem(document.tripID, entry.detail.id).path, csrf: csrf, label: "Restore")
            out += "<li><span dir=\"auto\">\(entry.title ?? "(no title)")</span> <span class=\"meta\">deleted by \(names) on \(Page.when(entry.deletedAt))</span> "
                + "\(HTML.trusted(restore))</li>\n"
        }
        return (out + "</ul>\n").description
    }
}
