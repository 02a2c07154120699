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

    static func optional(_ text: String) -> String? {
        VisibleText.isBlank(text) ? nil : text
    }

    /// The form's fields, labelled Title, Day, Time, Ends, Zone, Place and Note; `prefix` keeps
    /// ids unique on a page.
    func html(prefix: String) -> String {
        var out = Page.field(prefix + "-title", name: "title", label: "Title", value: title, required: true)
        out += "<div class=\"row\">"
        out += Page.field(prefix + "-day", name: "day", label: "Day", value: day, hint: "10 Jun or 2027-06-10")
        out += Page.field(prefix + "-time", name: "time", label: "Time", value: time, hint: "9:30; empty for all day")
        out += Page.field(prefix + "-ends", name: "ends", label: "Ends", value: ends, hint: "13:00, 12 Jun, or 12 Jun 13:00")
        out += "</div>\n"
        var options = TypedInput.zoneChoices.map { ($0.id, $0.place + " — " + $0.id) }
        if !zone.isEmpty && !options.contains(where: { $0.0 == zone }) { options.insert((zone, zone), at: 0) }
        out += Page.select(prefix + "-zone", name: "zone", label: "Zone", options: options, selected: zone)
        out += Page.field(prefix + "-place", name: "place", label: "Place", value: place)
        out += Page.field(prefix + "-note", name: "note", label: "Note", value: note, multiline: true)
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
