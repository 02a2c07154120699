/// Schema 3 → 4: the same document with no attachments (docs/DESIGN.md, "Attachments").
/// Nothing else changes.
enum Migration3To4 {
    static let step = MigrationStep(from: 3, name: "3→4: no attachments yet") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v3(var trip) = document else { return document }
        trip.attachments = [:]
        context.summary.items = trip.items.count
        context.summary.tombstones = trip.tombstones.count
        return .v4(trip)
    }
}
