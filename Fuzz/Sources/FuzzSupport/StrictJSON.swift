/// An independent, deliberately plain RFC 8259 checker used as an oracle: when TripSync's reader
/// accepts a plain (non-gzip) input, this must accept it too. It checks the grammar, UTF-8
/// (no overlong forms, surrogates or values past U+10FFFF), escapes (no lone surrogates) and
/// duplicate keys (compared after unescaping, scalar by scalar), and, as trip files allow,
/// integers only (no fraction or exponent). It is only run on inputs the reader accepted, which
/// nest at most 64 deep, so recursion is fine.
public struct StrictJSON {
    let bytes: [UInt8]
    var index = 0

    /// Why the input is not strict JSON, or nil when it is.
    public static func problem(in bytes: [UInt8]) -> String? {
        var checker = StrictJSON(bytes: bytes)
        do throws(Problem) {
            checker.whitespace()
            try checker.value(depth: 0)
            checker.whitespace()
            if checker.index != bytes.count { throw Problem("bytes after the value", checker.index) }
            return nil
        } catch {
            return "\(error.message) at byte \(error.offset)"
        }
    }

    struct Problem: Error {
        var message: String
        var offset: Int
        init(_ message: String, _ offset: Int) {
            self.message = message
            self.offset = offset
        }
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func whitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    mutating func value(depth: Int) throws(Problem) {
        guard depth < 200 else { throw Problem("nesting too deep for the oracle", index) }
        guard let byte = current else { throw Problem("expected a value", index) }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw Problem("unexpected byte \(byte)", index)
        }
    }

    mutating func literal(_ word: StaticString) throws(Problem) {
        let start = index
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard current == expected else { throw Problem("bad literal", start) }
            index += 1
        }
    }

    mutating func number() throws(Problem) {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw Problem("bad number", start) }
        index += 1
        if first != UInt8(ascii: "0") { digits() }
        // Valid JSON, but never in a trip file: every number there is an integer.
        if current == UInt8(ascii: ".") { throw Problem("a fraction in a trip file", start) }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") { throw Problem("an exponent in a trip file", start) }
    }

    @discardableResult
    mutating func digits() -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }

    mutating func object(depth: Int) throws(Problem) {
        index += 1
        whitespace()
        var keys: Set<[UInt32]> = []
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            whitespace()
            let keyStart = index
            guard current == UInt8(ascii: "\"") else { throw Problem("expected a key", index) }
            let key = try string()
            guard keys.insert(key).inserted else { throw Problem("duplicate key", keyStart) }
            whitespace()
            guard current == UInt8(ascii: ":") else { throw Problem("expected a colon", index) }
            index += 1
            whitespace()
            try value(depth: depth + 1)
            whitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw Problem("expected , or }", index) }
            index += 1
            return
        }
    }

    mutating func array(depth: Int) throws(Problem) {
        index += 1
        whitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            whitespace()
            try value(depth: depth + 1)
            whitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == UInt8(ascii: "]") else { throw Problem("expected , or ]", index) }
            index += 1
            return
        }
    }

    /// A string, decoded to Unicode scalar values.
    mutating func string() throws(Problem) -> [UInt32] {
        let start = index
        index += 1
        var scalars: [UInt32] = []
        while true {
            guard let byte = current else { throw Problem("unterminated string", start) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return scalars
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw Problem("unterminated escape", index) }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(UInt32(escape))
                case UInt8(ascii: "b"): scalars.append(8)
                case UInt8(ascii: "f"): scalars.append(12)
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "r"): scalars.append(13)
                case UInt8(ascii: "t"): scalars.append(9)
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard current == UInt8(ascii: "\\") else { throw Problem("lone high surrogate", index) }
                        index += 1
                        guard current == UInt8(ascii: "u") else { throw Problem("lone high surrogate", index) }
                        index += 1
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Problem("lone high surrogate", index) }
                        scalars.append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        throw Problem("lone low surrogate", index)
                    } else {
                        scalars.append(unit)
                    }
                default:
                    throw Problem("bad escape", index - 1)
                }
            case 0x00..<0x20:
                throw Problem("raw control character", index)
            case 0x00..<0x80:
                scalars.append(UInt32(byte))
                index += 1
            default:
                scalars.append(try utf8Scalar())
            }
        }
    }

    mutating func hex4() throws(Problem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw Problem("short \\u escape", index) }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Problem("bad \\u escape", index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// One multi-byte UTF-8 sequence (RFC 3629: shortest form, no surrogates, at most U+10FFFF).
    mutating func utf8Scalar() throws(Problem) -> UInt32 {
        let start = index
        let lead = bytes[index]
        let count: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: count = 2; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: count = 3; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: count = 4; scalar = UInt32(lead & 0x07)
        default: throw Problem("invalid UTF-8 lead byte", start)
        }
        guard index + count <= bytes.count else { throw Problem("truncated UTF-8", start) }
        for offset in 1..<count {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { throw Problem("invalid UTF-8 continuation", start) }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = count == 2 ? 0x80 : count == 3 ? 0x800 : 0x10000
        guard scalar >= minimum else { throw Problem("overlong UTF-8", start) }
        guard scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { throw Problem("UTF-8 of a non-scalar", start) }
        index += count
        return scalar
    }
}
