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
    ///
    /// With `home` (the writer's), sealed inputs are opened with its keys, and when any input
    /// was sealed the result is sealed too, as this home publishes the trip (`Home.publishedFile`):
    /// a merge never turns sealed files into one anybody can read. Its bytes are then in
    /// `MergeSummary.sealedBytes` (for standard output).
    package func run(writer: DeviceID, home: Home? = nil) throws -> MergeSummary {
        var merger = FileMerger(writer: writer, reader: try home?.tripFileReader() ?? TripFileReader())
        merger.keepsInputs = keepsInputs
        let now = FileMerger.wallClockMilliseconds()
        var result = try TripError.door { try merger.merge(files: files, nowMilliseconds: now) }
        let compacted = result.document.compact(now: UTCTimestamp(millisecondsSinceEpoch: now), policy: retention)
        var sealed: [UInt8]?
        if let home, result.inputs.contains(where: \.wasSealed) {
            let file = try home.publishedFile(of: result.document, access: try TripAccess.load(home, result.document.tripID))
            if file.sealedWith != nil { sealed = file.bytes }
        }
        if !dryRun {
            if let sealed { try FileIO.writeAtomically(sealed, to: output) } else { try result.document.write(to: output) }
        }
        // Counted once, here, for every report of this merge (the human line and `--json`).
        var summary = MergeSummary(
            result: result, output: output, written: !dryRun, compacted: compacted, conflicts: ConflictSummary(result.document))
        summary.sealedBytes = sealed
        return summary
    }
}

/// What a file merge did (`merge --json`): `{"output", "written", "dryRun", "items",
/// "tombstones", "conflicts", "conflictParts", "compacted", "sealed", "fingerprint", "inputs": [{"file",
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
    /// The sealed result, when an input was sealed (nil: the result is a plain trip file).
    package var sealedBytes: [UInt8]? = nil

    /// The JSON object.
    package var reportFields: [ReportField] {
        let document = result.document
        return [
            .field("output", output), .field("written", written), .field("dryRun", !written), .field("items", document.items.count),
            .field("tombstones", document.tombstones.count), .field("conflicts", conflicts.total), .field("conflictParts", conflicts),
            .field("compacted", compacted), .field("sealed", sealedBytes != nil), .field("fingerprint", document.fingerprint), .field("inputs", result.inputs.map(Input.init)),
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
