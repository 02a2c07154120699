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
        var body = Page.notice(takeNotice(request))
        let trips = listing.trips.map(\.document).sorted { ($0.trip.name.value, $0.tripID) < ($1.trip.name.value, $1.tripID) }
        if trips.isEmpty {
            body += "<p>No trips in this home yet. Make one with <code>tripsync new \"Lisbon 2027\"</code>, or join one with an invite code: <code>tripsync join CODE FOLDER</code>.</p>\n"
        } else {
            body += "<ul class=\"trips\">\n"
            for trip in trips {
                let conflicts = ConflictSummary(trip).total
                body += "<li><a href=\"/trips/\(trip.tripID)\" dir=\"auto\">" + Page.h(trip.trip.name.value) + "</a> <span class=\"meta\">"
                    + "\(trip.items.count) item\(trip.items.count == 1 ? "" : "s")"
                    + (conflicts > 0 ? ", \(conflicts) conflict\(conflicts == 1 ? "" : "s")" : "") + "</span></li>\n"
            }
            body += "</ul>\n"
        }
        for unreadable in listing.unreadable {
            body += Page.error(unreadable.description)
        }
        return WebResponse.html(Page.frame(title: "Trips", heading: "Trips", body: body))
    }

    /// The navigation of a trip's pages.
    func tripNav(_ trip: TripID) -> String {
        "<nav aria-label=\"Trip\"><a href=\"/trips/\(trip)\">Itinerary</a> <a href=\"/trips/\(trip)#add\">Add</a> "
            + "<a href=\"/trips/\(trip)#conflicts\">Conflicts</a> <a href=\"/trips/\(trip)#deleted\">Deleted</a> "
            + "<a href=\"/trips/\(trip)#sync\">Sync</a> <a href=\"/trips/\(trip)/members\">Members</a></nav>"
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
        body += Page.form("/trips/\(id)/items", csrf: request.csrf, cssClass: "item-form", add.html(prefix: "add") + "<button type=\"submit\">Add</button>\n")
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

    /// The days, each item at its own local time in its own zone (the library's `Itinerary`).
    func itineraryHTML(_ document: TripDocument) -> String {
        let itinerary = Itinerary(document)
        let id = document.tripID
        var out = ""
        if itinerary.days.isEmpty && itinerary.unscheduled.isEmpty { out += "<p class=\"empty\">Nothing planned yet: add the first item below.</p>\n" }
        for day in itinerary.days {
            out += "<h3 class=\"day\"><time datetime=\"\(day.date)\">" + Page.h(Page.day(day.date)) + "</time></h3>\n<ol class=\"items\">\n"
            for entry in day.entries { out += entryHTML(entry, trip: id) }
            out += "</ol>\n"
        }
        if !itinerary.unscheduled.isEmpty {
            out += "<h3 class=\"day\">No day yet</h3>\n<ol class=\"items\">\n"
            for entry in itinerary.unscheduled { out += entryHTML(entry, trip: id) }
            out += "</ol>\n"
        }
        return out
    }

    func entryHTML(_ entry: ItineraryEntry, trip: TripID) -> String {
        var out = "<li class=\"item\"><span class=\"when\">"
        if let start = entry.start {
            out += Page.h(LocalTimeFormat.hhmm(start.time))
            if case .local = start.time { out += " <abbr title=\"" + Page.h(start.time.zone ?? "") + "\">" + Page.h(start.abbreviation ?? start.time.zone ?? "") + "</abbr>" }
        }
        out += "</span> <a class=\"title\" dir=\"auto\" href=\"/trips/\(trip)/items/\(entry.id)\">" + Page.h(entry.fields.title?.value ?? "(no title)") + "</a>"
        if let end = entry.end {
            out += " <span class=\"until\">until "
            if end.time.localDate != entry.start?.time.localDate { out += Page.h(Page.day(end.time.localDate)) + " " }
            if case .local = end.time {
                out += Page.h(LocalTimeFormat.hhmm(end.time)) + " " + Page.h(end.abbreviation ?? end.time.zone ?? "")
            }
            if let seconds = entry.durationSeconds { out += " (" + Page.h(LocalTimeFormat.duration(seconds: seconds)) + ")" }
            out += "</span>"
        }
        if let place = entry.fields.place?.value ?? nil { out += " <span class=\"place\" dir=\"auto\">" + Page.h(place) + "</span>" }
        if !entry.conflictedFields.isEmpty {
            out += " <a class=\"flag\" href=\"#conflicts\">conflict: " + Page.h(entry.conflictedFields.map(\.rawValue).joined(separator: ", ")) + "</a>"
        }
        return out + "</li>\n"
    }

    /// The deleted items, each with Restore.
    func deletedHTML(_ document: TripDocument, csrf: String) -> String {
        let deleted = DeletedItemList(document).entries
        var out = "<h2 id=\"deleted-h\">Deleted</h2>\n"
        guard !deleted.isEmpty else { return out + "<p class=\"empty\">No deleted items.</p>\n" }
        out += "<ul class=\"deleted\">\n"
        for entry in deleted {
            let names = entry.detail.deletes.map(\.deviceName)
            out += "<li><span dir=\"auto\">" + Page.h(entry.title ?? "(no title)") + "</span> <span class=\"meta\">deleted by "
                + Page.h(names.joined(separator: ", ")) + " on " + Page.h(Page.when(entry.deletedAt)) + "</span> "
                + Page.button("/trips/\(document.tripID)/items/\(entry.detail.id)/restore", csrf: csrf, label: "Restore") + "</li>\n"
        }
        return out + "</ul>\n"
    }
}
