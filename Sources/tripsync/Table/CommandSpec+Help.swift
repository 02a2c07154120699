/// The help text of a command, made from its declaration: the usage forms with each option's
/// value, the prose, then one line (or a few, wrapped) per option.
extension CommandSpec {
    /// Lines are wrapped to this many characters.
    static let width = 90

    /// What `tripsync help NAME` and `tripsync NAME --help` print.
    var help: String {
        var lines: [String] = []
        for (index, form) in forms.enumerated() {
            let lead = (index == 0 ? "usage: " : "       ") + "tripsync " + name
            lines += Self.wrapUsage(lead: lead, words: expand(form))
        }
        lines.append("")
        lines.append(about)
        let listed = options.filter { $0.name != "--trip" }
        if !listed.isEmpty {
            lines.append("")
            lines.append("options:")
            let labels = listed.map(Self.label)
            // A label too long for the column (`--end YYYY-MM-DDTHH:MM|YYYY-MM-DD`) has its help
            // on the next line; the others line up after the longest one that fits.
            let column = 2 + (labels.map(\.count).filter { $0 <= 24 }.max() ?? 4) + 3
            for (option, label) in zip(listed, labels) {
                let first = "  " + label
                let room = Self.width - column
                var helpLines = Self.wrap(option.help, width: room)
                if first.count + 2 > column {
                    lines.append(first)
                } else {
                    let head = helpLines.isEmpty ? "" : helpLines.removeFirst()
                    lines.append(first + String(repeating: " ", count: column - first.count) + head)
                }
                for line in helpLines { lines.append(String(repeating: " ", count: column) + line) }
            }
        }
        if let epilog {
            lines.append("")
            lines.append(epilog)
        }
        return lines.joined(separator: "\n")
    }

    /// `-o, --output FILE`, `--force`, `--role editor|viewer`.
    static func label(_ option: OptionSpec) -> String {
        var label = (option.short.map { $0 + ", " } ?? "") + option.name
        if let placeholder = option.value.placeholder { label += " " + placeholder }
        return label
    }

    /// `form`'s top-level words (a bracketed group stays one word), each option name followed
    /// by its value's placeholder (its short name where it has one: `-o FILE`).
    func expand(_ form: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        for character in form {
            if character == "[" || character == "(" { depth += 1 }
            if character == "]" || character == ")" { depth -= 1 }
            if character == " " && depth == 0 {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map(expandOptions)
    }

    /// `word` with each option name in it followed by its placeholder.
    func expandOptions(_ word: String) -> String {
        var result = ""
        var rest = Substring(word)
        while let dash = rest.firstIndex(of: "-") {
            let before = rest[..<dash]
            let startsName = before.last.map { " [(|".contains($0) } ?? true
            let name = String(rest[dash...].prefix { $0 == "-" || $0.isLetter })
            result += before
            rest = rest[rest.index(dash, offsetBy: max(name.count, 1))...]
            guard startsName, let option = option(name) else {
                result += name.isEmpty ? "-" : name
                continue
            }
            result += option.short ?? option.name
            if let placeholder = option.value.placeholder { result += " " + placeholder }
        }
        return result + rest
    }

    /// A usage line of `words` after `lead`, wrapped at `width` under its first option.
    static func wrapUsage(lead: String, words: [String]) -> [String] {
        var lines: [String] = []
        var line = lead
        let firstOption = words.firstIndex { "[(-".contains($0.first ?? " ") } ?? 0
        let indentCount = lead.count + 1 + words[..<firstOption].map { $0.count + 1 }.reduce(0, +)
        let indent = String(repeating: " ", count: min(indentCount, 40))
        for (index, word) in words.enumerated() {
            if line.count + 1 + word.count > width && index > firstOption {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
