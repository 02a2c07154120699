/// A small JSON value for reports (`--json` output), written with sorted keys.
package enum JSONValue: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (written with keys in byte order).
    case object([String: JSONValue])

    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer.
    package init(integerLiteral value: Int) { self = .int(Int64(value)) }
    /// A boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// A string or null.
    package static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// The JSON text, compact, keys sorted by bytes, no trailing newline.
    package var text: String {
        var buffer = ByteBuffer(capacity: 256)
        write(to: &buffer)
        return String(decoding: buffer.toArray(), as: UTF8.self)
    }

    private func write(to out: inout ByteBuffer) {
        switch self {
        case .null: out.append("null")
        case .bool(let value): out.append(value ? "true" : "false")
        case .int(let value):
            if value < 0 { out.append(UInt8(ascii: "-")) }
            out.append(decimal: value.magnitude)
        case .string(let value): out.append(string: value)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(string: key)
                out.append(UInt8(ascii: ":"))
                members[key, default: .null].write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue {
    /// Parses strict JSON (the same rules as trip files: no duplicate keys, depth ≤ 64).
    package static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer -> JSONValue in
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                throw TripFileError(.notJSON, file: "", message: "empty, expected JSON")
            }
            var scanner = JSONScanner(base: base, count: buffer.count)
            do {
                let value = try parseValue(&scanner)
                try scanner.expectEnd()
                return value
            } catch let error as JSONSyntaxError {
                throw TripFileError(.notJSON, file: "", message: "byte \(error.offset): \(error.message)")
            }
        }
    }

    private static func parseValue(_ scanner: inout JSONScanner) throws -> JSONValue {
        switch scanner.peekKind() {
        case .object:
            try scanner.beginObject()
            var members: [String: JSONValue] = [:]
            var first = true
            while let key = try scanner.nextKey(first: &first) {
                let name = scanner.keyText(key)
                let value = try parseValue(&scanner)
                if members.updateValue(value, forKey: name) != nil {
                    throw JSONSyntaxError(offset: scanner.offset, message: "duplicate key \"\(name)\"")
                }
            }
            return .object(members)
        case .array:
            try scanner.beginArray()
            var values: [JSONValue] = []
            var first = true
            while try scanner.nextElement(first: &first) { values.append(try parseValue(&scanner)) }
            return .array(values)
        case .string: return .string(try scanner.readString().text)
        case .number:
            switch try scanner.readNumber() {
            case .integer(let value): return .int(value)
            case .other(let text): throw JSONSyntaxError(offset: scanner.offset, message: "expected an integer, found \(text)")
            }
        case .literal:
            switch try scanner.readLiteral() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return .null
            }
        case .invalid: throw scanner.unexpected("a JSON value")
        }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, when this is one.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is one.
    package var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }
}
