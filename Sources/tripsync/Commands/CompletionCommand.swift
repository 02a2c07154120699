import Foundation

/// `tripsync completion bash|zsh|fish`: a shell completion script.
enum CompletionCommand: Command {
    static let name = "completion"
    static let summary = "print a completion script for bash, zsh or fish"
    static let help = """
        usage: tripsync completion bash|zsh|fish

        Prints a script that completes tripsync's commands, each command's options and actions
        (members claim, owner export), file names where a file is expected, and trip ids after
        --trip (read from 'tripsync trips' of the home given with --home, or the default one).
        Load it with:
          bash   source <(tripsync completion bash)           (e.g. in ~/.bashrc)
          zsh    source <(tripsync completion zsh)            (in ~/.zshrc, after compinit)
          fish   tripsync completion fish > ~/.config/fish/completions/tripsync.fish
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let shell = parser.positionals.first else {
            throw CLIError.usage("completion needs one shell: bash, zsh or fish", command: name)
        }
        let specs = Registry.commands.map(CommandSpec.init)
        switch shell {
        case "bash": Console.verbatim(CompletionScript.bash(specs))
        case "zsh": Console.verbatim(CompletionScript.zsh(specs))
        case "fish": Console.verbatim(CompletionScript.fish(specs))
        default: throw CLIError.usage("completion knows bash, zsh and fish, not '\(shell)'", command: name)
        }
    }
}

/// What completion offers for one command, read from its help text (so it follows the help).
struct CommandSpec {
    /// The command's name.
    var name: String
    /// Its one-line summary.
    var summary: String
    /// Its options (`--json`, `-o`), in the order the help names them.
    var options: [String]
    /// The options that take a value (`--day D`, `-o FILE`).
    var valueOptions: Set<String>
    /// The action words after the name (`members claim`, `completion bash`).
    var actions: [String]
    /// Whether it takes file names as arguments (`FILE` in its usage).
    var takesFiles: Bool

    init(_ command: any Command.Type) {
        name = command.name
        summary = command.summary
        let help = command.help
        var options: [String] = []
        var values: Set<String> = []
        for match in CommandSpec.matches(#"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])( (?:[A-Z][A-Z_]*|[a-z]+(?:\|[a-z]+)+)\b)?"#, in: help) {
            if !options.contains(match[1]) { options.append(match[1]) }
            if !match[2].isEmpty { values.insert(match[1]) }
        }
        self.options = options + ["--help"]
        valueOptions = values
        var actions: [String] = []
        for match in CommandSpec.matches(#"(?m)^\s*(?:usage: )?tripsync \#(name) ([a-z]+)\b"#, in: help) where !actions.contains(match[1]) {
            actions.append(match[1])
        }
        if name == "completion" { actions = ["bash", "zsh", "fish"] }
        self.actions = actions
        takesFiles = help.split(separator: "\n").contains { $0.contains("tripsync \(command.name)") && ($0.contains("FILE") || $0.contains("FOLDER")) }
    }

    /// Every match of `pattern` in `text`, as its groups (a group that took no part is "").
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        // The patterns are constants of this file (tested through the scripts), never typed input.
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let source = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: source.length)).map { match in
            (0..<match.numberOfRanges).map { index in
                let range = match.range(at: index)
                return range.location == NSNotFound ? "" : source.substring(with: range)
            }
        }
    }
}
