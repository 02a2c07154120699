import TripSyncCore

extension ValidationReport: JSONReport, Encodable {
    /// `{"file", "valid", "schemaVersion", "errors": [{"path", "message"}], "warnings": [...]}`
    /// (`validate --json`, one per file).
    package var reportFields: [ReportField] {
        [
            .field("file", file),
            .field("valid", isValid),
            .field("schemaVersion", schemaVersion),
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
