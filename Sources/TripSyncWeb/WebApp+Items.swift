import TripSync
import TripSyncCore

extension WebApp {
    /// POST `/trips/ID/items`: Add. Refused input re-shows the trip page with the error and
    /// what was typed; nothing is saved.
    func addItem(_ request: WebRequest, trip: String) -> WebResponse {
        let form = ItemForm(request)
        // A form posted again (a double click, Back and resubmit) adds nothing and answers as
        // the first post did: to the item it added, on the itinerary.
        if case .used(let location) = formKeys.claim(form.formKey) { return WebResponse.seeOther(location ?? "/trips/\(trip)#itinerary") }
        // Every wrong field at once, before anything is written (the write checks again).
        let reference: LocalDate
        do {
            reference = try loaded(trip).document.typingReference
        } catch {
            formKeys.release(form.formKey)
            return failure(error)
        }
        let problems = form.problems(reference: reference)
        if !problems.isEmpty {
            formKeys.release(form.formKey)
            return tripPage(request, trip: trip, problems: problems, form: form, status: 422)
        }
        let added: ItemID
        do {
            added = try withStore(trip) { store in
                try store.edit { editor -> ItemID in
                    let reference = editor.document.typingReference
                    let start = try form.start(reference: reference)
                    let end = try form.end(start: start, reference: reference)
                    try TripDocument.checkOrder(start: start, end: end)
                    let item = NewItem(
                        title: try form.checkedTitle(), start: start, end: end, place: ItemForm.optional(form.place),
                        note: ItemForm.optional(form.note))
                    return try editor.addItem(item, at: .last)
                }
            }
        } catch WebFailure.notFound {
            formKeys.release(form.formKey)
            return notFound()
        } catch {
            formKeys.release(form.formKey)  // nothing was added: the corrected form may be sent again
            return tripPage(request, trip: trip, error: Self.words(error), form: form, status: Self.status(for: error))
        }
        let location = "/trips/\(trip)#item-\(added)"
        formKeys.settle(form.formKey, location: location)
        keepNotice("Added \u{201C}\(form.title)\u{201D}.", for: request)
        return WebResponse.seeOther(location)
    }

    /// `/trips/ID/items/ITEM`: the item whole (who wrote each value and when), Edit, Delete,
    /// its attachments and an upload form.
    func itemPage(_ request: WebRequest, trip: String, item: String, error: String? = nil, status: Int = 200) -> WebResponse {
        let document: TripDocument
        do {
            document = try loaded(trip).document
        } catch {
            return failure(error)
        }
        guard let id = ItemID(item), let detail = ItemDetail(id, in: document) else { return notFound() }
        let title = detail.fields.first { $0.field == .title }?.current.text ?? "(no title)"
        let trip = document.tripID
        var body = Page.notice(takeNotice(request)) + Page.error(error)
        if detail.isDeleted {
            body += "<p class=\"deleted-note\">This item is deleted.</p>\n\(Page.button(Route.restoreItem(trip, id).path, csrf: request.csrf, label: "Restore"))"
        }
        body += "<section data-live id=\"detail\" aria-label=\"Fields\">\n<dl class=\"detail\">\n"
        for field in detail.fields where field.field != .sortKey {
            let current = field.current
            body += "<dt>\(Self.fieldLabel(field.field))</dt><dd dir=\"auto\">\(Self.shown(current.value, text: current.text))"
                + " <span class=\"meta\">by \(current.deviceName), \(Page.when(current.writtenAt))</span>"
            for alternative in field.alternatives {
                body += "<br><span class=\"alt\">also: \(Self.shown(alternative.value, text: alternative.text)) <span class=\"meta\">by \(alternative.deviceName), "
                    + "\(Page.when(alternative.writtenAt))</span></span>"
            }
            body += "</dd>\n"
        }
        body += "</dl>\n</section>\n"
        if !detail.isDeleted {
            body += "<div class=\"actions\"><a class=\"button\" href=\"\(Route.editItem(trip, id).path)\">Edit</a> "
                + "\(Page.button(Route.deleteItem(trip, id).path, csrf: request.csrf, label: "Delete"))</div>\n"
            body += attachmentsHTML(document, item: id, csrf: request.csrf)
        }
        body += "<p><a href=\"\(Route.trip(trip).path)\">Back to the itinerary</a></p>\n"
        let page = Page.frame(
            title: title, heading: title, nav: tripNav(document.tripID), live: "/trips/\(document.tripID)/version",
            version: versionStamp(document.tripID), body: body)
        return WebResponse.html(status, page)
    }

    /// A value as a person reads it: a time as "Wed 9 Jun 2027, 09:30 WEST (Europe/Lisbon)", an
    /// empty value as "(none)", any other as its text.
    static func shown(_ value: FieldValue, text: String) -> String {
        switch value {
        case .time(let time?):
            let shown = Itinerary.shownTime(time)
            guard case .local = time else { return Page.day(time.localDate) + " (all day)" }
            return Page.day(time.localDate) + ", " + LocalTimeFormat.hhmm(time) + " " + (shown.abbreviation ?? "") + " (" + (time.zone ?? "") + ")"
        case .time(nil), .text(nil): return "(none)"
        case .text(let text?): return text.isEmpty ? "(none)" : text
        }
    }

