#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync
import TripSyncPlatform
import TripSyncHome

/// `tripsync owner export -o FILE` / `tripsync owner import FILE`.
enum OwnerCommand: Command {
    static let spec = CommandSpec(
        name: "owner",
        summary: "move the trip's owner key to another laptop of yours (passphrase-sealed)",
        forms: ["export -o [--force] [--passphrase-file] [--trip]", "import FILE [--passphrase-file] [--trip]"],
        about: """
            'export' writes the trip's owner key sealed with a passphrase (Argon2id and secretbox,
            libsodium) to FILE; 'import' on another laptop of yours that is already in the trip
            opens it, keeps the key in this home and makes this laptop an owner too. The passphrase
            is asked on the terminal (twice for export), or read from the first line of F. An
            existing FILE is written over only with --force or after a yes on the terminal; FILE
            cannot be '-' (the sealed key goes to a file of mode 0600, never to standard output).
            """,
        options: [
            OptionSpec("-o", .file("FILE"), "where export writes the sealed key (mode 0600; not '-')"),
            OptionSpec("--force", .flag, "write over an existing FILE without asking"),
            OptionSpec("--passphrase-file", .file("F"), "read the passphrase from the first line of F"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let words = parser.positionals
        switch words.first {
        case "export"?:
            guard words.count == 1, let output = parser.value("-o") else { throw CLIError.usage("owner export needs -o FILE", command: name) }
            if OutputFile.isStdout(output) { throw CLIError.usage("owner export writes the sealed key to a file only (mode 0600), not to standard output", command: name) }
            try OutputFile.check(output, force: parser.has("--force"), command: name)
            let store = try Session.store(global, trip: parser.value("--trip"))
            var passphrase = try Passphrase.get(file: parser.value("--passphrase-file"), confirm: true, command: name)
            defer { SecretBytes.wipe(&passphrase) }
            try MembersCommand.attempt {
                let export = try store.exportOwnerKey(passphrase: passphrase)
                try Failure.during(.exporting(output)) { try FileIO.writeAtomically(export.fileBytes, to: output, mode: 0o600) }
                Console.out("wrote the owner key of \"\(store.document.trip.name.value)\" (\(export.publicKey.fingerprint)) to \(output), sealed with your passphrase")
            }
        case "import"?:
            guard words.count == 2 else { throw CLIError.usage("owner import needs FILE", command: name) }
            let file = words[1]
            let bytes = try Failure.during(.reading(file, what: nil)) { try FileIO.readFile(file, maxBytes: 64 << 10) }
            try MembersCommand.attempt {
                let export = try OwnerKeyExport(parsing: bytes)
                let store = try Session.store(global, trip: parser.value("--trip") ?? export.trip.description)
                var passphrase = try Passphrase.get(file: parser.value("--passphrase-file"), confirm: false, command: name)
                defer { SecretBytes.wipe(&passphrase) }
                try store.importOwnerKey(export, passphrase: passphrase)
                Console.out("this laptop now holds the owner key of \"\(store.document.trip.name.value)\" and is an owner; publish with tripsync sync FOLDER")
            }
        default:
            throw CLIError.usage("owner needs export or import", command: name)
        }
    }
}
