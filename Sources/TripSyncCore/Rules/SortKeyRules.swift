/// Rules for fractional order keys over the 62 digits `0-9A-Za-z`.
package enum SortKeyRules {
    /// The longest key a document may hold.
    package static let maxLength = 128

    /// The rule in words, for messages about a refused key.
    package static let requirement = "1 to 128 characters from 0-9A-Za-z not ending in '0'"

    /// Whether `key` is 1–128 digits of `0-9A-Za-z` and does not end in `0`.
    package static func isValid(_ key: String) -> Bool {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength, bytes.last != UInt8(ascii: "0") else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
        }
    }
}
