/// Schema 6 → 7: the same document. Schema 7's addition (a blob's `sealed` copy) is optional
/// and absent here: an attachment of a schema 6 file names plain bytes, kept plain in the trip
/// folder under their own SHA-256 (docs/FORMAT.md, "Schema 7"). Nothing is guessed or added.
enum Migration6To7 {
    static let step = MigrationStep(from: 6, name: "6→7: no sealed attachment bytes yet") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v6(let trip) = document else { return document }
        context.summary.items = trip.items.count
        context.summary.tombstones = trip.tombstones.count
        return .v7(trip)
    }
}
