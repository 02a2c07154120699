/// Text made safe for HTML: every piece of a trip (titles, places, notes, names, zone ids) is
/// untrusted, so it only ever reaches a page through `escape`, which leaves no character that can
/// open a tag, end an attribute or start an entity.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references, safe both as
    /// element content and inside a quoted attribute value. Other characters stay as they are
    /// (the page is UTF-8); a NUL, which HTML would drop or replace, becomes U+FFFD.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\u{0}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
