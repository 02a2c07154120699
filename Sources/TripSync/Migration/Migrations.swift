/// The ordered chain of pure migration steps from each older schema to the current one.
enum Migrations {
    /// Reads a file of an older schema version: its own rules first, then each step, then the
    /// current rules.
    static func readOlder(
        version: Int, scanner: JSONScanner, file: String, wasGzip: Bool, size: Int, reader: TripFileReader
    ) -> Result<LoadedTrip, TripFileError> {
        .failure(
            TripFileError(
                .unsupportedSchema(found: version), file: file, pointer: "/schemaVersion",
                message: "schema \(version) files cannot be read yet, expected schema \(TripDocument.currentSchemaVersion)"))
    }
}
