import TripSyncCore
import TripSyncHome

/// `tripsync merge`: read every input as untrusted (one invalid input refuses the whole merge
/// and nothing is written), merge them field by field, compact tombstone bodies past the
/// retention that every device acknowledged, and write the result durably (gzip when the
/// output ends in `.gz`).
package struct FileMergeJob: Sendable {
    /// The inputs, in order (the first is the starting state).
    package var files: [String]
    /// Where the result goes.
    package var output: String
    /// Report what would change; write nothing.
    package var dryRun = false
    /// How long deleted items keep their bodies.
    package var retention = RetentionPolicy.standard
    /// Keep the decoded inputs in the result instead of freeing them during the merge (a process
    /// that exits right after can skip the freeing: `FileMerger.keepsInputs`).
    package var keepsInputs = false

    /// A merge of `files` into `output`.
    package init(files: [String], output: String) {
        self.files = files
        self.output = output
    }

    /// Runs the merge as `writer`. Throws a `TripError` of kind `.invalidFile` (an input
    /// refused, one line per problem) or `FileSystemError` (the output could not be written;
    /// nothing was).
    package func run(writer: DeviceID) throws -> MergeSummary {
        var merger = FileMerger(writer: writer)
        merger.keepsInputs = keepsInputs
        let now = FileMerger.wallClockMilliseconds()
        var result = try TripError.door { try merger.merge(files: files, nowMilliseconds: now) }
        let compacted = result.document.compact(now: UTCTimestamp(millisecondsSinceEpoch: now), policy: retention)
        if !dryRun { try result.document.write(to: output) }
        // Counted once, here, for every report of this merge (the human line and `--json`).
        return MergeSummary(
            result: result, output: output, written: !dryRun, compacted: compacted, conflicts: ConflictSummary(result.document))
    }
}

/// What a file merge did (`merge --json`): `{"output", "written", "dryRun", "items",
/// "tombstones", "conflicts", "conflictParts", "compacted", "fingerprint", "inputs": [{"file",
/// "schemaVersion", "deviceId", "brought": {...}}]}`.
package struct MergeSummary: JSONReport, Sendable {
    /// The merge, with every input and what it brought.
    package var result: FileMergeResult
    /// Where it was (or would be) written.
    package var output: String
    /// Whether it was written (false for a dry run).
    package var written: Bool
    /// Tombstone bodies compacted past the retention.
    package var compacted: Int
    /// The conflicts of the merged (and compacted) document, counted once by the merge.
    package var conflicts: ConflictSummary

    /// The JSON object.
    package var reportFields: [ReportField] {
        let document = result.document
        return [
            .field("output", output), .field("written", written), .field("dryRun", !written), .field("items", document.items.count),
            .field("tombstones", document.tombstones.count), .field("conflicts", conflicts.total), .field("conflictParts", conflicts),
            .field("compacted", compacted), .field("fingerprint", document.fingerprint), .field("inputs", result.inputs.map(Input.init)),
        ]
    }

    struct Input: JSONReport {
        var input: MergeInput
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("file", input.file),
                .field("schemaVersion", input.schemaVersion),
                .field("deviceId", input.deviceID.description),
                .field("brought", input.brought),
            ]
        }
    }
}

extension MergeContribution: JSONReport, Encodable {
    /// `{"itemsAdded", "fieldsChanged", "deletesApplied", "conflictsCreated", "itemsRestored",
    /// "attachmentsAdded", "attachmentsChanged"}`.
    package var reportFields: [ReportField] {
        [
            .field("itemsAdded", itemsAdded),
            .field("fieldsChanged", fieldsChanged),
            .field("deletesApplied", deletesApplied),
            .field("conflictsCreated", conflictsCreated),
            .field("itemsRestored", itemsRestored),
            .field("attachmentsAdded", attachmentsAdded),
            .field("attachmentsChanged", attachmentsChanged),
        ]
    }
}
