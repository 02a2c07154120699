/// A mistake on the command line, reported with the subcommand's usage.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var usage: String
    var description: String { "\(message)\n\(usage)" }
}

/// A hand-written cursor over a subcommand's arguments: `--option value` pairs and flags.
struct ArgumentParser {
    private var remaining: ArraySlice<String>
    private let usage: String

    init(_ arguments: [String], usage: String) {
        self.remaining = arguments[...]
        self.usage = usage
    }

    /// The next argument, which must be an option (starting with `--`); nil at the end.
    mutating func nextOption() -> String? {
        remaining.popFirst()
    }

    /// The value following `option`.
    mutating func value(for option: String) throws -> String {
        guard let value = remaining.popFirst() else {
            throw UsageError(message: "\(option) needs a value", usage: usage)
        }
        return value
    }

    /// The value following `option` as a positive integer.
    mutating func positiveInt(for option: String) throws -> Int {
        let text = try value(for: option)
        guard let number = Int(text), number > 0 else {
            throw UsageError(message: "\(option) expects a positive integer, got '\(text)'", usage: usage)
        }
        return number
    }

    /// `FILE... [--repeat R]` (R 21 unless given): the files, at least one, and the repeat count.
    static func filesAndRepeats(_ arguments: [String], usage: String, command: String) throws -> (files: [String], repeats: Int) {
        var parser = ArgumentParser(arguments, usage: usage)
        var repeats = 21
        var files: [String] = []
        while let option = parser.nextOption() {
            switch option {
            case "--repeat": repeats = try parser.positiveInt(for: option)
            default:
                if option.hasPrefix("-") { throw UsageError(message: "unknown option \(option)", usage: usage) }
                files.append(option)
            }
        }
        guard !files.isEmpty else { throw UsageError(message: "\(command) needs a file", usage: usage) }
        return (files, repeats)
    }

    /// The value following `option` as a comma-separated list of positive integers.
    mutating func positiveIntList(for option: String) throws -> [Int] {
        let text = try value(for: option)
        let numbers = text.split(separator: ",").map { Int($0) }
        guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw UsageError(message: "\(option) expects positive integers separated by commas, got '\(text)'", usage: usage)
        }
        return numbers.compactMap { $0 }
    }
}
