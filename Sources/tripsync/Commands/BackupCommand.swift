import TripSync

/// `tripsync backup -o FILE`.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "write this trip's replica as a gzip backup"
    static let help = """
        usage: tripsync backup -o FILE [--trip T]

        Writes the trip as a gzip trip file (durably). Any TripSync can validate, import or
        merge it.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["-o", "--output", "--trip"])
        try parser.parse(arguments)
        guard let file = parser.value("-o") ?? parser.value("--output"), parser.positionals.isEmpty else {
            throw CLIError.usage("backup needs -o FILE", command: name)
        }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        do {
            let bytes = try document.gzipData()
            try FileIO.writeAtomically(bytes, to: file)
        } catch {
            throw CLIError.refused("\(file): cannot write: \(error)")
        }
        Console.out("wrote \(file): \(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item"))")
    }
}
