import TripSync
import TripSyncCore

/// `tripsync migrate FILE [-o OUT]`.
enum MigrateCommand: Command {
    static let spec = CommandSpec(
        name: "migrate",
        summary: "rewrite an older-schema file in the current schema; refuse newer",
        forms: ["FILE [-o] [--force]"],
        about: """
            Reads FILE (any schema from 1 to the current one, gzip or plain) by its own version's
            rules, migrates it forward one step at a time, checks the result by the current rules, and
            writes canonical JSON of the current schema to OUT (gzip when OUT ends in .gz) or to stdout. A file from a newer TripSync is
            refused and nothing is written. What was done is printed on stderr.
            """,
        options: [
            OptionSpec("--output", short: "-o", .file("OUT"), "where to write (durable, atomic); stdout when left out or '-'"),
            OptionSpec("--force", .flag, "write over an existing OUT without asking"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let file = parser.positionals.first else {
            throw CLIError.usage("migrate needs exactly one FILE", command: name)
        }
        let loaded = try TripFileReader().read(path: file)
        for warning in loaded.warnings { Console.warning("\(file): \(warning)") }
        let document = loaded.document
        let output = (parser.value("-o") ?? parser.value("--output")).flatMap { OutputFile.isStdout($0) ? nil : $0 }
        if let output {
            try OutputFile.check(output, force: parser.has("--force"), command: name)
            try Failure.during(.writing(output)) { try document.write(to: output) }
        } else {
            Console.verbatim(String(decoding: document.canonicalJSON().dropLast(), as: UTF8.self))
        }
        let target = output ?? "stdout"
        if let migration = loaded.migration {
            Console.err(
                "migrated \(file) from schema \(migration.fromVersion) to \(migration.toVersion) into \(target): "
                    + "\(plural(migration.items, "item")), \(plural(migration.tombstones, "deleted item")), "
                    + "\(plural(migration.dirtyItems, "item")) with unconfirmed local edits")
            for step in migration.steps { Console.err("  step \(step)") }
        } else {
            Console.err(
                "\(file) is already schema \(loaded.sourceSchemaVersion): wrote it in canonical form to \(target) "
                    + "(\(plural(document.items.count, "item")), \(plural(document.tombstones.count, "deleted item")))")
        }
    }
}
