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
