/// The itinerary as `show --json` prints it: `{"tripId", "name", "days": [{"date", "items":
/// [ITEM]}], "unscheduled": [ITEM]}`, each ITEM `{"id", "title", "sortKey", "start", "end",
/// "place", "note", "conflicts", "durationMinutes"?}` with times as `{"date"}` or `{"local",
/// "zone", "instant"?, "note"?}`.
public struct ItineraryReport: Encodable, Sendable {
    /// The trip.
    public var document: TripDocument
    /// Its itinerary.
    public var itinerary: Itinerary

    /// The report of `itinerary`, laid out from `document`.
    public init(_ document: TripDocument, _ itinerary: Itinerary) {
        self.document = document
        self.itinerary = itinerary
    }

    /// The JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(document.tripID.description, "tripId")
        try container.put(document.trip.name.value, "name")
        try container.put(itinerary.days.map { Day(date: $0.date.description, items: $0.entries.map(Entry.init)) }, "days")
        try container.put(itinerary.unscheduled.map(Entry.init), "unscheduled")
    }

    struct Day: Encodable {
        var date: String
        var items: [Entry]
    }

    struct Time: Encodable {
        var shown: ShownTime
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            switch shown.time {
            case .date(let date): try container.put(date.description, "date")
            case .local(let local, let zone):
                try container.put(local.description, "local")
                try container.put(zone, "zone")
                if let instant = shown.instant { try container.put(UTCTimestamp(secondsSinceEpoch: instant.secondsSinceEpoch).description, "instant") }
                if let note = shown.note { try container.put(note, "note") }
            }
        }
    }

    struct Entry: Encodable {
        var entry: ItineraryEntry
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(entry.id.description, "id")
            try container.put(entry.fields.title?.value ?? "", "title")
            try container.put(entry.fields.sortKey?.value ?? "", "sortKey")
            try container.put(entry.start.map(Time.init), "start")
            try container.put(entry.end.map(Time.init), "end")
            try container.put(entry.fields.place?.value ?? nil, "place")
            try container.put(entry.fields.note?.value ?? nil, "note")
            try container.put(entry.conflictedFields.count, "conflicts")
            if let duration = entry.durationSeconds { try container.put(duration / 60, "durationMinutes") }
        }
    }
}
