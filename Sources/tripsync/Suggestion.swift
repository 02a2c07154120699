/// "Did you mean" for a mistyped name: the known names closest to it by edit distance.
enum Suggestion {
    /// The names of `known` closest to `typed` (case-insensitive Damerau–Levenshtein distance,
    /// a swap of two neighbours counting one), when close enough to be a typo: at most 2 edits,
    /// and at most half the typed name's length; a name that `typed` (3 letters or more) is the
    /// start of counts as one edit. An option's leading dashes must match (or be left out).
    static func closest(to typed: String, in known: [String]) -> [String] {
        // Leading dashes (of an option) are compared apart from the name.
        let dashes = typed.prefix { $0 == "-" }
        let word = Array(typed.dropFirst(dashes.count).lowercased())
        guard !word.isEmpty else { return [] }
        var best: [String] = []
        var bestDistance = Int.max
        for name in known {
            guard name.prefix(while: { $0 == "-" }).count == dashes.count || dashes.isEmpty else { continue }
            let candidate = Array(name.drop(while: { $0 == "-" }).lowercased())
            var distance = editDistance(word, candidate)
            if word.count >= 3 && candidate.starts(with: word) { distance = min(distance, 1) }
            guard distance <= 2, distance * 2 <= word.count else { continue }
            if distance < bestDistance {
                best = [name]
                bestDistance = distance
            } else if distance == bestDistance {
                best.append(name)
            }
        }
        return best
    }

    /// The hint line for `typed`, or nil when nothing is close: "hint: did you mean 'sync'?".
    static func hint(for typed: String, in known: [String], prefix: String = "") -> String? {
        let names = closest(to: typed, in: known)
        guard !names.isEmpty else { return nil }
        return "hint: did you mean " + names.map { "'\(prefix)\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Optimal string alignment distance between `a` and `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { value = min(value, table[i - 2][j - 2] + 1) }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
