import TripSyncCore
import TripSyncHome

/// Trip files outside a home: a backup, a file from a shared drive, a file someone sent
/// (docs/DESIGN.md, "The app API"). Every file is untrusted: a broken, truncated, hostile or
/// newer-version file is refused with every problem and its JSON Pointer, and nothing is changed.
public enum TripFile {
    /// Reads the trip file at `path` (any schema version this build knows, gzip or not) into a
    /// validated document of the current schema. Throws a `TripError` of kind `.invalidFile`
    /// (also for a file that cannot be opened) whose `problems` are every problem found, each
    /// with its JSON Pointer.
    public static func read(_ path: String) throws(TripError) -> LoadedTrip {
        try TripError.typed { try TripFileReader().read(path: path) }
    }

    /// Checks the trip file at `path` without keeping it: its schema version, every error and
    /// every warning, each with its JSON Pointer. Never throws; an unreadable file is a report
    /// with errors.
    public static func validate(_ path: String) -> ValidationReport {
        TripFileReader().validate(path: path)
    }

    /// `read`, opening a sealed file (an owned trip's, end-to-end encrypted) with the epoch keys
    /// `home` holds; without them a sealed file is refused as `TripFileError.Kind.sealed`.
    package static func read(_ path: String, home: Home?) throws -> LoadedTrip {
        try (home?.tripFileReader() ?? TripFileReader()).read(path: path)
    }

    /// `validate`, checking a sealed file's contents with the epoch keys `home` holds; without
    /// them only its envelope and signature are checked, and the report says so
    /// (`ValidationReport.contentsChecked`). Throws only when the home's keys cannot be read.
    package static func validate(_ path: String, home: Home?) throws -> ValidationReport {
        try (home?.tripFileReader() ?? TripFileReader()).validate(path: path)
    }
}

extension TripDocument {
    /// Merges `other` into this document, field by field (docs/DESIGN.md, "Merge"), as this
    /// document's device: the result, and what `other` brought to it. Two copies of different
    /// trips, or copies that claim the same change with different values, are refused (a
    /// `TripError` of kind `.refused`, `facts.pointer` naming the field), and nothing is merged.
    public func merged(with other: TripDocument) throws -> (document: TripDocument, brought: MergeContribution) {
        let result = try TripError.door { try DocumentMerger.merge(self, other, writer: deviceID) }
        return (result, MergeContribution(before: self, after: result))
    }
}
