import TripSyncCore

/// The itinerary as `show --json` prints it: `{"tripId", "name", "days": [{"date", "items":
/// [ITEM]}], "unscheduled": [ITEM]}`, each ITEM `{"id", "title", "sortKey", "start", "end",
/// "place", "note", "conflicts", "durationMinutes"?}` with times as `{"date"}` or `{"local",
/// "zone", "instant"?, "note"?}`. With a viewer zone (`show --in`), the object has
/// `"viewerZone"` and each timed value in a known zone has `"viewer": {"local", "zone",
/// "abbreviation"}`: the same instant read in the viewer's zone.
package struct ItineraryReport: JSONReport, Sendable {
    /// The trip.
    package var document: TripDocument
    /// Its itinerary.
    package var itinerary: Itinerary
    /// The zone times are also read in, when any.
    package var viewer: ViewerZone?

    /// The report of `itinerary`, laid out from `document`, with each time also read in `viewer`.
    package init(_ document: TripDocument, _ itinerary: Itinerary, viewer: ViewerZone? = nil) {
        self.document = document
        self.itinerary = itinerary
        self.viewer = viewer
    }

    /// The JSON object.
    package var reportFields: [ReportField] {
        [
            .field("tripId", document.tripID.description),
            .field("name", document.trip.name.value),
            .optional("viewerZone", viewer?.id),
            .field("days", itinerary.days.map { Day(date: $0.date.description, items: $0.entries.map { Entry(entry: $0, viewer: viewer) }) }),
            .field("unscheduled", itinerary.unscheduled.map { Entry(entry: $0, viewer: viewer) }),
        ]
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

    struct Entry: JSONReport {
        var entry: ItineraryEntry
        var viewer: ViewerZone?
        var reportFields: [ReportField] {
            [
                .field("id", entry.id.description),
                .field("title", entry.fields.title?.value ?? ""),
                .field("sortKey", entry.fields.sortKey?.value ?? ""),
                .field("start", entry.start.map { Time(shown: $0, viewer: viewer) }),
                .field("end", entry.end.map { Time(shown: $0, viewer: viewer) }),
                .field("place", entry.fields.place?.value ?? nil),
                .field("note", entry.fields.note?.value ?? nil),
                .field("conflicts", entry.conflictedFields.count),
                .optional("durationMinutes", entry.durationSeconds.map { $0 / 60 }),
            ]
        }
    }
}
