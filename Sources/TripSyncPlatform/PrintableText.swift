/// Text from outside (file names, folder entries, values read from a file) made safe to print
/// on a terminal. `line(_:)` is the one escaping function every human-readable line passes
/// through on its way out (the CLI's `Console` calls it); `escape(bytes:)` also makes a name of
/// arbitrary bytes unambiguous.
package enum PrintableText {
    /// `bytes` as UTF-8 where they are valid, with every scalar `mustEscape` names written as
    /// `\xNN` / `\u{NNNN}`, every invalid byte as `\xNN` and a backslash as `\\`, so the result
    /// can neither move a terminal's cursor nor pass for another name.
    package static func escape(bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            if length > 1, index + length <= bytes.count, let text = String(validating: bytes[index..<index + length], as: UTF8.self),
                let scalar = text.unicodeScalars.first
            {
                let previous = out.last
                let next = nextScalar(bytes, from: index + length)
                if mustEscape(scalar, previous: previous, next: next) { out.append(contentsOf: escaped(scalar).unicodeScalars) } else { out.append(scalar) }
                index += length
                continue
            }
            if byte == 0x5C {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if byte >= 0x20 && byte < 0x7F {
                out.append(Unicode.Scalar(byte))
            } else {
                out.append(contentsOf: ("\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).unicodeScalars)
            }
            index += 1
        }
        return String(out)
    }

    /// `text` with its control characters and backslashes escaped (see `escape(bytes:)`).
    package static func escape(_ text: String) -> String { escape(bytes: Array(text.utf8)) }

    /// The scalar that starts at `offset` of `bytes`, if valid UTF-8 starts there.
    private static func nextScalar(_ bytes: [UInt8], from offset: Int) -> Unicode.Scalar? {
        guard offset < bytes.count else { return nil }
        let byte = bytes[offset]
        let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
        guard length > 0, offset + length <= bytes.count else { return nil }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)?.unicodeScalars.first
    }
}

extension PrintableText {
    /// `text` as one line a terminal shows as it is: every scalar `mustEscape` names (control
    /// characters, newlines included, bidi overrides and the other invisible format
    /// characters, line and paragraph separators) written as `\xNN` (below U+0080) or
    /// `\u{NNNN}`; everything else, backslashes included, as it is. Escaping twice changes
    /// nothing more, so a name already escaped by `escape(bytes:)` passes through unchanged.
    package static func line(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var needed = false
        for (index, scalar) in scalars.enumerated()
        where mustEscape(scalar, previous: index > 0 ? scalars[index - 1] : nil, next: index + 1 < scalars.count ? scalars[index + 1] : nil) {
            needed = true
            break
        }
        guard needed else { return text }
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if mustEscape(scalar, previous: previous, next: next) { out.append(contentsOf: escaped(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// The same as `line(_:)` (its former name): newlines are escaped too.
    package static func escapeControls(_ text: String) -> String { line(text) }

    /// Whether `scalar` must not reach a terminal as it is: C0 (newline and tab included), DEL
    /// and C1 controls, every format character (Unicode category Cf: the bidi embeddings,
    /// overrides, isolates and marks, zero-width spaces and joiners, the soft hyphen, the byte
    /// order mark, tag characters) and the line and paragraph separators. A zero-width joiner
    /// between two emoji (a family, a flag) is the one format character kept: it joins a
    /// picture and hides nothing.
    package static func mustEscape(_ scalar: Unicode.Scalar, previous: Unicode.Scalar? = nil, next: Unicode.Scalar? = nil) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        switch scalar.properties.generalCategory {
        case .format:
            if value == 0x200D, let previous, let next {
                return !(isPicture(previous) && isPicture(next))
            }
            return true
        case .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// An emoji picture or one of its modifiers (a variation selector, a skin tone).
    private static func isPicture(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isEmoji && scalar.value > 0xFF || scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// `\xNN` below U+0080, `\u{NNNN}` (uppercase hex, as Swift writes it) above.
    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: scalar.value >= 0x80)
        if scalar.value < 0x80 { return "\\x" + (hex.count < 2 ? "0" : "") + hex }
        return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
    }
}