    static func fieldLabel(_ field: ItemField) -> String {
        switch field {
        case .title: return "Title"
        case .start: return "Starts"
        case .end: return "Ends"
        case .place: return "Place"
        case .note: return "Note"
        default: return field.rawValue
        }
    }

    /// `/trips/ID/items/ITEM/edit`: the form with the item's values, and Save.
    func editPage(
        _ request: WebRequest, trip: String, item: String, error: String? = nil, problems: [(name: String, message: String)] = [], form: ItemForm? = nil,
        status: Int = 200
    ) -> WebResponse {
        let document: TripDocument
        do {
            document = try loaded(trip).document
        } catch {
            return failure(error)
        }
        guard let id = ItemID(item), let fields = document.items[id] else { return notFound() }
        let shown = form ?? ItemForm(fields, tripZone: document.formZone)
        let base = Route.item(document.tripID, id).path
        var body = Page.error(error) + Page.errors(problems.map { ("edit-" + $0.name, $0.message) })
        let errors = Dictionary(problems.map { ($0.name, $0.message) }) { first, _ in first }
        body += Page.form(base, csrf: request.csrf, cssClass: "item-form", "\(shown.html(prefix: "edit", errors: errors))<button type=\"submit\">Save</button>\n")
        body += "<p><a href=\"\(base)\">Cancel</a></p>\n"
        let title = "Edit \u{201C}\(fields.title?.value ?? "")\u{201D}"
        return WebResponse.html(status, Page.frame(title: title, heading: title, nav: tripNav(document.tripID), body: body))
    }

    /// POST `/trips/ID/items/ITEM`: Save. Builds the library's one edit value (`ItemEdit`) from
    /// the fields whose text the person changed from what the form showed, each with the revs
    /// of the values the form showed: a field someone else changed meanwhile is not written
    /// back, and one both changed keeps both values as a conflict.
    func saveItem(_ request: WebRequest, trip: String, item: String) -> WebResponse {
        let form = ItemForm(request)
        guard let id = ItemID(item) else { return notFound() }
        guard let shown = form.shown else {
            return editPage(request, trip: trip, item: item, error: "This form is from an older page; here is the item as it is now, to edit again.", status: 422)
        }
        // Every wrong field the person changed, at once, before anything is written.
        let reference: LocalDate
        do {
            reference = try loaded(trip).document.typingReference
        } catch {
            return failure(error)
        }
        let changed = Set(ItemForm.names.filter { ItemForm.lines(form.texts[$0] ?? "") != ItemForm.lines(shown[$0] ?? "") })
        let problems = form.problems(reference: reference, only: changed)
        if !problems.isEmpty { return editPage(request, trip: trip, item: item, problems: problems, form: form, status: 422) }
        var kept: [ItemField] = []
        do {
            try withStore(trip) { store in
                try store.edit { editor in
                    let fields = try editor.document.liveItem(id)  // deleted meanwhile: 409; never here: 404
                    let edit = try form.edit(of: id, shown: shown, current: fields, reference: editor.document.typingReference, suggestedZone: editor.suggestedZone)
                    if !edit.isEmpty { kept = try editor.apply(edit).kept }
                }
            }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            let status = Self.status(for: error)
            // Deleted (or gone) meanwhile: the item's page says so, with Restore; nothing to edit.
            if status == 404 || status == 409 { return itemPage(request, trip: trip, item: item, error: Self.words(error), status: status) }
            return editPage(request, trip: trip, item: item, error: Self.words(error), form: form, status: status)
        }
        if kept.isEmpty {
            keepNotice("Saved.", for: request)
        } else {
            let names = kept.map { Self.fieldLabel($0) }.joined(separator: ", ")
            keepNotice("Saved. Someone else changed \(names) while you were editing; both values are kept as a conflict: choose one with Keep this under Conflicts on the trip's page.", for: request)
        }
        return WebResponse.seeOther("/trips/\(trip)/items/\(id)")
    }

    /// POST `/trips/ID/items/ITEM/delete`.
    func deleteItem(_ request: WebRequest, trip: String, item: String) -> WebResponse {
        guard let id = ItemID(item) else { return notFound() }
        do {
            try withStore(trip) { store in try store.edit { editor in try editor.delete(id) } }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return itemPage(request, trip: trip, item: item, error: Self.words(error), status: Self.status(for: error))
        }
        keepNotice("Deleted; it is listed under Deleted, where Restore brings it back.", for: request)
        return WebResponse.seeOther("/trips/\(trip)#itinerary")
    }

    /// POST `/trips/ID/items/ITEM/restore`.
    func restoreItem(_ request: WebRequest, trip: String, item: String) -> WebResponse {
        guard let id = ItemID(item) else { return notFound() }
        do {
            try withStore(trip) { store in try store.edit { editor in try editor.restore(id) } }
        } catch WebFailure.notFound {
            return notFound()
        } catch {
            return tripPage(request, trip: trip, error: Self.words(error), status: Self.status(for: error))
        }
        keepNotice("Restored.", for: request)
        return WebResponse.seeOther("/trips/\(trip)/items/\(id)")
    }
}
