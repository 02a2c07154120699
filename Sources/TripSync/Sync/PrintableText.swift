/// Text from outside (file names above all) made safe to print on a terminal.
public enum PrintableText {
    /// `bytes` as UTF-8 where they are valid, with every control character (C0, DEL, C1) and
    /// every invalid byte written as `\xNN` and a backslash as `\\`, so the result can neither
    /// move a terminal's cursor nor pass for another name.
    public static func escape(bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            if length > 1, index + length <= bytes.count, let scalar = String(validating: bytes[index..<index + length], as: UTF8.self) {
                if let value = scalar.unicodeScalars.first?.value, (0x80...0x9F).contains(value) {
                    out += "\\u{\(String(value, radix: 16))}"
                } else {
                    out += scalar
                }
                index += length
                continue
            }
            if byte == 0x5C {
                out += "\\\\"
            } else if byte >= 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
            index += 1
        }
        return out
    }

    /// `text` with its control characters and backslashes escaped (see `escape(bytes:)`).
    public static func escape(_ text: String) -> String { escape(bytes: Array(text.utf8)) }
}

extension PrintableText {
    /// `text` with only its control characters (C0 but the newline, DEL, C1) escaped as
    /// `\xNN` / `\u{NN}`: for messages that hold names from outside but are not names.
    public static func escapeControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: (scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u{\(hex)}").unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
    }
}
