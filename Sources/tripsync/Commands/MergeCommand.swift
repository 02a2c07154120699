import TripSync
import TripSyncCore
import TripSyncHome

/// `tripsync merge FILE... -o OUT [--dry-run] [--json]`.
enum MergeCommand: Command {
    static let spec = CommandSpec(
        name: "merge",
        summary: "merge trip files (any schema, gzip or not) into OUT",
        forms: ["FILE... -o [--dry-run] [--json] [--force] [--retention-days]"],
        about: """
            Reads every FILE as untrusted input (schema 1 to 4, gzip or plain) and merges them field
            by field; one invalid input refuses the whole merge and OUT is left untouched. OUT is
            gzip when it ends in .gz. The output is written by this installation (its device id);
            on a laptop without a home, one is made only once every FILE was read and checked, and a
            dry run makes none.
            Tombstone bodies past the retention that every device acknowledged are compacted; the
            stubs stay so stale copies never bring items back.
            """,
        options: [
            OptionSpec("--output", short: "-o", .file("OUT"), "where to write the merged trip (durable, atomic); '-' writes plain JSON to standard output and the report to stderr"),
            OptionSpec("--force", .flag, "write over an existing OUT without asking (else asked on a terminal, refused without one)"),
            OptionSpec("--dry-run", .flag, "report what would change; write nothing"),
            OptionSpec("--json", .flag, "print {\"output\", \"items\", \"tombstones\", \"conflicts\", \"conflictParts\", \"inputs\"}"),
            OptionSpec("--retention-days", .text("N"), "keep deleted items' bodies at least N days (default 90)"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard let output = parser.value("-o") ?? parser.value("--output") else {
            throw CLIError.usage("merge needs -o OUT", command: name)
        }
        guard !parser.positionals.isEmpty else { throw CLIError.usage("merge needs at least one FILE", command: name) }
        var retention = RetentionPolicy.standard
        if let days = parser.value("--retention-days") {
            guard let value = Int(days), value >= 0, value <= 36_500 else {
                throw CLIError.usage("--retention-days needs a whole number of days (0…36500), got '\(days)'", command: name)
            }
            retention = RetentionPolicy(retentionDays: value)
        }
        let toStdout = OutputFile.isStdout(output)
        if toStdout && parser.has("--json") { throw CLIError.usage("merge -o - and --json both write to standard output; choose one", command: name) }
        if !parser.has("--dry-run") { try OutputFile.check(output, force: parser.has("--force"), command: name) }
        var job = FileMergeJob(files: parser.positionals, output: output)
        // Standard output is written here, not by the job (which writes files).
        job.dryRun = parser.has("--dry-run") || toStdout
        job.retention = retention
        // The process exits right after: the inputs are left to it rather than freed one by one.
        job.keepsInputs = true
        Console.progress("reading and validating \(plural(parser.positionals.count, "file"))…")
        let summary = try Failure.during(.merging(output: output)) {
            defer { Console.clearProgress() }
            let writer = try writer(global, job: job, dryRun: parser.has("--dry-run"))
            let home = HomeAccess.home(global)
            return try job.run(writer: writer, home: home.exists ? home : nil)
        }
        Console.clearProgress()
        defer { ProcessLifetime.keepUntilExit(summary) }
        var report = summary
        if toStdout && !parser.has("--dry-run") {
            try OutputFile.save(summary.sealedBytes ?? summary.result.document.canonicalJSON(), to: output)
            report.written = true
        }
        for input in summary.result.inputs {
            for warning in input.warnings { Console.warning("\(input.file): \(warning)") }
            for (device, forks) in Dictionary(grouping: input.forks, by: \.rev.device).sorted(by: { $0.key < $1.key }) {
                Console.warning(
                    "\(input.file): device \(device) wrote two different values under one rev (a copied or restored home) at \(forks.map(\.pointer).prefix(3).joined(separator: ", "))\(forks.count > 3 ? " and \(forks.count - 3) more" : ""); both values are kept as conflicts")
            }
        }
        if parser.has("--json") {
            try Console.json(report)
        } else if toStdout {
            Console.err(lines: human(report))
        } else {
            Console.out(lines: human(report))
        }
    }

    /// The device the output is written as: this home's. Without a home, a dry run writes as
    /// nobody (the fingerprint leaves the writer out) and makes no home; a real merge reads and
    /// checks every input first, so a refused one leaves no home behind.
    private static func writer(_ global: GlobalOptions, job: FileMergeJob, dryRun: Bool) throws -> DeviceID {
        guard !HomeAccess.home(global).exists else { return try HomeAccess.identity(global).deviceID }
        if dryRun { return DeviceID.random() }
        var check = job
        check.dryRun = true
        _ = try check.run(writer: DeviceID.random())
        return try HomeAccess.identity(global).deviceID
    }

    static func human(_ summary: MergeSummary) -> [String] {
        let result = summary.result
        let output = summary.output
        let dryRun = !summary.written
        let compacted = summary.compacted
        let document = result.document
        var lines: [String] = []
        let verb = dryRun ? "would write" : "wrote"
        lines.append(
            "merged \(plural(result.inputs.count, "file")): \(plural(document.items.count, "item")), "
                + "\(plural(document.tombstones.count, "deleted item")), \(summary.conflicts)")
        for (index, input) in result.inputs.enumerated() {
            let head = "  \(input.file) (schema \(input.schemaVersion), device \(input.deviceID.description.prefix(8))): "
            let b = input.brought
            if index == 0 {
                lines.append(head + "the starting state, \(plural(b.itemsAdded, "item"))")
            } else if b.isEmpty {
                lines.append(head + "nothing new")
            } else {
                var attachments = ""
                if b.attachmentsAdded + b.attachmentsChanged > 0 {
                    attachments = ", \(plural(b.attachmentsAdded, "attachment")) added, \(plural(b.attachmentsChanged, "attachment")) changed"
                }
                lines.append(
                    head + "\(plural(b.itemsAdded, "item")) added, \(plural(b.fieldsChanged, "field")) changed, "
                        + "\(plural(b.deletesApplied, "delete")) applied, \(plural(b.conflictsCreated, "conflict")) created, "
                        + "\(plural(b.itemsRestored, "item")) restored" + attachments)
            }
        }
        if compacted > 0 { lines.append("  compacted \(plural(compacted, "deleted item's body", "deleted items' bodies")) past the retention") }
        let sealed = summary.sealedBytes != nil
        let form = sealed ? "sealed, as its inputs were: only a member's keys open it" : "plain JSON"
        lines.append(
            "\(verb) \(OutputFile.isStdout(output) ? "the merged trip to standard output (\(form))" : output + (sealed ? " (\(form))" : ""))"
                + (dryRun ? " (dry run: nothing written)" : ""))
        return lines
    }
}

/// "1 item", "2 items".
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : pluralForm ?? singular + "s")
}
