import TripSync
import TripSyncCore

/// `tripsync validate FILE... [--json]`: check files as untrusted input.
enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate",
        summary: "check trip files as untrusted input; exit 1 if any is invalid",
        forms: ["FILE... [--json]"],
        about: """
            Reads each FILE (gzip or plain JSON, any supported schema) as untrusted input and reports
            every problem with its JSON Pointer. Warnings (an unknown zone, an end before its start)
            do not make a file invalid. A sealed file (an owned trip's, end-to-end encrypted) is
            opened with this laptop's keys when its home is a member of the trip; otherwise its
            envelope and signature are checked and it is reported SEALED.
            """,
        options: [
            OptionSpec("--json", .flag, "print [{\"file\", \"valid\", \"schemaVersion\", \"errors\", \"warnings\"}] on stdout"),
        ],
        epilog: "exit status: 0 all valid, 1 any invalid, 2 usage error")

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard !parser.positionals.isEmpty else { throw CLIError.usage("validate needs at least one FILE", command: name) }
        // A sealed file's contents are checked with the keys of this laptop's home, when it has one.
        let home = HomeAccess.home(global)
        let reports = try parser.positionals.map { try TripFile.validate($0, home: home.exists ? home : nil) }
        if parser.has("--json") {
            try Console.json(reports)
        } else {
            for report in reports { Console.out(lines: human(report)) }
        }
        if reports.contains(where: { !$0.isValid }) { throw CLIError.silentFailure }
    }

    static func human(_ report: ValidationReport) -> [String] {
        var lines: [String] = []
        let schema = report.schemaVersion.map { " (schema \($0)\(report.isSealed ? ", sealed" : ""))" } ?? ""
        if report.isSealed && !report.contentsChecked {
            lines.append("SEALED   " + report.file + schema)
            lines.append("  the envelope and its signature are valid; the contents are sealed for the trip's members, and this laptop holds no key that opens them (a member's home checks everything)")
            return lines
        }
        lines.append((report.isValid ? "OK       " : "INVALID  ") + report.file + schema)
        for issue in report.errors { lines.append("  error: \(issue)") }
        for issue in report.warnings { lines.append("  warning: \(issue)") }
        return lines
    }
}
