import Foundation

/// One command of `tripsync`, declared once: the parser's accepted options, the `help` text and
/// the three completion scripts are all made from this (`CommandSpec+Help.swift`,
/// `CompletionScript.swift`, `Arguments.init(_:)`).
struct CommandSpec: Sendable {
    /// The name typed after `tripsync`.
    var name: String
    /// One line for the command list (and for zsh and fish completion).
    var summary: String
    /// The usage forms, after `tripsync NAME `: positionals in capitals, options by their name
    /// alone (`[--day]`, `(--after | --before)`, `[--clear]...`); the help writes each option
    /// with its value (`[--day YYYY-MM-DD]`). Every option appears in some form.
    var forms: [String]
    /// The prose between the usage and the options.
    var about: String
    /// Every option the command takes (besides `--help`/`-h`), in the order the help lists them.
    var options: [OptionSpec] = []
    /// Lines after the options (e.g. the exit statuses).
    var epilog: String? = nil

    /// The option named `name` (long or short form).
    func option(_ name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }

    /// Every spelling of an option the parser accepts (`--output`, `-o`), help flags aside.
    var optionNames: [String] {
        options.flatMap { option in [option.name] + (option.short.map { [$0] } ?? []) }
    }

    /// The spellings of the options that take a value.
    var valueOptionNames: Set<String> {
        Set(options.filter { $0.value != .flag }.flatMap { option in [option.name] + (option.short.map { [$0] } ?? []) })
    }

    /// The spellings of the options that are flags.
    var flagOptionNames: Set<String> {
        Set(options.filter { $0.value == .flag }.flatMap { option in [option.name] + (option.short.map { [$0] } ?? []) })
    }

    /// The words completion offers after the name: a form's first word in lower case
    /// (`members claim`, `owner export`), or its choices (`completion bash|zsh|fish`).
    var actions: [String] {
        var actions: [String] = []
        for form in forms {
            guard let first = form.split(separator: " ").first else { continue }
            let words = first.split(separator: "|").map(String.init)
            guard words.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= "a" && $0 <= "z" } }) else { continue }
            for word in words where !actions.contains(word) { actions.append(word) }
        }
        return actions
    }

    /// Whether the command takes file or folder names as arguments (a `FILE`, `FOLDER`, `OUT`
    /// or `BACKUP` positional in one of its forms), for completion.
    var takesFiles: Bool {
        forms.contains { form in
            form.split(separator: " ").contains { word in
                let bare = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]().|"))
                return ["FILE", "FOLDER", "OUT"].contains(bare)
            }
        }
    }
}

/// One option of a command.
struct OptionSpec: Sendable, Equatable {
    /// Its long name (`--output`), or its only name (`-o`).
    var name: String
    /// A short name that means the same (`-o` for `--output`).
    var short: String? = nil
    /// What follows it.
    var value: OptionValue
    /// One line of help (it may wrap).
    var help: String

    init(_ name: String, short: String? = nil, _ value: OptionValue = .flag, _ help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }

    /// The option that names the trip, which most commands take.
    static let trip = OptionSpec("--trip", .trip, "the trip (id, id prefix or name); needed when the home holds more than one")
}

/// What an option takes after it.
enum OptionValue: Sendable, Equatable {
    /// Nothing: a flag.
    case flag
    /// A word, shown as the placeholder (`ZONE`, `YYYY-MM-DD`).
    case text(String)
    /// A file name (completed as one).
    case file(String)
    /// A folder name (completed as one).
    case folder(String)
    /// One of fixed words (`editor|viewer`), shown with `|`.
    case choice([String])
    /// A trip id, id prefix or name (completed from `tripsync trips`).
    case trip

    /// How the help shows the value (nil for a flag).
    var placeholder: String? {
        switch self {
        case .flag: nil
        case .text(let text), .file(let text), .folder(let text): text
        case .choice(let words): words.joined(separator: "|")
        case .trip: "T"
        }
    }

    /// Whether completion offers file names for it.
    var isPath: Bool {
        switch self {
        case .file, .folder: true
        default: false
        }
    }
}
