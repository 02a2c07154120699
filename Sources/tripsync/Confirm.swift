#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A yes/no question asked on the terminal (`/dev/tty`, as `Passphrase` reads), echoed as typed.
enum Confirm {
    /// Whether a question can be asked: standard input is a terminal and `/dev/tty` opens.
    static var canAsk: Bool {
        guard Console.stdinIsTerminal else { return false }
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard tty >= 0 else { return false }
        close(tty)
        return true
    }

    /// Shows `prompt` on the terminal and waits for a line (or end of input).
    static func waitForEnter(_ prompt: String) {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return }
        defer { close(tty) }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var byte: UInt8 = 0
        while true {
            let count = read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                _ = write(tty, "\n", 1)
                return
            }
            if byte == 0x0A || byte == 0x0D { return }
        }
    }

    /// Asks `question` (ending in "? ") and returns true only for "y" or "yes" (any case); an
    /// empty line, end of input or no terminal is no.
    static func ask(_ question: String) -> Bool {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { return false }
        defer { close(tty) }
        _ = question.withCString { write(tty, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 64 {
            let count = read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                _ = write(tty, "\n", 1)  // Ctrl-D: end the question's line
                break
            }
            if byte == 0x0A || byte == 0x0D { break }
            line.append(byte)
        }
        let answer = String(decoding: line.filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self).lowercased()
        return answer == "y" || answer == "yes"
    }
}
