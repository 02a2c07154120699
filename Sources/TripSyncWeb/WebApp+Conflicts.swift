import TripSync
import TripSyncCore

extension WebApp {
    /// Every conflict: each value, who wrote it and when, and Keep this on each.
    func conflictsHTML(_ document: TripDocument, csrf: String) -> HTML {
        let list = ConflictList(document)
        let trip = document.tripID
        var out: HTML = "<h2 id=\"conflicts-h\">Conflicts</h2>\n"
        if list.fields.isEmpty && list.registers.isEmpty && list.deletedWhileEdited.isEmpty {
            return out + "<p class=\"empty\">No conflicts.</p>\n"
        }
        for conflict in list.fields {
            let title = document.items[conflict.item]?.title?.value ?? "(no title)"
            let head: HTML = "<div class=\"conflict\"><h3><a href=\"\(Route.item(trip, conflict.item).path)\" dir=\"auto\">\(title)</a>: "
                + "\(Self.fieldLabel(conflict.field).lowercased())</h3>\n<ul class=\"values\">\n"
            out += head
            let choices = [("current", conflict.current)] + conflict.alternatives.enumerated().map { ("\($0.offset + 1)", $0.element) }
            for (choice, version) in choices {
                let keep = Page.button(
                    "/trips/\(trip)/resolve", csrf: csrf, label: "Keep this",
                    hidden: [("item", conflict.item.description), ("field", conflict.field.rawValue), ("choice", choice)])
                out += "\(valueHTML(version, document: document))\(keep)</li>\n"
            }
            out += "</ul></div>\n"
        }
        for conflict in list.registers {
            let subject: String
            let field: String
            switch conflict.subject {
            case .tripName: (subject, field) = ("The trip's name", "trip-name")
            case .tripZone: (subject, field) = ("The trip's zone", "trip-zone")
            case .caption(let attachment, _): (subject, field) = ("A caption", "caption-\(attachment)")
            }
            let head: HTML = "<div class=\"conflict\"><h3>\(subject)</h3>\n<ul class=\"values\">\n"
            out += head
            let choices = [("current", conflict.current)] + conflict.alternatives.enumerated().map { ("\($0.offset + 1)", $0.element) }
            for (choice, version) in choices {
                let keep = Page.button("/trips/\(trip)/resolve", csrf: csrf, label: "Keep this", hidden: [("field", field), ("choice", choice)])
                out += "\(valueHTML(version, document: document))\(keep)</li>\n"
            }
            out += "</ul></div>\n"
        }
        for edited in list.deletedWhileEdited {
            let head: HTML = "<div class=\"conflict\"><h3 dir=\"auto\">\(edited.title ?? "(no title)"): edited while deleted</h3>\n<ul class=\"values\">\n"
            out += head
            for version in edited.edits { out += "\(valueHTML(version, document: document))</li>\n" }
            out += "</ul>\n\(Page.button("/trips/\(trip)/items/\(edited.item)/restore", csrf: csrf, label: "Restore"))</div>\n"
        }
        return out
    }

    /// An open `<li>` with one value, who wrote it and when.
    private func valueHTML(_ version: FieldConflict.Version, document: TripDocument) -> HTML {
        let value = version.text.isEmpty ? "(empty)" : version.text
        let when = Page.when(UTCTimestamp(millisecondsSinceEpoch: version.rev.counter))
        return "<li><span class=\"value\" dir=\"auto\">\(value)</span> <span class=\"meta\">by \(document.deviceName(version.device)), \(when)</span> "
    }

    /// POST `/trips/ID/resolve`: Keep this (`item`, `field`, `choice`: current or N).
    func resolve(_ request: WebRequest, trip: String) -> WebResponse {
        let choiceText = request.field("choice")
        let choice: ConflictChoice
        if choiceText == "current" {
            choice = .current
        } else if let number = Int(choiceText) {
            choice = .alternative(number)
        } else {
            return tripPage(request, trip: trip, error: "the form named no value to keep", status: 400)
        }
        let fieldText = request.field("field")
        do {
            try withStore(trip) { store in
                try store.edit { editor in
                    switch fieldText {
                    case "trip-name": try editor.resolveName(keeping: choice)
                    case "trip-zone": try editor.resolveZone(keeping: choice)
                    case let caption where caption.hasPrefix("caption-"):
                        try editor.resolveCaption(of: try editor.attachment(String(caption.dropFirst("caption-".count))), keeping: choice)
                    default:
                        guard let field = ItemField(rawValue: fieldText), let item = ItemID(request.field("item")) else {
                            throw EditError(.invalidValue, "the form named no field to settle")
                        }
                        try editor.resolve(field, of: item, keeping: choice)
                    }
                }
            }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return tripPage(request, trip: trip, error: Self.words(error), status: Self.status(for: error))
        }
        keepNotice("Kept; the conflict is settled on every laptop at their next sync.", for: request)
        return WebResponse.seeOther("/trips/\(trip)#conflicts")
    }
}
