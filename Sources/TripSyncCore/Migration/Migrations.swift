/// The ordered chain of pure migration steps, one per version (1→2, 2→3, 3→4, 4→5, 5→6, 6→7). The reader
/// validates a file by its own version's rules before the first step and by the current rules after the last (`TripFileReader.readOlder`).
enum Migrations {
    /// Every step, in order of `from`.
    static let steps: [MigrationStep] = [Migration1To2.step, Migration2To3.step, Migration3To4.step, Migration4To5.step, Migration5To6.step, Migration6To7.step]

    /// Runs the steps from `document`'s version to the current one.
    static func run(_ document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> TripDocument {
        var current = document
        while current.version < TripDocument.currentSchemaVersion {
            guard let step = steps.first(where: { $0.from == current.version }) else {
                throw MigrationFailure(issues: [ValidationIssue(.error, pointer: "/schemaVersion", message: "no migration from schema \(current.version)")])
            }
            current = try step.apply(current, &context)
            context.summary.steps.append(step.name)
        }
        guard case .v7(let result) = current else {
            throw MigrationFailure(issues: [ValidationIssue(.error, pointer: "/schemaVersion", message: "migration did not reach schema \(TripDocument.currentSchemaVersion)")])
        }
        return result
    }
}
