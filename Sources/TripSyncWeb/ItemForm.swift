import Foundation
import TripSync
import TripSyncCore

/// The item form's fields (Title, Day, Time, Ends, Zone, Place, Note) as typed, and what they
/// become through the library's `TypedInput`.
struct ItemForm {
    var title = ""
    var day = ""
    var time = ""
    var ends = ""
    var zone = ""
    var place = ""
    var note = ""
    /// Add's one-time key: a form posted twice adds once (`WebApp.FormKeys`).
    var formKey = ""
    /// What the Edit form showed, by field name (hidden `shown-…`): Save writes only the fields
    /// whose text the person changed from it. Nil on Add, or when a post does not carry it.
    var shown: [String: String]?
    /// The revs of the values the Edit form showed, by register (hidden `seen-…`: the value and
    /// the conflicts shown with it), so a value written since is kept, never reverted.
    var seen: [ItemField: Set<Rev>] = [:]

    /// The texts of the form, by name.
    static let names = ["title", "day", "time", "ends", "zone", "place", "note"]
    /// The registers the texts are read from.
    static let registers: [ItemField] = [.title, .start, .end, .place, .note]

    init() {}

    /// What was sent.
    init(_ request: WebRequest) {
        title = request.field("title")
        day = request.field("day")
        time = request.field("time")
        ends = request.field("ends")
        zone = request.field("zone")
        place = request.field("place")
        note = request.field("note")
        formKey = request.field("formkey")
        var shown: [String: String] = [:]
        for name in Self.names { if let text = request.form["shown-" + name] { shown[name] = text } }
        self.shown = shown.count == Self.names.count ? shown : nil
        for field in Self.registers {
            if let text = request.form["seen-" + field.rawValue] { seen[field] = Self.revs(text) }
        }
    }

    /// `counter.device` revs separated by spaces (the hidden `seen-…` fields).
    static func revs(_ text: String) -> Set<Rev> {
        Set(
            text.split(separator: " ").compactMap { part -> Rev? in
                let pieces = part.split(separator: ".", maxSplits: 1)
                guard pieces.count == 2, let counter = UInt64(pieces[0]), let device = DeviceID(String(pieces[1])) else { return nil }
                return Rev(counter: counter, device: device)
            })
    }

    /// The hidden text of `revs`.
    static func text(_ revs: Set<Rev>) -> String {
        revs.sorted().map { "\($0.counter).\($0.device)" }.joined(separator: " ")
    }

    /// The texts as the form holds them, by name.
    var texts: [String: String] {
        ["title": title, "day": day, "time": time, "ends": ends, "zone": zone, "place": place, "note": note]
    }

    /// The item as the form shows it for editing.
    init(_ fields: ItemFields, tripZone: String) {
        title = fields.title?.value ?? ""
        let start = fields.start?.value ?? nil
        let end = fields.end?.value ?? nil
        day = start?.localDate.description ?? ""
        if case .local(let local, _)? = start { time = Self.hhmm(local) }
        zone = start?.zone ?? end?.zone ?? tripZone
        switch end {
        case .local(let local, _)?:
            ends = local.date == start?.localDate ? Self.hhmm(local) : local.date.description + " " + Self.hhmm(local)
        case .date(let date)?: ends = date.description
        case nil: ends = ""
        }
        place = (fields.place?.value ?? nil) ?? ""
        note = (fields.note?.value ?? nil) ?? ""
        shown = texts
        func revs<V>(_ register: Register<V>?) -> Set<Rev> { Set(register?.versions.map(\.rev) ?? []) }
        seen = [.title: revs(fields.title), .start: revs(fields.start), .end: revs(fields.end), .place: revs(fields.place), .note: revs(fields.note)]
    }

    static func hhmm(_ local: LocalDateTime) -> String {
        (local.hour < 10 ? "0" : "") + "\(local.hour):" + (local.minute < 10 ? "0" : "") + "\(local.minute)"
    }

    /// The zone chosen (nil when none or not a zone here).
    var chosenZone: String? { TypedInput.zone(zone) }

