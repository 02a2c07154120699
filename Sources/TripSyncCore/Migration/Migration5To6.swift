/// Schema 5 → 6: the same document. Schema 6's addition (a grant's encryption key `box`) is
/// optional and absent here: grants keep the messages they were signed with (docs/FORMAT.md,
/// "Schema 6"). Nothing is guessed or added.
enum Migration5To6 {
    static let step = MigrationStep(from: 5, name: "5→6: no encryption keys in grants yet") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v5(let trip) = document else { return document }
        context.summary.items = trip.items.count
        context.summary.tombstones = trip.tombstones.count
        return .v6(trip)
    }
}
