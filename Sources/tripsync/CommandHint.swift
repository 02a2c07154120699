/// The global options a person gave, carried into every hint that names a command: a line
/// saying "run tripsync sync FOLDER" to someone who typed `--home /tmp/alex` says
/// "run tripsync --home /tmp/alex sync FOLDER", so the command it names works when pasted.
///
/// The one place this happens is `Console.out`/`Console.err` (every human line passes there), so
/// the hints the library words (which cannot know the options) get them too. The searches are
/// byte by byte (`find`), not Foundation's `range(of:)`, which bridges each line through
/// NSString (docs/PERFORMANCE.md, "The counter ledger and the start-up work").
enum CommandHint {
    /// `--home DIR` as given (not `$TRIPSYNC_HOME`, which the next command sees as well).
    nonisolated(unsafe) static var home: String?
    /// `--trip T` as given, before or after the command.
    nonisolated(unsafe) static var trip: String?

    /// Notes the options of this run: `global` and a `--trip` among the command's `arguments`
    /// (before a `--`; the last one wins, as the command's parser takes it).
    static func remember(_ global: GlobalOptions, arguments: [String]) {
        home = global.home
        trip = global.trip
        var index = 0
        let options = Array(arguments.prefix { $0 != "--" })
        while index < options.count {
            if options[index] == "--trip", index + 1 < options.count {
                trip = options[index + 1]
                index += 1
            } else if options[index].hasPrefix("--trip=") {
                trip = String(options[index].dropFirst("--trip=".count))
            }
            index += 1
        }
    }

    /// `line` with `--home DIR` (where the hint names no home itself) and `--trip T` (for a
    /// command that takes one and where the hint names no trip itself) after each `tripsync` that starts a command, outside double
    /// quotes (a quoted title or name is shown as it is).
    static func complete(_ line: String) -> String {
        guard home != nil || trip != nil, find("tripsync ", in: line[...]) != nil else { return line }
        var result = ""
        var rest = Substring(line)
        var quoted = false
        while let range = find("tripsync ", in: rest) {
            let before = rest[..<range.lowerBound]
            quoted = before.reduce(quoted) { $1 == "\"" ? !$0 : $0 }
            result += before
            result += "tripsync "
            rest = rest[range.upperBound...]
            // The command's words up to the next hint (which gets its own options).
            let word = String(rest.prefix { $0.isLetter })
            let precededByWord = before.last.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false
            guard !quoted, !precededByWord, word != "help", !addressesTheOwner(result), let command = command(named: word) else { continue }
            let next = find("tripsync ", in: rest).map { rest[..<$0.lowerBound] } ?? rest
            var options: [String] = []
            if let home, find("--home", in: next) == nil { options += ["--home", shellWord(home)] }
            if let trip, command.spec.option("--trip") != nil, find("--trip", in: next) == nil { options += ["--trip", shellWord(trip)] }
            if !options.isEmpty { result += options.joined(separator: " ") + " " }
        }
        return result + rest
    }

    /// Whether the words just before a command (since the start of its clause or the previous
    /// command) address the trip's owner ("the owner can admit it: tripsync members approve …",
    /// "ask the owner for an invite (tripsync invite)"): the owner may be at another laptop, where
    /// this laptop's `--home` would name the wrong home, so such a command is left bare.
    static func addressesTheOwner(_ textBefore: String) -> Bool {
        var clause = Substring(textBefore.dropLast("tripsync ".count))
        while let previous = find("tripsync ", in: clause) { clause = clause[previous.upperBound...] }
        if let boundary = clause.lastIndex(where: { $0 == ";" || $0 == "." }) { clause = clause[clause.index(after: boundary)...] }
        return find("the owner", in: clause.lowercased()[...]) != nil
    }

    /// The first range of `text` spelling the ASCII `word`, compared byte by byte on the UTF-8
    /// (an ASCII byte is never part of a longer character's encoding, so a match starts and ends
    /// on character boundaries unless a combining mark follows it, which these words never meet
    /// in a hint). Not Foundation's `range(of:)` (a bridge through NSString) nor the standard
    /// library's generic `firstRange(of:)`, which every command paid for at start.
    static func find(_ word: StaticString, in text: Substring) -> Range<Substring.Index>? {
        let pattern = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard let first = pattern.first else { return nil }
        let bytes = text.utf8
        var start = bytes.startIndex
        while let at = bytes[start...].firstIndex(of: first) {
            var probe = at
            var matched = true
            for byte in pattern {
                guard probe < bytes.endIndex, bytes[probe] == byte else {
                    matched = false
                    break
                }
                probe = bytes.index(after: probe)
            }
            if matched { return at..<probe }
            start = bytes.index(after: at)
        }
        return nil
    }

    /// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 0x80 && (scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))))
                || "/._-+:,@%=~".unicodeScalars.contains(scalar)
        }
        return safe ? text : "'" + text.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
    }
}