    func checkedTitle() throws(EditError) -> String {
        guard !VisibleText.isBlank(title) else { throw EditError(.invalidValue, "Title: give the item a title") }
        return title
    }

    func start(reference: LocalDate) throws(EditError) -> TripTime? {
        if !zone.isEmpty && chosenZone == nil { throw EditError(.invalidValue, "Zone: '\(zone.prefix(60))' is not a zone of this machine") }
        return try TypedInput.start(day: day, time: time, zone: chosenZone, reference: reference)
    }

    func end(start: TripTime?, reference: LocalDate) throws(EditError) -> TripTime? {
        try TypedInput.end(ends, start: start, zone: start?.zone ?? chosenZone, reference: reference)
    }

    /// The library's edit of item `id` from this posted form: each field whose text differs
    /// from what the form showed (`shown`), with the revs the form showed. Day, Time and Zone
    /// change only the parts of the start that were changed, and Ends only the end, by the
    /// library's one rule (`ItemEdit.changed`); `current` is the item now, to read a typed end
    /// against the start the edit leaves.
    func edit(of id: ItemID, shown: [String: String], current: ItemFields, reference: LocalDate, suggestedZone: String?) throws(EditError) -> ItemEdit {
        func changed(_ name: String) -> Bool { Self.lines(texts[name] ?? "") != Self.lines(shown[name] ?? "") }
        func saw(_ field: ItemField) -> ItemEdit.Seen { .revs(seen[field] ?? []) }
        var edit = ItemEdit(item: id)
        if changed("title") { edit.set(.title, to: try checkedTitle(), seen: saw(.title)) }
        // A start without a zone yet takes the Zone the form shows, changed or not.
        let zoneGiven = changed("zone") || (current.start?.value ?? nil)?.zone == nil
        if changed("day") || changed("time") || changed("zone") {
            let typed = try start(reference: reference)
            switch typed {
            case nil: edit.set(.start, to: .whole(nil), seen: saw(.start))
            case .local(let local, let zone)?:
                edit.set(
                    .start, to: .parts(day: changed("day") ? local.date : nil, time: changed("time") ? .at(hour: local.hour, minute: local.minute) : nil, zone: zoneGiven ? zone : nil),
                    seen: saw(.start))
            case .date(let date)?:
                edit.set(.start, to: .parts(day: changed("day") ? date : nil, time: changed("time") ? .allDay : nil, zone: zoneGiven ? chosenZone : nil), seen: saw(.start))
            }
        }
        if changed("ends") {
            let start = try edit.times(of: current, suggestedZone: suggestedZone).start
            switch try end(start: start, reference: reference) {
            case nil: edit.set(.end, to: .whole(nil), seen: saw(.end))
            case .local(let local, _)?: edit.set(.end, to: .parts(day: local.date, time: .at(hour: local.hour, minute: local.minute), zone: nil), seen: saw(.end))
            case .date(let date)?: edit.set(.end, to: .whole(.date(date)), seen: saw(.end))
            }
        }
        if changed("place") { edit.set(.place, to: Self.optional(place), seen: saw(.place)) }
        if changed("note") { edit.set(.note, to: Self.optional(note), seen: saw(.note)) }
        return edit
    }

    /// Every wrong field at once, in the form's order (field name, message): each field checked
    /// by the same rules the edit applies, so a person sees all of them together, not the first
    /// alone. `only`: the names to check (Save checks the fields the person changed).
    func problems(reference: LocalDate, only names: Set<String>? = nil) -> [(name: String, message: String)] {
        var found: [String: String] = [:]
        func wanted(_ name: String) -> Bool { names?.contains(name) ?? true }
        func record(_ error: EditError, fallback: String) {
            let name = Self.fieldName(of: error.message) ?? fallback
            if found[name] == nil { found[name] = error.message }
        }
        if wanted("title") {
            do throws(EditError) { _ = try checkedTitle() } catch { record(error, fallback: "title") }
        }
        let zoneKnown = zone.isEmpty || chosenZone != nil
        if !zoneKnown && wanted("zone") { found["zone"] = "Zone: '\(zone.prefix(60))' is not a zone of this machine" }
        if wanted("day") || wanted("time") || wanted("zone") || wanted("ends") {
            do throws(EditError) {
                let start = try TypedInput.start(day: day, time: time, zone: zoneKnown ? chosenZone : nil, reference: reference)
                if wanted("ends") || wanted("day") || wanted("time") {
                    let end = try TypedInput.end(ends, start: start, zone: start?.zone ?? chosenZone, reference: reference)
                    try TripDocument.checkOrder(start: start, end: end)
                }
            } catch {
                // Without a known zone the start cannot be read: Zone says so already.
                if zoneKnown || Self.fieldName(of: error.message) != "zone" { record(error, fallback: "ends") }
            }
        }
        return Self.names.compactMap { name in found[name].map { (name, $0) } }
    }

