/// Text made safe for HTML: every piece of a trip (titles, places, notes, names, zone ids) is
/// untrusted, so it only ever reaches a page through `escape`, which leaves no character that can
/// open a tag, end an attribute or start an entity, nor any control that reorders the line.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references, safe both as
    /// element content and inside a quoted attribute value. Other characters stay as they are
    /// (the page is UTF-8); a NUL, which HTML would drop or replace, becomes U+FFFD. The bidi
    /// controls (the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, the
    /// marks U+200E, U+200F and U+061C) are shown as their code, `⟨U+202E⟩`, never obeyed: a
    /// right-to-left override in `photo‮gpj.exe` would show it as `photoexe.jpg`.
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
            case _ where isBidiControl(scalar): result += "\u{27E8}U+" + String(scalar.value, radix: 16, uppercase: true) + "\u{27E9}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` changes the order in which the text around it is shown.
    package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    /// ` name="value"` with the value escaped.
    static func attribute(_ name: String, _ value: String) -> String {
        " " + name + "=\"" + escape(value) + "\""
    }
}
