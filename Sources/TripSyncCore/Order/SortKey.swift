/// Fractional order keys over the 62 digits `0-9A-Za-z` (in ASCII order, so keys compare as
/// plain strings). A key never ends in `0`, so another key always exists between two keys.
///
/// A key with a neighbour on one side only (an item added last or first) grows with the
/// logarithm of how many came before it: keys read as base-62 fractions, and the next key after
/// `a` adds one unit at a depth set by `a`'s run of leading `z`s (`after`), the key before `b`
/// takes one away at a depth set by its leading `0`s (`before`). A trip can have an item added
/// last millions of times and every key stays under a dozen digits, far inside the 128 allowed.
package enum SortKey {
    /// The digits, in order.
    static let digits: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    static func value(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte) - 48
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte) - 55
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte) - 61
        default: return 0
        }
    }

    /// A key strictly between `before` and `after` (nil = open end). Both must be valid keys with
    /// `before < after`; returns nil otherwise.
    package static func between(_ before: String?, _ after: String?) -> String? {
        if let before, !SortKeyRules.isValid(before) { return nil }
        if let after, !SortKeyRules.isValid(after) { return nil }
        if let before, let after, !(before.utf8.lexicographicallyPrecedes(after.utf8)) { return nil }
        let result: [UInt8]?
        switch (before, after) {
        case (let before?, nil): result = self.after(Array(before.utf8))
        case (nil, let after?): result = self.before(Array(after.utf8))
        case (let before?, let after?): result = midpoint(Array(before.utf8)[...], Array(after.utf8)[...], openEnd: true)
        case (nil, nil): result = [digits[1]]  // the first key: low, so the items added after it have room
        }
        guard let result else { return nil }
        let key = String(decoding: result, as: UTF8.self)
        return SortKeyRules.isValid(key) ? key : nil
    }

    /// The key one unit above valid key `a`, with nothing above it to stay below.
    ///
    /// `a` reads as `z`×k, then a counter of k + 1 digits (missing digits count as `0`), then
    /// anything: the key is `z`×k and the counter plus one, without trailing `0`s. The counter's
    /// first digit is below `z` (it ends the run), so adding one never carries into the run.
    /// When a counter is used up its first digit has become `z`, and the keys after it count
    /// with one digit more: about 62^(k+1) keys before the next run (fewer when 128 digits cut
    /// the counter short). Nil when `a` is `z`×128.
    static func after(_ a: [UInt8]) -> [UInt8]? {
        let top = digits[61]
        var run = 0
        while run < a.count && a[run] == top { run += 1 }
        let width = min(run + 1, SortKeyRules.maxLength - run)
        guard width > 0 else { return nil }
        var counter = (0..<width).map { run + $0 < a.count ? value(a[run + $0]) : 0 }
        var index = width - 1
        while index >= 0 {
            if counter[index] < 61 {
                counter[index] += 1
                break
            }
            counter[index] = 0
            index -= 1
        }
        var key = Array(repeating: top, count: run) + counter.map { digits[$0] }
        while key.last == digits[0] { key.removeLast() }
        return key
    }

    /// The key one unit below valid key `b`, with nothing below it to stay above: `after`
    /// mirrored, reading `b` as `0`×k (never all of it: a key does not end in `0`) and a
    /// counter of k + 1 digits whose first is not `0`. When one unit less would leave nothing
    /// (the counter is the one digit `1`: `b` has no leading `0` and starts with `1`), it goes
    /// on with one `0` more: `0zz`.
    static func before(_ b: [UInt8]) -> [UInt8]? {
        let bottom = digits[0]
        var run = 0
        while run < b.count && b[run] == bottom { run += 1 }
        let width = min(run + 1, SortKeyRules.maxLength - run)
        guard width > 0, run < b.count else { return nil }
        var counter = (0..<width).map { run + $0 < b.count ? value(b[run + $0]) : 0 }
        if width == 1 && counter[0] == 1 {
            guard run + 3 <= SortKeyRules.maxLength else { return nil }
            return Array(repeating: bottom, count: run + 1) + [digits[61], digits[61]]
        }
        var index = width - 1
        while index >= 0 {
            if counter[index] > 0 {
                counter[index] -= 1
                break
            }
            counter[index] = 61
            index -= 1
        }
        var key = Array(repeating: bottom, count: run) + counter.map { digits[$0] }
        while key.last == bottom { key.removeLast() }
        return key.isEmpty ? nil : key
    }

    /// The fraction half way between `a` (empty = 0) and `b` (nil = 1), digit by digit.
    private static func midpoint(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>?, openEnd: Bool = false) -> [UInt8] {
        if let b {
            // Keep the common prefix (missing digits of `a` count as 0).
            var n = 0
            while n < b.count {
                let digitA = n < a.count ? a[a.startIndex + n] : UInt8(ascii: "0")
                if digitA != b[b.startIndex + n] { break }
                n += 1
            }
            if n > 0 {
                let prefix = Array(b.prefix(n))
                let restA = a.count > n ? a.dropFirst(n) : []
                return prefix + midpoint(restA, b.dropFirst(n), openEnd: openEnd)
            }
        }
        let digitA = a.first.map(value) ?? 0
        let digitB = b?.first.map(value) ?? 62
        // Below `b` with the lower bound used up by the common prefix: one step down, not half.
        if openEnd && a.isEmpty, let b {
            if digitB >= 2 { return [digits[digitB - 1]] }
            if digitB == 1 { return b.count > 1 ? [digits[1]] : [digits[0]] + midpoint([], nil) }
        }
        if digitB - digitA > 1 {
            return [digits[(digitA + digitB + 1) / 2]]
        }
        // Consecutive digits: a shorter key right below `b`, or go one digit deeper after `a`.
        if let b, b.count > 1, let first = b.first { return [first] }
        return [digits[digitA]] + midpoint(a.dropFirst(), nil)
    }
}