    /// The field a message of the rules names (`Day: …`, `end: …`, `a time needs a zone`).
    static func fieldName(of message: String) -> String? {
        let lowered = message.lowercased()
        if lowered.hasPrefix("a time needs a day") { return "day" }
        if lowered.hasPrefix("a time needs a zone") { return "zone" }
        guard let colon = lowered.firstIndex(of: ":") else { return nil }
        let head = String(lowered[..<colon])
        if head == "end" { return "ends" }
        return names.contains(head) ? head : nil
    }

    /// `text` with CRLF read as LF: a browser posts a text area's line breaks as CRLF.
    static func lines(_ text: String) -> String { text.replacingOccurrences(of: "\r\n", with: "\n") }

    static func optional(_ text: String) -> String? {
        VisibleText.isBlank(text) ? nil : text
    }

    /// The form's fields, labelled Title, Day, Time, Ends, Zone, Place and Note; `prefix` keeps
    /// ids unique on a page; `errors` marks each wrong field (by name) with its message.
    func html(prefix: String, errors: [String: String] = [:]) -> HTML {
        var out = Page.field(prefix + "-title", name: "title", label: "Title", value: title, required: true, error: errors["title"])
        out += "<div class=\"row\">"
        out += Page.field(prefix + "-day", name: "day", label: "Day", value: day, hint: "10 Jun or 2027-06-10", error: errors["day"])
        out += Page.field(prefix + "-time", name: "time", label: "Time", value: time, hint: "9:30; empty for all day", error: errors["time"])
        out += Page.field(prefix + "-ends", name: "ends", label: "Ends", value: ends, hint: "13:00, 12 Jun, or 12 Jun 13:00", error: errors["ends"])
        out += "</div>\n"
        var options = TypedInput.zoneChoices.map { ($0.id, $0.place + " — " + $0.id) }
        if !zone.isEmpty && !options.contains(where: { $0.0 == zone }) { options.insert((zone, zone), at: 0) }
        out += Page.select(prefix + "-zone", name: "zone", label: "Zone", options: options, selected: zone, error: errors["zone"])
        out += Page.field(prefix + "-place", name: "place", label: "Place", value: place, error: errors["place"])
        out += Page.field(prefix + "-note", name: "note", label: "Note", value: note, multiline: true, error: errors["note"])
        if !formKey.isEmpty { out += Page.hidden("formkey", formKey) }
        if let shown {
            for name in Self.names { out += Page.hidden("shown-" + name, shown[name] ?? "") }
            for field in Self.registers { out += Page.hidden("seen-" + field.rawValue, Self.text(seen[field] ?? [])) }
        }
        return out
    }
}

extension TripDocument {
    /// The day a typed "10 Jun" is read near: the trip's first dated item, else today (UTC).
    var typingReference: LocalDate {
        if let first = Itinerary.firstDate(of: self) { return first }
        return LocalDate(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400)) ?? LocalDate.epoch
    }

    /// The zone the Add form starts with: the trip's, else this machine's, else UTC.
    var formZone: String {
        if let zone = trip.zone?.value ?? nil { return zone }
        if let machine = ViewerZone.machine()?.id, TypedInput.zone(machine) != nil { return machine }
        return "UTC"
    }
}
