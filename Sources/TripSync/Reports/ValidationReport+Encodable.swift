import TripSyncCore

extension ValidationReport: JSONReport {
    /// `{"file", "valid", "schemaVersion", "errors": [{"path", "message"}], "warnings": [...]}`
    /// (`validate --json`, one per file).
    public var reportFields: [ReportField] {
        [
            .field("file", file),
            .field("valid", isValid),
            .field("schemaVersion", schemaVersion),
            .field("errors", errors),
            .field("warnings", warnings),
        ]
    }
}

extension ValidationIssue: JSONReport {
    /// `{"path", "message"}`: the JSON Pointer and what was expected.
    public var reportFields: [ReportField] {
        [
            .field("path", pointer),
            .field("message", message),
        ]
    }
}
