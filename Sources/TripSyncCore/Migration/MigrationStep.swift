/// A document of any schema version this build reads.
enum VersionedDocument {
    case v1(TripDocumentV1)
    /// Schema 2: a `TripDocument` without owner or members.
    case v2(TripDocument)
    /// Schema 3: a `TripDocument` without attachments.
    case v3(TripDocument)
    /// Schema 4: a `TripDocument` without trip zone, member names or successions.
    case v4(TripDocument)
    /// Schema 5: a `TripDocument` whose grants carry no encryption keys.
    case v5(TripDocument)
    /// Schema 6: a `TripDocument` whose blobs are all plain.
    case v6(TripDocument)
    case v7(TripDocument)

    var version: Int {
        switch self {
        case .v1: return 1
        case .v2: return 2
        case .v3: return 3
        case .v4: return 4
        case .v5: return 5
        case .v6: return 6
        case .v7: return 7
        }
    }
}

/// What a migration did, for the person who ran it.
package struct MigrationSummary: Hashable, Sendable {
    /// The version the file was written in.
    package var fromVersion: Int
    /// The version it was migrated to.
    package var toVersion: Int
    /// The names of the steps that ran, in order.
    package var steps: [String]
    /// Live items in the result.
    package var items = 0
    /// Deleted items (tombstones) in the result.
    package var tombstones = 0
    /// Items that carried unconfirmed local edits (schema 1 `dirty` rows).
    package var dirtyItems = 0
}

/// Inputs a step may use besides the document: never the installation's own identity.
struct MigrationContext {
    /// The JSON bytes of the file (dirty edits get a writer id derived from them).
    var sourceBytes: UnsafeBufferPointer<UInt8>
    /// Zone rules for instants → local times.
    var zones: ZoneRules
    /// Warnings a step raises (the file is still migrated).
    var warnings: [ValidationIssue] = []
    /// Filled by the steps.
    var summary: MigrationSummary
}

/// One pure, named step from one schema version to the next.
struct MigrationStep: Sendable {
    /// The version this step reads.
    var from: Int
    /// A short name shown to people.
    var name: String
    /// The conversion; throws issues naming what could not be converted.
    var apply: @Sendable (VersionedDocument, inout MigrationContext) throws(MigrationFailure) -> VersionedDocument
}

/// A step could not convert something; nothing is guessed.
struct MigrationFailure: Error {
    var issues: [ValidationIssue]
}
