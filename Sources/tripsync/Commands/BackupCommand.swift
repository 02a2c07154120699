import TripSync

/// `tripsync backup -o FILE`.
enum BackupCommand: Command {
    static let spec = CommandSpec(
        name: "backup",
        summary: "write this trip's replica as a backup file (gzip or plain JSON, as its name says)",
        forms: ["-o [--plain] [--force] [--trip]"],
        about: """
            Writes the trip as a trip file (durably), in the format FILE's name says: gzip for a
            name ending in .gz (x.trip.json.gz), plain JSON for one ending in .json (x.trip.json);
            another ending is refused. FILE '-' writes gzip to standard output (refused when that
            is a terminal). Any TripSync can validate, import or merge the file.

            An owned trip whose keys this laptop holds is backed up sealed, as its file in the
            shared folder is (end-to-end encrypted: a member's home opens it, anyone else sees
            only its envelope); its name must then end in .gz. --plain writes readable JSON on
            purpose, and the command says so.
            """,
        options: [
            OptionSpec("--output", short: "-o", .file("FILE"), "where to write"),
            OptionSpec("--plain", .flag, "write readable JSON even for a sealed trip (whoever reads the file reads the trip)"),
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
        let home = try HomeAccess.home(global)
        let plain = parser.has("--plain")
        let sealable = try home.sealsBackups(of: document)
        let sealed = sealable && !plain
        if sealed && !gzip {
            throw CLIError.usage(
                "backup -o \(file): this trip is sealed, and so is its backup, which is not JSON; end the name in .trip.json.gz, or add --plain to write readable JSON on purpose",
                command: name)
        }
        try OutputFile.check(file, force: parser.has("--force"), binary: gzip, command: "backup -o -")
        let bytes = try Failure.during(.writing(file)) { try home.backupBytes(of: document, gzip: gzip, plain: plain) }
        try OutputFile.save(bytes, to: file)
        let what = "\(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item"))"
        let form =
            sealed
            ? " (sealed: only a member's keys open it)"
            : sealable ? " (NOT sealed, as asked: whoever can read the file reads the whole trip)" : gzip ? "" : " (plain JSON)"
        if OutputFile.isStdout(file) {
            Console.err("wrote the backup to standard output (\(sealed ? "sealed" : "gzip")): \(what)")
        } else {
            Console.out("wrote \(file)\(form): \(what)")
        }
    }
}
