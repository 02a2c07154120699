import TripSyncCore

extension ValidationReport: Encodable {
    /// `{"file", "valid", "schemaVersion", "errors": [{"path", "message"}], "warnings": [...]}`
    /// (`validate --json`, one per file).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(file, "file")
        try container.put(isValid, "valid")
        try container.put(schemaVersion, "schemaVersion")
        try container.put(errors, "errors")
        try container.put(warnings, "warnings")
    }
}

extension ValidationIssue: Encodable {
    /// `{"path", "message"}`: the JSON Pointer and what was expected.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(pointer, "path")
        try container.put(message, "message")
    }
}
