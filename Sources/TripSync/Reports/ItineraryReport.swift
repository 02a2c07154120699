import TripSyncCore

/// The itinerary as `show --json` prints it: `{"tripId", "name", "days": [{"date", "items":
/// [ITEM]}], "unscheduled": [ITEM]}`, each ITEM `{"id", "title", "sortKey", "start", "end",
/// "place", "note", "conflicts", "durationMinutes"?}` with times as `{"date"}` or `{"local",
/// "zone", "instant"?, "note"?}`. With a viewer zone (`show --in`), the object has
/// `"viewerZone"` and each timed value in a known zone has `"viewer": {"local", "zone",
/// "abbreviation"}`: the same instant read in the viewer's zone.
public struct ItineraryReport: Encodable, Sendable {
    /// The trip.
    public var document: TripDocument
    /// Its itinerary.
    public var itinerary: Itinerary
    /// The zone times are also read in, when any.
    public var viewer: ViewerZone?

    /// The report of `itinerary`, laid out from `document`, with each time also read in `viewer`.
    public init(_ document: TripDocument, _ itinerary: Itinerary, viewer: ViewerZone? = nil) {
        self.document = document
        self.itinerary = itinerary
        self.viewer = viewer
    }

    /// The JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(document.tripID.description, "tripId")
        try container.put(document.trip.name.value, "name")
        if let viewer { try container.put(viewer.id, "viewerZone") }
        try container.put(itinerary.days.map { Day(date: $0.date.description, items: $0.entries.map { Entry(entry: $0, viewer: viewer) }) }, "days")
        try container.put(itinerary.unscheduled.map { Entry(entry: $0, viewer: viewer) }, "unscheduled")
    }

    struct Day: Encodable {
        var date: String
        var items: [Entry]
    }

    struct Time: Encodable {
        var shown: ShownTime
        var viewer: ViewerZone?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            switch shown.time {
            case .date(let date): try container.put(date.description, "date")
            case .local(let local, let zone):
                try container.put(local.description, "local")
                try container.put(zone, "zone")
                if let instant = shown.instant { try container.put(UTCTimestamp(secondsSinceEpoch: instant.secondsSinceEpoch).description, "instant") }
                if let note = shown.note { try container.put(note, "note") }
                if let viewer, let instant = shown.instant, let reading = viewer.read(instant.secondsSinceEpoch) {
                    try container.put(["local": reading.local.description, "zone": viewer.id, "abbreviation": reading.abbreviation], "viewer")
                }
            }
        }
    }

    struct Entry: Encodable {
        var entry: ItineraryEntry
        var viewer: ViewerZone?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(entry.id.description, "id")
            try container.put(entry.fields.title?.value ?? "", "title")
            try container.put(entry.fields.sortKey?.value ?? "", "sortKey")
            try container.put(entry.start.map { Time(shown: $0, viewer: viewer) }, "start")
            try container.put(entry.end.map { Time(shown: $0, viewer: viewer) }, "end")
            try container.put(entry.fields.place?.value ?? nil, "place")
            try container.put(entry.fields.note?.value ?? nil, "note")
            try container.put(entry.conflictedFields.count, "conflicts")
            if let duration = entry.durationSeconds { try container.put(duration / 60, "durationMinutes") }
        }
    }
}
