import TripSync

/// `tripsync extract ATTACHMENT -o FILE`.
enum ExtractCommand: Command {
    static let spec = CommandSpec(
        name: "extract",
        summary: "write an attachment's bytes to a file",
        forms: ["ATTACHMENT -o [--force] [--trip]"],
        about: """
            Writes the attachment's bytes to FILE (- for standard output, never a terminal) after
            checking them against their SHA-256. An existing FILE is written over only after a yes
            on the terminal, or with --force. An attachment whose bytes have not arrived yet says so.
            """,
        options: [
            OptionSpec("-o", .file("FILE|-"), "where to write the bytes; '-' for standard output (never a terminal)"),
            OptionSpec("--force", .flag, "write over an existing FILE without asking"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("extract needs exactly one ATTACHMENT", command: name)
        }
        guard let output = parser.value("-o") else { throw CLIError.usage("extract needs -o FILE", command: name) }
        try HomeAccess.requireExisting(global)
        try OutputFile.check(output, force: parser.has("--force"), binary: true, command: name)
        let store = try Session.store(global, trip: parser.value("--trip"))
        try Session.attachmentWork(nothing: "nothing was written") {
            let entry = try store.attachment(selector)
            try OutputFile.save(try store.bytes(of: entry.id), to: output)
            if !OutputFile.isStdout(output) { Console.out("wrote \(output) (\(entry.name), \(ByteCount.text(entry.blob.size)))") }
        }
    }
}
