/// RFC 5545 text rules: escaping TEXT values (section 3.3.11) and folding content lines
/// (section 3.1).
package enum ICalendarText {
    /// The longest content line, in octets, not counting the line break (RFC 5545 section 3.1).
    package static let maxLineOctets = 75

    /// Escapes a TEXT value: `\` → `\\`, `;` → `\;`, `,` → `\,`, a line break (`\n`, `\r\n` or
    /// a lone `\r`) → `\n`. Tabs are kept; other control characters, which TEXT cannot hold and
    /// a valid trip document never contains, are dropped.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r": result += "\\n"
            case "\n": if !previousWasCR { result += "\\n" }
            case "\t": result.unicodeScalars.append(scalar)
            case "\u{00}"..."\u{1F}", "\u{7F}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Folds one content line (given without its line break) into physical lines of at most
    /// 75 octets joined by CRLF plus one space; a continuation line's leading space counts
    /// toward its 75. Lines break between characters (grapheme clusters), so a UTF-8 sequence is
    /// never split and neither is an emoji or a letter with its accents; only a cluster longer
    /// than a whole line is broken, between its Unicode scalars.
    package static func fold(_ line: String) -> String {
        guard line.utf8.count > maxLineOctets else { return line }
        var output = ""
        output.reserveCapacity(line.utf8.count + line.utf8.count / 36 + 3)
        var used = 0  // octets on the current physical line
        for character in line {
            let size = character.utf8.count
            if used + size > maxLineOctets, size < maxLineOctets {
                output += "\r\n "
                used = 1
            }
            if used + size <= maxLineOctets {
                output.append(character)
                used += size
                continue
            }
            for scalar in character.unicodeScalars {
                let width = UTF8.width(scalar)
                if used + width > maxLineOctets {
                    output += "\r\n "
                    used = 1
                }
                output.unicodeScalars.append(scalar)
                used += width
            }
        }
        return output
    }

    /// Undoes folding: removes every CRLF that is followed by a space or a tab, together with
    /// that one whitespace character.
    package static func unfold(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 2 < bytes.count, bytes[index + 1] == 0x0A,
                bytes[index + 2] == 0x20 || bytes[index + 2] == 0x09
            {
                index += 3
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
