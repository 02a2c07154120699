/// Schema 4 → 5: the same document. Schema 5's additions are all optional and absent here: no
/// trip zone (never set), grants without names (signed by the v1 message, as they were), no
/// successions (docs/FORMAT.md, "Schema 5"). Nothing is guessed or added.
enum Migration4To5 {
    static let step = MigrationStep(from: 4, name: "4→5: no trip zone, member names or successions yet") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v4(let trip) = document else { return document }
        context.summary.items = trip.items.count
        context.summary.tombstones = trip.tombstones.count
        return .v5(trip)
    }
}
