/// Fractional order keys over the 62 digits `0-9A-Za-z` (in ASCII order, so keys compare as
/// plain strings). A key never ends in `0`, so another key always exists between two keys.
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
        let result = midpoint(Array((before ?? "").utf8)[...], after.map { Array($0.utf8)[...] }, openEnd: true)
        let key = String(decoding: result, as: UTF8.self)
        return SortKeyRules.isValid(key) ? key : nil
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
        // Open ends step by one digit instead of halving, so appending (or prepending) many
        // items in a row grows keys by one character per 61 items, not per 6.
        if openEnd && b == nil {
            if digitA < 61 { return [digits[digitA + 1]] }
            return [digits[61]] + midpoint(a.dropFirst(), nil, openEnd: true)
        }
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
