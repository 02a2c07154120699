import Foundation

/// The completion scripts `tripsync completion` prints, one per shell, made from the commands'
/// declarations (`CommandSpec`): their options, which of them take a file, and their actions.
enum CompletionScript {
    /// Options every command takes, and those before the command.
    static let globalOptions = ["--home", "--trip", "--help", "-h"]
    static let leadingOptions = ["--home", "--trip", "--version", "-V", "--help", "-h"]

    /// The shell command that prints the trip ids of the home `homeOption` names (empty: the
    /// default); no `{8}` in the pattern, which Debian's mawk does not take.
    static func tripIDs(_ homeOption: String) -> String {
        "tripsync \(homeOption) trips 2>/dev/null | awk '$1 ~ /^[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$/ {print $1}'"
    }

    /// Options of `spec` and the global ones, once each.
    static func options(_ spec: CommandSpec) -> [String] {
        var all: [String] = []
        let declared = spec.options.flatMap { option in (option.short.map { [$0] } ?? []) + [option.name] }
        for option in declared + globalOptions where !all.contains(option) { all.append(option) }
        return all
    }

    /// Options that take a file or folder name.
    static func fileOptions(_ specs: [CommandSpec]) -> [String] {
        var all: Set<String> = ["--home"]
        for spec in specs {
            for option in spec.options where option.value.isPath { all.formUnion([option.name] + (option.short.map { [$0] } ?? [])) }
        }
        return all.sorted()
    }

    static func bash(_ specs: [CommandSpec]) -> String {
        let cases = specs.map { spec in
            "        \(spec.name)) opts=\"\(options(spec).joined(separator: " "))\"; actions=\"\(spec.actions.joined(separator: " "))\"; files=\(spec.takesFiles ? 1 : 0) ;;"
        }
        return """
            # tripsync completion for bash. Load it with: source <(tripsync completion bash)
            _tripsync() {
                local cur prev cmd home i opts actions files
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                cmd=""
                home=""
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        --home) home="${COMP_WORDS[i+1]}"; ((i++)) ;;
                        --trip) ((i++)) ;;
                        -*) ;;
                        *) [[ -z "$cmd" ]] && cmd="${COMP_WORDS[i]}" ;;
                    esac
                done
                case "$prev" in
                    --trip) COMPREPLY=($(compgen -W "$(\(tripIDs(#"${home:+--home "$home"}"#)))" -- "$cur")); return ;;
                    \(fileOptions(specs).joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                esac
                if [[ -z "$cmd" ]]; then
                    COMPREPLY=($(compgen -W "\((specs.map(\.name) + ["help"] + leadingOptions).joined(separator: " "))" -- "$cur"))
                    return
                fi
                opts=""; actions=""; files=0
                case "$cmd" in
                    help) actions="\(specs.map(\.name).joined(separator: " ")) help" ;;
            \(cases.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                else
                    COMPREPLY=($(compgen -W "$actions" -- "$cur"))
                    if [[ "$files" == 1 ]]; then COMPREPLY+=($(compgen -f -- "$cur")); fi
                fi
            }
            complete -o filenames -F _tripsync tripsync
            """
    }

    /// `'text'` for zsh and fish, a `'` inside written as `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func zsh(_ specs: [CommandSpec]) -> String {
        let commands = specs.map { "    " + quoted($0.name + ":" + $0.summary) } + ["    'help:show help for a command'"]
        let cases = specs.map { spec in
            "    \(spec.name)) opts=(\(options(spec).joined(separator: " "))); actions=(\(spec.actions.joined(separator: " "))); files=\(spec.takesFiles ? 1 : 0) ;;"
        }
        return """
            #compdef tripsync
            # tripsync completion for zsh. Load it with: source <(tripsync completion zsh) (after compinit)
            _tripsync() {
              local -a commands opts actions homeoption
              local cmd home i files
              commands=(
            \(commands.joined(separator: "\n"))
              )
              cmd=""
              home=""
              for (( i = 2; i < CURRENT; i++ )); do
                case ${words[i]} in
                  --home) home=${words[i+1]}; homeoption=(--home $home); (( i++ )) ;;
                  --trip) (( i++ )) ;;
                  -*) ;;
                  *) [[ -z $cmd ]] && cmd=${words[i]} ;;
                esac
              done
              case ${words[CURRENT-1]} in
                --trip) compadd -- ${(f)"$(\(tripIDs("$homeoption")))"}; return ;;
                \(fileOptions(specs).joined(separator: "|"))) _files; return ;;
              esac
              if [[ -z $cmd ]]; then
                if [[ ${words[CURRENT]} == -* ]]; then compadd -- \(leadingOptions.joined(separator: " ")); else _describe 'command' commands; fi
                return
              fi
              opts=(); actions=(); files=0
              case $cmd in
                help) actions=(\(specs.map(\.name).joined(separator: " ")) help) ;;
            \(cases.joined(separator: "\n"))
              esac
              if [[ ${words[CURRENT]} == -* ]]; then
                compadd -- $opts
              else
                (( ${#actions} )) && compadd -- $actions
                (( files )) && _files
              fi
            }
            compdef _tripsync tripsync
            """
    }

    static func fish(_ specs: [CommandSpec]) -> String {
        var lines = [
            "# tripsync completion for fish. Load it with: tripsync completion fish | source",
            "complete -c tripsync -f",
            "function __tripsync_trip_ids",
            "    set -l home (string replace -r -- '.*--home[= ]' '' (string match -r -- '--home[= ]\\S+' (commandline -p)))",
            "    if test -n \"$home\"",
            "        tripsync --home $home trips 2>/dev/null | string match -r '^[0-9a-f]{8}-[0-9a-f-]+'",
            "    else",
            "        tripsync trips 2>/dev/null | string match -r '^[0-9a-f]{8}-[0-9a-f-]+'",
            "    end",
            "end",
            "complete -c tripsync -l home -r -F -d 'the home (this laptop\\'s store)'",
            "complete -c tripsync -l trip -x -a '(__tripsync_trip_ids)' -d 'the trip (id, id prefix or name)'",
            "complete -c tripsync -n __fish_use_subcommand -s V -l version -d 'the version'",
            "complete -c tripsync -s h -l help -d 'usage'",
            "complete -c tripsync -n __fish_use_subcommand -a help -d 'show help for a command'",
            "complete -c tripsync -n '__fish_seen_subcommand_from help' -a " + quoted(specs.map(\.name).joined(separator: " ")),
        ]
        for spec in specs {
            lines.append("complete -c tripsync -n __fish_use_subcommand -a \(spec.name) -d \(quoted(spec.summary))")
            let condition = quoted("__fish_seen_subcommand_from \(spec.name)")
            for option in spec.options where option.name != "--trip" {
                let names = (option.short.map { [$0] } ?? []) + [option.name]
                let flag = names.map { $0.hasPrefix("--") ? "-l \($0.dropFirst(2))" : "-s \($0.dropFirst())" }.joined(separator: " ")
                let value: String
                switch option.value {
                case .flag: value = ""
                case .file, .folder: value = " -r -F"
                case .choice(let words): value = " -x -a " + quoted(words.joined(separator: " "))
                case .text, .trip: value = " -x"
                }
                lines.append("complete -c tripsync -n \(condition) \(flag)\(value)")
            }
            if !spec.actions.isEmpty { lines.append("complete -c tripsync -n \(condition) -a \(quoted(spec.actions.joined(separator: " ")))") }
            if spec.takesFiles { lines.append("complete -c tripsync -n \(condition) -F") }
        }
        return lines.joined(separator: "\n")
    }
}
