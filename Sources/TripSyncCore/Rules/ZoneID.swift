/// Rules for IANA time zone ids.
package enum ZoneID {
    /// Whether `id` has the shape of an IANA zone id (`Area/Location`, letters, digits, `_+-`),
    /// at most 64 characters; fixed offsets such as `+01:00` are refused.
    package static func isWellFormed(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { isWellFormed(utf8: $0) }
    }

    /// What a refused zone id is told, with the id found (its first 70 characters): the one
    /// wording of the reader, the schema 1 reader and the editing API.
    package static func expectation(found id: some StringProtocol) -> String {
        "expected an IANA time zone id such as Europe/Lisbon (never a fixed offset), found \"\(id.prefix(70))\""
    }

    /// `isWellFormed` on the UTF-8 bytes of an id.
    static func isWellFormed(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        var segmentStart = true
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                segmentStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                if index == 0 { return false }
                segmentStart = false
            case UInt8(ascii: "/"):
                if segmentStart { return false }
                segmentStart = true
            default:
                return false
            }
        }
        return !segmentStart
    }
}
