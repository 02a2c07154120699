/// One `tripsync` subcommand: its help text and how it runs.
protocol Command: Sendable {
    /// The name typed after `tripsync`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full help: usage line, then options.
    static var help: String { get }
    /// Runs the command with the arguments after its name.
    static func run(_ arguments: [String], global: GlobalOptions) throws
}

/// Options that apply to every command.
struct GlobalOptions {
    /// `--home DIR`, else `$TRIPSYNC_HOME`, else `~/.tripsync`.
    var home: String?
    /// `--trip T` given before the command (passed on to the command as if given after it).
    var trip: String?
}
