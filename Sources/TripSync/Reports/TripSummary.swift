import TripSyncCore

/// One trip of a home as `trips --json` lists it: `{"tripId", "name", "items", "tombstones",
/// "conflicts", "conflictParts"}`.
public struct TripSummary: JSONReport, Encodable, Sendable {
    /// The trip.
    public var tripID: TripID
    /// Its name.
    public var name: String
    /// Live items.
    public var items: Int
    /// Deleted items.
    public var tombstones: Int
    /// Its conflicts, with their parts.
    package var conflicts: ConflictSummary

    /// The summary of `document`.
    package init(_ document: TripDocument) {
        tripID = document.tripID
        name = document.trip.name.value
        items = document.items.count
        tombstones = document.tombstones.count
        conflicts = ConflictSummary(document)
    }

    /// The JSON object.
    package var reportFields: [ReportField] {
        [
            .field("tripId", tripID.description),
            .field("name", name),
            .field("items", items),
            .field("tombstones", tombstones),
            .field("conflicts", conflicts.total),
            .field("conflictParts", conflicts),
        ]
    }
}
