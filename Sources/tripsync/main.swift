import TripSync
import TripSyncHome
import TripSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every command, in the order `help` lists them.
enum Registry {
    static let commands: [any Command.Type] = [
        DemoCommand.self,
        InitCommand.self,
        NewCommand.self,
        TripsCommand.self,
        AddCommand.self,
        EditCommand.self,
        MoveCommand.self,
        DeleteCommand.self,
        RestoreCommand.self,
        ShowCommand.self,
        FindCommand.self,
        RenameCommand.self,
        ZoneCommand.self,
        ForgetCommand.self,
        ConflictsCommand.self,
        ResolveCommand.self,
        StatusCommand.self,
        ExportCommand.self,
        SyncCommand.self,
        BackupCommand.self,
        ImportCommand.self,
        ValidateCommand.self,
        MigrateCommand.self,
        MergeCommand.self,
        FingerprintCommand.self,
        OpenCommand.self,
        MembersCommand.self,
        InviteCommand.self,
        JoinCommand.self,
        OwnerCommand.self,
        AttachCommand.self,
        AttachmentsCommand.self,
        CaptionCommand.self,
        DetachCommand.self,
        ReattachCommand.self,
        ExtractCommand.self,
        GCCommand.self,
        CompletionCommand.self,
    ]
}

func usageText() -> String {
    var lines = [
        "usage: tripsync [--home DIR] [--trip T] COMMAND [ARGS...]   (or: tripsync --version)",
        "",
        "TripSync keeps a shared trip plan in sync between laptops through files, with no server.",
        "",
        "commands:",
    ]
    let width = Registry.commands.map { $0.name.count }.max() ?? 8
    for command in Registry.commands {
        lines.append("  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.summary)
    }
    lines.append("  help" + String(repeating: " ", count: max(width - 2, 1)) + "show help for a command")
    lines.append("")
    lines.append("Run 'tripsync help COMMAND' for a command's options.")
    return lines.joined(separator: "\n")
}

/// What `--version` prints: the tool's version and the schema versions it reads and writes.
let versionText =
    "tripsync \(TripSyncVersion.release) (reads trip files of schema 1 to \(TripDocument.currentSchemaVersion), writes schema \(TripDocument.currentSchemaVersion))"

/// What `help help` prints.
let helpHelp = """
    usage: tripsync help [COMMAND]

    Without COMMAND, lists every command; with one, shows its usage and options (as
    'tripsync COMMAND --help' does). 'tripsync --version' prints the version.
    """

/// `arguments` without the `--home DIR` / `--home=DIR` it holds before a `--`, whose value
/// (the last one wins) goes into `global`.
func takeHome(from arguments: [String], into global: inout GlobalOptions) throws -> [String] {
    var rest: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if argument == "--" {
            rest += arguments[(index - 1)...]
            break
        }
        if argument.hasPrefix("--home=") {
            global.home = String(argument.dropFirst("--home=".count))
        } else if argument == "--home" {
            guard index < arguments.count else { throw CLIError.usage("option --home needs a value", command: nil) }
            global.home = arguments[index]
            index += 1
        } else {
            rest.append(argument)
        }
    }
    return rest
}

/// The global options before the command (`--home DIR`, `--trip T`, either also as
/// `--NAME=VALUE`), taken off the front of `arguments` into `global`.
func takeLeadingGlobals(from arguments: inout [String], into global: inout GlobalOptions) throws {
    while let first = arguments.first {
        let name: String
        if first == "--home" || first.hasPrefix("--home=") {
            name = "--home"
        } else if first == "--trip" || first.hasPrefix("--trip=") {
            name = "--trip"
        } else {
            return
        }
        arguments.removeFirst()
        let value: String
        if first.hasPrefix(name + "=") {
            value = String(first.dropFirst(name.count + 1))
        } else {
            guard let next = arguments.first else { throw CLIError.usage("option \(name) needs a value", command: nil) }
            value = next
            arguments.removeFirst()
        }
        if name == "--home" { global.home = value } else { global.trip = value }
    }
}

func command(named name: String) -> (any Command.Type)? {
    Registry.commands.first { $0.name == name }
}

/// A usage error for a command name that is not one, with the closest names as a hint.
func unknownCommand(_ name: String) -> CLIError {
    let hint = Suggestion.hint(for: name, in: Registry.commands.map { $0.name } + ["help"], prefix: "tripsync ")
    return .usage("unknown command '\(name)'" + (hint.map { "\n" + $0 } ?? ""), command: nil)
}

/// Runs the tool and returns the exit status; the one place errors become messages.
func runTool(_ rawArguments: [String]) -> Int32 {
    var arguments = rawArguments
    var global = GlobalOptions()
    HomeLock.onWait { home, holder, timeout in
        let who = holder.summary.map { "another tripsync (\($0))" } ?? "another tripsync process"
        Console.err("tripsync: \(home) is in use by \(who); waiting up to \(Int(timeout)) s for it")
    }
    do {
        try takeLeadingGlobals(from: &arguments, into: &global)
        guard let name = arguments.first else {
            Console.errVerbatim(usageText())
            return 2
        }
        arguments.removeFirst()
        if name == "--version" || name == "-V" {
            Console.verbatim(versionText)
            return 0
        }
        // Global options are taken after the command too (up to a "--").
        arguments = try takeHome(from: arguments, into: &global)
        CommandHint.remember(global, arguments: arguments)
        if name == "help" || name == "--help" || name == "-h" {
            if arguments.first == "help" {
                Console.verbatim(helpHelp)
                return 0
            }
            if let topic = arguments.first {
                guard let command = command(named: topic) else { throw unknownCommand(topic) }
                Console.verbatim(command.help)
            } else {
                Console.verbatim(usageText())
            }
            return 0
        }
        guard let command = command(named: name) else { throw unknownCommand(name) }
        // -h / --help anywhere before a "--" asks for the command's usage.
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            Console.verbatim(command.help)
            return 0
        }
        // A --trip before the command counts as one given after it (which wins when both are).
        if let trip = global.trip { arguments = ["--trip", trip] + arguments }
        try command.run(arguments, global: global)
        return 0
    } catch {
        switch Failure.cliError(error, home: HomeAccess.home(global)) {
        case .usage(let message, let command):
            Console.failure(message)
            // A message with hints (the candidates of an ambiguous name) says enough.
            if !message.contains("\nhint: ") { Console.err("Run 'tripsync help\(command.map { " " + $0 } ?? "")' for usage.") }
            return 2
        case .refused(let lines):
            // A line that holds the library's own newlines (hints) is split there; a value that
            // could hold a newline (a file's name) is escaped where the line is made (`file`).
            for line in lines { Console.failure(line) }
            return 1
        case .silentFailure:
            return 1
        }
    }
}

exit(runTool(Array(CommandLine.arguments.dropFirst())))
