/// A syntax error: the bytes are not (strict) JSON. Fatal for the file.
struct JSONSyntaxError: Error {
    /// Byte offset where the problem was found.
    var offset: Int
    /// What was wrong and what was expected.
    var message: String
}

/// The raw bytes of an object key, still inside the input buffer.
struct JSONKey {
    /// First byte after the opening quote.
    var start: UnsafePointer<UInt8>
    /// Number of raw bytes before the closing quote.
    var count: Int
    /// Whether the raw bytes contain a backslash escape.
    var hasEscapes: Bool

    /// Whether the key is exactly `name` (ASCII names only; escaped keys never match).
    @inline(__always)
    func equals(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount && !hasEscapes
            && memcmpBytes(start, name.utf8Start, count)
    }
}

@inline(__always)
func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    while index < count {
        if a[index] != b[index] { return false }
        index += 1
    }
    return true
}

/// A string value read by the scanner, with facts the validator needs.
struct ScannedString {
    /// The decoded text.
    var text: String
    /// Number of Unicode scalars.
    var scalarCount: Int
    /// Whether it holds a control character other than newline and tab.
    var hasControl: Bool
    /// Whether it holds a newline or a tab.
    var hasNewlineOrTab: Bool
}

/// A number token.
enum JSONNumber {
    /// An integer that fits in 63 bits.
    case integer(Int64)
    /// A valid JSON number that is not an integer literal (fraction or exponent) or too large.
    case other(String)
}

/// The kind of the next value, from its first byte.
enum JSONKind {
    case object, array, string, number, literal, invalid
}

/// A strict pull scanner over UTF-8 bytes (RFC 8259): no trailing commas, no comments, no
/// lone surrogates, no invalid UTF-8, nesting limited. It never recurses deeper than the limit.
struct JSONScanner {
    /// The deepest nesting a document may have.
    static let maxDepth = 64

    let base: UnsafePointer<UInt8>
    let count: Int
    /// Current byte offset.
    var offset: Int = 0
    /// Current container depth.
    var depth: Int = 0
    /// Set once the scanner has passed something the canonical writer never writes: whitespace
    /// between tokens, an escape in a key, or an escape in a string other than the writer's own
    /// (`isCanonicalEscape`). The decoder also sets it for keys out of their canonical order;
    /// whoever reads it resets it (`DeferredItems`, per item).
    var departsFromCanonical = false
    /// Scratch space for strings with escapes.
    private var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    // MARK: Errors

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    func unexpected(_ expected: String) -> JSONSyntaxError {
        if offset >= count { return error("unexpected end of data, expected \(expected)") }
        return error("unexpected \(describeByte(base[offset])), expected \(expected)")
    }

    func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: Whitespace and punctuation

