/// The schema version a document declares, read before anything else is decoded: the reader
/// picks the decoder by it, and refuses a newer file without decoding the rest.
///
/// It walks the top-level object only, moving past every other value without checking it
/// (`JSONScanner.skipValueUnchecked`), so it costs one quick scan up to `schemaVersion` (which
/// canonical files write after `items`). On the way it notes where each live item's bytes are,
/// so a two-step read does not look for their ends again (`DocumentDecoder.itemHints`). Any
/// surprise (not an object, a duplicate or escaped key, a version that is not a plain integer)
/// answers "not known": the strict decoder then reads the file and says what is wrong.
struct SchemaVersionProbe {
    /// The integer after the first `"schemaVersion"` key; nil when not known.
    var version: Int64?
    /// The value ranges of the members of the top-level `items` object, in file order, when it
    /// came before the version and could be walked; empty otherwise.
    var itemValues: [Range<Int>] = []

    /// Probes the document `scanner` holds from its start; `delimitsItems` notes the item ranges.
    init(_ scanner: JSONScanner, delimitsItems: Bool) {
        var s = scanner
        s.offset = 0
        version = Self.walk(&s, delimitsItems: delimitsItems, items: &itemValues)
        if version == nil { itemValues = [] }
    }

    private static func walk(_ s: inout JSONScanner, delimitsItems: Bool, items: inout [Range<Int>]) -> Int64? {
        guard next(&s) == UInt8(ascii: "{") else { return nil }
        s.offset += 1
        var first = true
        while true {
            var byte = next(&s)
            if first && byte == UInt8(ascii: "}") { return nil }
            if !first {
                guard byte == UInt8(ascii: ",") else { return nil }
                s.offset += 1
                byte = next(&s)
            }
            first = false
            guard byte == UInt8(ascii: "\""), let key = plainKey(&s), next(&s) == UInt8(ascii: ":") else { return nil }
            s.offset += 1
            _ = next(&s)
            if key.equals("schemaVersion") { return integer(&s) }
            if delimitsItems && key.equals("items") && items.isEmpty {
                guard delimit(&s, into: &items) else { return nil }
            } else if !s.skipValueUnchecked() {
                return nil
            }
        }
    }

    /// The next byte after whitespace (0 at the end).
    @inline(__always)
    private static func next(_ s: inout JSONScanner) -> UInt8 {
        let departs = s.departsFromCanonical
        s.skipWhitespace()
        s.departsFromCanonical = departs
        return s.offset < s.count ? s.base[s.offset] : 0
    }

    /// A key without escapes at the opening quote, consumed; nil for anything else.
    private static func plainKey(_ s: inout JSONScanner) -> JSONKey? {
        let start = s.offset + 1
        var end = start
        while end < s.count && s.base[end] != UInt8(ascii: "\"") {
            if s.base[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < s.count else { return nil }
        s.offset = end + 1
        return JSONKey(start: s.base + start, count: end - start, hasEscapes: false)
    }

    /// `-?[0-9]{1,18}` followed by a delimiter.
    private static func integer(_ s: inout JSONScanner) -> Int64? {
        var index = s.offset
        let negative = index < s.count && s.base[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < s.count, s.base[index] >= UInt8(ascii: "0"), s.base[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int64(s.base[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        guard digits > 0, !(digits > 1 && s.base[index - digits] == UInt8(ascii: "0")), index < s.count else { return nil }
        switch s.base[index] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: return negative ? -value : value
        default: return nil
        }
    }

    /// The items object's member values, by their ends (the canonical shape first).
    private static func delimit(_ s: inout JSONScanner, into items: inout [Range<Int>]) -> Bool {
        guard s.offset < s.count, s.base[s.offset] == UInt8(ascii: "{") else { return s.skipValueUnchecked() }
        s.offset += 1
        items.reserveCapacity((s.count - s.offset) / 640)
        if next(&s) == UInt8(ascii: "}") {
            s.offset += 1
            return true
        }
        while true {
            // The key is checked by the strict pass; here only its end is looked for.
            guard next(&s) == UInt8(ascii: "\""), s.skipValueUnchecked(), next(&s) == UInt8(ascii: ":") else { return false }
            s.offset += 1
            _ = next(&s)
            let start = s.offset
            guard CanonicalItem.skip(&s) || s.skipValueUnchecked() else { return false }
            items.append(start..<s.offset)
            switch next(&s) {
            case UInt8(ascii: ","): s.offset += 1
            case UInt8(ascii: "}"):
                s.offset += 1
                return true
            default: return false
            }
        }
    }
}
