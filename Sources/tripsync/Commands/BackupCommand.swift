import TripSync

/// `tripsync backup -o FILE`.
enum BackupCommand: Command {
    static let spec = CommandSpec(
        name: "backup",
        summary: "write this trip's replica as a backup file (gzip or plain JSON, as its name says)",
        forms: ["-o [--force] [--trip]"],
        about: """
            Writes the trip as a trip file (durably), in the format FILE's name says: gzip for a
            name ending in .gz (x.trip.json.gz), plain JSON for one ending in .json (x.trip.json);
            another ending is refused. FILE '-' writes gzip to standard output (refused when that
            is a terminal). Any TripSync can validate, import or merge the file.
            """,
        options: [
            OptionSpec("--output", short: "-o", .file("FILE"), "where to write"),
            OptionSpec("--force", .flag, "write over an existing FILE without asking (else asked on a terminal, refused without one)"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard let file = parser.value("-o") ?? parser.value("--output"), parser.positionals.isEmpty else {
            throw CLIError.usage("backup needs -o FILE", command: name)
        }
        let gzip = OutputFile.isStdout(file) || file.hasSuffix(".gz")
        guard gzip || file.hasSuffix(".json") else {
            throw CLIError.usage(
                "backup -o \(file): the name does not say the format; end it in .trip.json.gz (gzip) or .trip.json (plain JSON), or give - for standard output",
                command: name)
        }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        try OutputFile.check(file, force: parser.has("--force"), binary: gzip, command: "backup -o -")
        let bytes = try Failure.during(.writing(file)) { try HomeAccess.home(global).backupBytes(of: document, gzip: gzip) }
        try OutputFile.save(bytes, to: file)
        let what = "\(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item"))"
        if OutputFile.isStdout(file) {
            Console.err("wrote the backup to standard output (gzip): \(what)")
        } else {
            Console.out("wrote \(file)\(gzip ? "" : " (plain JSON)"): \(what)")
        }
    }
}