    @inline(__always)
    mutating func skipWhitespace() {
        while offset < count {
            let byte = base[offset]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                offset += 1
                departsFromCanonical = true
            } else {
                return
            }
        }
    }

    /// The kind of the next value (after whitespace), without consuming it.
    @inline(__always)
    mutating func peekKind() -> JSONKind {
        skipWhitespace()
        guard offset < count else { return .invalid }
        switch base[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: return .invalid
        }
    }

    /// Consumes `null` if it is next.
    @inline(__always)
    mutating func consumeNull() -> Bool {
        skipWhitespace()
        if offset + 4 <= count && base[offset] == UInt8(ascii: "n") && base[offset + 1] == UInt8(ascii: "u")
            && base[offset + 2] == UInt8(ascii: "l") && base[offset + 3] == UInt8(ascii: "l")
        {
            offset += 4
            return true
        }
        return false
    }

    /// Checks that only whitespace is left.
    mutating func expectEnd() throws {
        skipWhitespace()
        if offset < count { throw error("unexpected \(describeByte(base[offset])) after the JSON value, expected the end of the file") }
    }

    // MARK: Containers

    @inline(__always)
    private mutating func enter() throws {
        depth += 1
        if depth > JSONScanner.maxDepth {
            throw error("nesting deeper than \(JSONScanner.maxDepth) levels, expected at most \(JSONScanner.maxDepth)")
        }
    }

    /// Consumes `{`; the caller has checked `peekKind() == .object`.
    @inline(__always)
    mutating func beginObject() throws {
        offset += 1
        try enter()
    }

    /// Consumes `[`; the caller has checked `peekKind() == .array`.
    @inline(__always)
    mutating func beginArray() throws {
        offset += 1
        try enter()
    }

    /// Reads the next key and its colon, or consumes `}` and returns nil.
    ///
    /// Must be called right after `beginObject` or after the previous member's value.
    mutating func nextKey(first: inout Bool) throws -> JSONKey? {
        skipWhitespace()
        guard offset < count else { throw unexpected(first ? "a key or '}'" : "',' or '}'") }
        var byte = base[offset]
        if byte == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return nil
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw unexpected("',' or '}' after an object member") }
            offset += 1
            skipWhitespace()
            guard offset < count else { throw unexpected("a key") }
            byte = base[offset]
        }
        guard byte == UInt8(ascii: "\"") else { throw unexpected(first ? "a key or '}'" : "a key") }
        first = false
        let key = try scanKey()
        skipWhitespace()
        guard offset < count, base[offset] == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
        offset += 1
        return key
    }

    /// Moves to the next array element, or consumes `]` and returns false.
    mutating func nextElement(first: inout Bool) throws -> Bool {
        skipWhitespace()
        guard offset < count else { throw unexpected(first ? "a value or ']'" : "',' or ']'") }
        let byte = base[offset]
        if byte == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw unexpected("',' or ']' after an array element") }
            offset += 1
            skipWhitespace()
            if offset < count && base[offset] == UInt8(ascii: "]") { throw unexpected("a value after ','") }
        }
        first = false
        return true
    }

    // MARK: Strings

    /// Scans a key string; validates it like any string.
    private mutating func scanKey() throws -> JSONKey {
        offset += 1
        let start = offset
        var hasEscapes = false
        // 8 bytes at a time while none needs a closer look (as in `readString`).
        while offset + 8 <= count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            if JSONScanner.needsAttention(word) { break }
            offset += 8
        }
        while true {
            guard offset < count else { throw error("unterminated string, expected '\"'") }
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                departsFromCanonical = true
                _ = try scanEscape()
                continue
            }
            if byte < 0x20 { throw error("control character in a string, expected it escaped") }
            if byte < 0x80 { offset += 1 } else { _ = try scanMultibyte() }
        }
        let key = JSONKey(start: base + start, count: offset - start, hasEscapes: hasEscapes)
        offset += 1
        return key
    }

    /// The decoded text of a key.
    mutating func keyText(_ key: JSONKey) -> String {
        if !key.hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: key.start, count: key.count), as: UTF8.self)
        }
        let saved = offset
        offset = key.start - base - 1
        let text = (try? readString().text) ?? ""
        offset = saved
        return text
    }

    /// Reads a string value; the caller has checked `peekKind() == .string`.
    mutating func readString() throws -> ScannedString {
        offset += 1
        let start = offset
        var scalars = 0
        var hasControl = false
        var hasNewlineOrTab = false
        // Fast path: plain ASCII with no escapes, 8 bytes at a time while none of them is a
        // quote, a backslash, a control character, DEL or non-ASCII.
        while offset + 8 <= count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            if JSONScanner.needsAttention(word) { break }
            offset += 8
            scalars += 8
        }
        while offset < count {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
                offset += 1
                return ScannedString(text: text, scalarCount: scalars, hasControl: hasControl, hasNewlineOrTab: false)
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
            if byte < 0x20 { throw error("control character in a string, expected it escaped") }
            if byte == 0x7F { hasControl = true }
            scalars += 1
            offset += 1
        }
        // Slow path: escapes or multibyte characters.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: offset - start))
        while true {
            guard offset < count else { throw error("unterminated string, expected '\"'") }
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                let escape = offset
                let scalar = try scanEscape()
                if !JSONScanner.isCanonicalEscape(base + escape, count: offset - escape, of: scalar) { departsFromCanonical = true }
                JSONScanner.appendUTF8(scalar, to: &scratch)
                scalars += 1
                if scalar == 0x0A || scalar == 0x09 {
                    hasNewlineOrTab = true
                } else if TextRule.isControl(scalar) {
                    hasControl = true
                }
                continue
            }
            if byte < 0x20 { throw error("control character in a string, expected it escaped") }
            if byte < 0x80 {
                if byte == 0x7F { hasControl = true }
                scratch.append(byte)
                offset += 1
            } else {
                let begin = offset
                let scalar = try scanMultibyte()
                if scalar >= 0x80 && scalar <= 0x9F { hasControl = true }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + begin, count: offset - begin))
            }
            scalars += 1
        }
        offset += 1
        let text = scratch.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        return ScannedString(text: text, scalarCount: scalars, hasControl: hasControl, hasNewlineOrTab: hasNewlineOrTab)
    }

    /// Whether the escape at `start` (`count` bytes) is the one the canonical writer writes for
    /// `scalar` (`ByteBuffer.shortEscape`, else `\u00xx` in lowercase for a control character);
    /// never `\/` or a `\u` escape of anything else.
    static func isCanonicalEscape(_ start: UnsafePointer<UInt8>, count: Int, of scalar: UInt32) -> Bool {
        // Only quotes, backslashes and control characters are escaped by the writer.
        guard scalar < 0x20 || scalar == 0x22 || scalar == 0x5C else { return false }
        let byte = UInt8(scalar)
        if let letter = ByteBuffer.shortEscape(byte) { return count == 2 && start[1] == letter }
        let hex = ByteBuffer.lowercaseHex.utf8Start
        return count == 6 && start[2] == UInt8(ascii: "0") && start[3] == UInt8(ascii: "0")
            && start[4] == hex[Int(byte >> 4)] && start[5] == hex[Int(byte & 0xF)]
    }

    /// Whether any of the 8 bytes in `word` is `"`, `\`, below 0x20, 0x7F or 0x80 and above.
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (word &- ones &* 0x20) & ~word & highs  // some byte < 0x20 (or >= 0x80, caught below)
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        let delete = hasZeroByte(word ^ (ones &* 0x7F))
        return (control | quote | backslash | delete | (word & highs)) != 0
    }

    /// Reads the raw bytes of a string with no escapes (for UUIDs and other ASCII tokens); nil
    /// when it holds escapes or non-ASCII (the caller then falls back to `readString`).
    mutating func readPlainASCIIString() throws -> UnsafeBufferPointer<UInt8>? {
        let saved = offset
        offset += 1
        let start = offset
        while offset < count {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                let span = UnsafeBufferPointer(start: base + start, count: offset - start)
                offset += 1
                return span
            }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { break }
            offset += 1
        }
        offset = saved
        return nil
    }

    /// Validates one UTF-8 sequence starting at `offset` and returns its scalar.
    private mutating func scanMultibyte() throws -> UInt32 {
        let lead = base[offset]
        var need = 0
        var scalar: UInt32 = 0
        var minimum: UInt32 = 0
        switch lead {
        case 0xC2...0xDF: need = 1; scalar = UInt32(lead & 0x1F); minimum = 0x80
        case 0xE0...0xEF: need = 2; scalar = UInt32(lead & 0x0F); minimum = 0x800
        case 0xF0...0xF4: need = 3; scalar = UInt32(lead & 0x07); minimum = 0x10000
        default: throw error("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true)), expected UTF-8 text")
        }
        guard offset + need < count else { throw error("truncated UTF-8 sequence, expected UTF-8 text") }
        for index in 1...need {
            let byte = base[offset + index]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8 sequence, expected UTF-8 text") }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw error("invalid UTF-8 sequence (overlong, surrogate or out of range), expected UTF-8 text")
        }
        offset += need + 1
        return scalar
    }

    /// Reads one escape at `offset` (the backslash) and moves past it; returns its scalar.
    private mutating func scanEscape() throws -> UInt32 {
        guard offset + 1 < count else { throw error("unterminated escape, expected an escape sequence") }
        let kind = base[offset + 1]
        var scalar: UInt32
        switch kind {
        case UInt8(ascii: "\""): scalar = 0x22
        case UInt8(ascii: "\\"): scalar = 0x5C
        case UInt8(ascii: "/"): scalar = 0x2F
        case UInt8(ascii: "b"): scalar = 0x08
        case UInt8(ascii: "f"): scalar = 0x0C
        case UInt8(ascii: "n"): scalar = 0x0A
        case UInt8(ascii: "r"): scalar = 0x0D
        case UInt8(ascii: "t"): scalar = 0x09
        case UInt8(ascii: "u"):
            offset += 2
            let high = try readHex4()
            if (0xDC00...0xDFFF).contains(high) { throw error("lone low surrogate in \\u escape, expected a valid Unicode scalar") }
            if (0xD800...0xDBFF).contains(high) {
                guard offset + 1 < count, base[offset] == UInt8(ascii: "\\"), base[offset + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate in \\u escape, expected a low surrogate to follow")
                }
                offset += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair, expected a low surrogate") }
                scalar = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            } else {
                scalar = high
            }
            return scalar
        default:
            offset += 1
            throw error("invalid escape \\\(describeByte(kind)), expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
        offset += 2
        return scalar
    }

    private mutating func readHex4() throws -> UInt32 {
        guard offset + 4 <= count else { throw error("truncated \\u escape, expected 4 hex digits") }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = base[offset + index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error("invalid \\u escape, expected 4 hex digits")
            }
            value = value << 4 | digit
        }
        offset += 4
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80: out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers and literals

    /// Reads a number with strict JSON grammar; the caller has checked `peekKind() == .number`.
    mutating func readNumber() throws -> JSONNumber {
        let start = offset
        var negative = false
        if base[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        guard offset < count, isDigit(base[offset]) else { throw unexpected("a digit") }
        var value: Int64 = 0
        var overflow = false
        if base[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < count && isDigit(base[offset]) { throw error("leading zero in a number, expected JSON number syntax") }
        } else {
            // Up to 18 digits cannot overflow: no checks needed for them.
            let fastEnd = min(count, offset + 18)
            while offset < fastEnd && isDigit(base[offset]) {
                value = value &* 10 &+ Int64(base[offset] &- 48)
                offset += 1
            }
            while offset < count && isDigit(base[offset]) {
                let digit = Int64(base[offset] - 48)
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true } else { value = sum }
                offset += 1
            }
        }
        var isInteger = true
        if offset < count && base[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < count, isDigit(base[offset]) else { throw unexpected("a digit after '.'") }
            while offset < count && isDigit(base[offset]) { offset += 1 }
        }
        if offset < count && (base[offset] == UInt8(ascii: "e") || base[offset] == UInt8(ascii: "E")) {
            isInteger = false
            offset += 1
            if offset < count && (base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-")) { offset += 1 }
            guard offset < count, isDigit(base[offset]) else { throw unexpected("a digit in the exponent") }
            while offset < count && isDigit(base[offset]) { offset += 1 }
        }
        if isInteger && !overflow { return .integer(negative ? -value : value) }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
        return .other(text)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// Reads `true`, `false` or `null`; returns its text.
    mutating func readLiteral() throws -> String {
        for word in ["true", "false", "null"] {
            let bytes = Array(word.utf8)
            if offset + bytes.count <= count && memcmpBytes(base + offset, bytes, bytes.count) {
                offset += bytes.count
                return word
            }
        }
        throw unexpected("a JSON value")
    }

    // MARK: Skipping

    /// Skips one value of any kind, checking its syntax; recursion is bounded by `maxDepth`.
    mutating func skipValue() throws {
        switch peekKind() {
        case .object:
            try beginObject()
            var first = true
            while try nextKey(first: &first) != nil { try skipValue() }
        case .array:
            try beginArray()
            var first = true
            while try nextElement(first: &first) { try skipValue() }
        case .string: _ = try scanKey()
        case .number: _ = try readNumber()
        case .literal: _ = try readLiteral()
        case .invalid: throw unexpected("a JSON value")
        }
    }

    /// Moves past one value assuming it is well formed, and checks nothing: only strings (with
    /// their escapes) and bracket nesting are followed, several bytes at a time inside strings.
    /// For bytes that are decoded strictly later or compared with bytes that were (see
    /// `DocumentDecoder.defersItems`, `SchemaVersionProbe`); false when the data ends before the
    /// value does.
    mutating func skipValueUnchecked() -> Bool {
        skipWhitespace()
        var level = 0
        while offset < count {
            switch base[offset] {
            case UInt8(ascii: "\""):
                offset += 1
                while true {
                    while offset + 8 <= count {
                        let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                        if JSONScanner.hasQuoteOrBackslash(word) { break }
                        offset += 8
                    }
                    guard offset < count else {
                        offset = count
                        return false
                    }
                    let byte = base[offset]
                    if byte == UInt8(ascii: "\"") { break }
                    offset += byte == UInt8(ascii: "\\") ? 2 : 1
                }
                offset += 1
                if level == 0 { return true }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
                offset += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard level > 0 else { return false }
                level -= 1
                offset += 1
                if level == 0 { return true }
            default:
                if level == 0 {
                    // A number or literal on its own: up to the next delimiter.
                    while offset < count {
                        let byte = base[offset]
                        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                            || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
                        {
                            break
                        }
                        offset += 1
                    }
                    return true
                }
                offset += 1
            }
        }
        return false
    }

    /// Whether any of the 8 bytes in `word` is `"` or `\`.
    @inline(__always)
    static func hasQuoteOrBackslash(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
    }

    /// A short description of the next value's kind, for messages.
    mutating func describeNext() -> String {
        switch peekKind() {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .literal:
            if base[offset] == UInt8(ascii: "n") { return "null" }
            return "a boolean"
        case .invalid: return "invalid JSON"
        }
    }
}
