import TripSyncCore

extension ValidationReport: JSONReport, Encodable {
    /// `{"file", "valid", "schemaVersion", "sealed", "contentsChecked", "errors": [{"path",
    /// "message"}], "warnings": [...]}` (`validate --json`, one per file): `sealed` says the
    /// file is end-to-end encrypted, `contentsChecked` false that only its envelope and
    /// signature could be checked (no member's key to open it).
    package var reportFields: [ReportField] {
        [
            .field("file", file),
            .field("valid", isValid),
            .field("schemaVersion", schemaVersion),
            .field("sealed", isSealed),
            .field("contentsChecked", contentsChecked),
            .field("errors", errors),
            .field("warnings", warnings),
        ]
    }
}

extension ValidationIssue: JSONReport, Encodable {
    /// `{"path", "message"}`: the JSON Pointer and what was expected.
    package var reportFields: [ReportField] {
        [
            .field("path", pointer),
            .field("message", message),
        ]
    }
}
