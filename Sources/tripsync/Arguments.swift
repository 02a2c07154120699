/// A small, strict command-line parser: options are declared per command, unknown options and
/// missing values are usage errors (exit 2).
struct Arguments {
    /// Options that take a value, by name (e.g. `-o`, `--trip`).
    var valueOptions: Set<String>
    /// Options that are flags.
    var flagOptions: Set<String>
    /// The command name, for messages.
    var command: String

    /// Values given for value options (the last one wins).
    private(set) var values: [String: String] = [:]
    /// Flags that were given.
    private(set) var flags: Set<String> = []
    /// Positional arguments.
    private(set) var positionals: [String] = []

    /// A parser that accepts exactly the options `spec` declares (and `--help`/`-h`).
    init(_ spec: CommandSpec) {
        self.init(command: spec.name, values: spec.valueOptionNames, flags: spec.flagOptionNames)
    }

    private init(command: String, values: Set<String>, flags: Set<String>) {
        self.command = command
        self.valueOptions = values
        self.flagOptions = flags.union(["--help", "-h"])
    }

    /// Parses `arguments`; throws a usage error for anything unknown.
    mutating func parse(_ arguments: [String]) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flagOptions.contains(name) {
                if inlineValue != nil { throw CLIError.usage("option \(name) takes no value", command: command) }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw CLIError.usage("option \(name) needs a value", command: command)
                    }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                let hint = Suggestion.hint(for: name, in: (valueOptions.union(flagOptions)).filter { $0.hasPrefix("--") }.sorted())
                throw CLIError.usage("unknown option \(name) for '\(command)'" + (hint.map { "\n" + $0 } ?? ""), command: command)
            }
        }
    }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option.
    func value(_ name: String) -> String? { values[name] }

    /// Whether help was asked for.
    var wantsHelp: Bool { has("--help") || has("-h") }
}
