/// The ordered chain of pure migration steps, one per version: a later 2→3 slots in after
/// 1→2 without touching it. A file is validated by its own version's rules before its first
/// step and by the current rules after the last.
enum Migrations {
    /// Every step, in order of `from`.
    static let steps: [MigrationStep] = [Migration1To2.step]

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
        guard case .v2(let result) = current else {
            throw MigrationFailure(issues: [ValidationIssue(.error, pointer: "/schemaVersion", message: "migration did not reach schema \(TripDocument.currentSchemaVersion)")])
        }
        return result
    }

    /// Reads a file of an older schema version: its own rules, each step, then the current rules.
    static func readOlder(
        version: Int, scanner: JSONScanner, file: String, wasGzip: Bool, size: Int, reader: TripFileReader
    ) -> Result<LoadedTrip, TripFileError> {
        let older: VersionedDocument
        switch version {
        case 1:
            var decoder = DocumentDecoderV1(scanner: scanner)
            do {
                guard let v1 = try decoder.decode() else {
                    return .failure(TripFileError(.invalid, file: file, issues: decoder.context.issues))
                }
                older = .v1(v1)
            } catch let error as JSONSyntaxError {
                let position = TripFileReader.lineAndColumn(scanner, error.offset)
                return .failure(TripFileError(.notJSON, file: file, pointer: decoder.context.pointer, message: "\(position): \(error.message)"))
            } catch {
                return .failure(TripFileError(.notJSON, file: file, message: "\(error)"))
            }
        default:
            return .failure(
                TripFileError(.unsupportedSchema(found: version), file: file, pointer: "/schemaVersion", message: "schema \(version) cannot be read"))
        }
        var context = MigrationContext(
            sourceBytes: UnsafeBufferPointer(start: scanner.base, count: scanner.count), zones: reader.zones,
            summary: MigrationSummary(fromVersion: version, toVersion: TripDocument.currentSchemaVersion, steps: []))
        let document: TripDocument
        do {
            document = try run(older, context: &context)
        } catch {
            return .failure(TripFileError(.migrationFailed, file: file, issues: error.issues))
        }
        return reader.finish(document, file: file, sourceVersion: version, wasGzip: wasGzip, size: size).map { loaded in
            var loaded = loaded
            loaded.warnings = context.warnings + loaded.warnings
            loaded.migration = context.summary
            return loaded
        }
    }
}
