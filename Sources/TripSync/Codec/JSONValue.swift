/// A small JSON value for reports (`--json` output), written with sorted keys.
public enum JSONValue: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
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
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .int(Int64(value)) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// A string or null.
    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// The JSON text, compact, keys sorted by bytes, no trailing newline.
    public var text: String {
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
