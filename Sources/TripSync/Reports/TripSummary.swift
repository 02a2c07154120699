import TripSyncCore

/// One trip of a home as `trips --json` lists it: `{"tripId", "name", "items", "tombstones",
/// "conflicts", "conflictParts"}`.
public struct TripSummary: Encodable, Sendable {
    /// The trip.
    public var tripID: TripID
    /// Its name.
    public var name: String
    /// Live items.
    public var items: Int
    /// Deleted items.
    public var tombstones: Int
    /// Its conflicts, with their parts.
    public var conflicts: ConflictSummary

    /// The summary of `document`.
    public init(_ document: TripDocument) {
        tripID = document.tripID
        name = document.trip.name.value
        items = document.items.count
        tombstones = document.tombstones.count
        conflicts = ConflictSummary(document)
    }

    /// The JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(tripID.description, "tripId")
        try container.put(name, "name")
        try container.put(items, "items")
        try container.put(tombstones, "tombstones")
        try container.put(conflicts.total, "conflicts")
        try container.put(conflicts, "conflictParts")
    }
}
