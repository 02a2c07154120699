import Foundation

/// `tripsync completion bash|zsh|fish`: a shell completion script.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "completion",
        summary: "print a completion script for bash, zsh or fish",
        forms: ["bash|zsh|fish"],
        about: """
            Prints a script that completes tripsync's commands, each command's options and actions
            (members claim, owner export), file names where a file is expected, and trip ids after
            --trip (read from 'tripsync trips' of the home given with --home, or the default one).
            Load it with:
              bash   source <(tripsync completion bash)           (e.g. in ~/.bashrc)
              zsh    source <(tripsync completion zsh)            (in ~/.zshrc, after compinit)
              fish   tripsync completion fish > ~/.config/fish/completions/tripsync.fish
            """)

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let shell = parser.positionals.first else {
            throw CLIError.usage("completion needs one shell: bash, zsh or fish", command: name)
        }
        let specs = Registry.commands.map { $0.spec }
        switch shell {
        case "bash": Console.verbatim(CompletionScript.bash(specs))
        case "zsh": Console.verbatim(CompletionScript.zsh(specs))
        case "fish": Console.verbatim(CompletionScript.fish(specs))
        default: throw CLIError.usage("completion knows bash, zsh and fish, not '\(shell)'", command: name)
        }
    }
}
