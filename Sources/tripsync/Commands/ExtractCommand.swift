import TripSync

/// `tripsync extract ATTACHMENT -o FILE`.
enum ExtractCommand: Command {
    static let name = "extract"
    static let summary = "write an attachment's bytes to a file"
    static let help = """
        usage: tripsync extract ATTACHMENT -o FILE|- [--force] [--trip T]

        Writes the attachment's bytes to FILE (- for standard output, never a terminal) after
        checking them against their SHA-256. An existing FILE is written over only after a yes
        on the terminal, or with --force. An attachment whose bytes have not arrived yet says so.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--trip", "-o"], flags: ["--force"])
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
