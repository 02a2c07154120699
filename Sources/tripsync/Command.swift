/// One `tripsync` subcommand: its declaration (name, forms, options, help) and how it runs.
protocol Command: Sendable {
    /// The command, declared once: the parser, the help and the completion scripts read it.
    static var spec: CommandSpec { get }
    /// Runs the command with the arguments after its name.
    static func run(_ arguments: [String], global: GlobalOptions) throws
}

extension Command {
    /// The name typed after `tripsync`.
    static var name: String { spec.name }
    /// One line for the command list.
    static var summary: String { spec.summary }
    /// The full help: usage lines, prose, options.
    static var help: String { spec.help }
}

/// Options that apply to every command.
struct GlobalOptions {
    /// `--home DIR`, else `$TRIPSYNC_HOME`, else `~/.tripsync`.
    var home: String?
    /// `--trip T` given before the command (passed on to the command as if given after it).
    var trip: String?
}
