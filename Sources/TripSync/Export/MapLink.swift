/// A place as a link to a map: an OpenStreetMap search for the place's text, on the itinerary
/// page, in `show ITEM` (`mapURL` in `--json`).
///
/// The place is typed by people and may be hostile, so every byte of its UTF-8 outside the
/// unreserved set of RFC 3986 (`A-Z a-z 0-9 - . _ ~`) is percent-encoded: the result has no
/// quote, angle bracket, space, `&`, `#`, `:` or `/` of the place's own, so it cannot leave an
/// HTML attribute, add a query parameter, or become another scheme; it always starts with
/// `searchPrefix`.
package enum MapLink {
    /// What every map link starts with.
    package static let searchPrefix = "https://www.openstreetmap.org/search?query="

    /// The map link of a place; nil for a place that is empty or only spaces.
    package static func url(for place: String) -> String? {
        guard place.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return searchPrefix + percentEncoded(place)
    }

    /// Every UTF-8 byte outside `A-Z a-z 0-9 - . _ ~` as `%XX` (upper-case hex).
    package static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
