#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync

/// A passphrase from `--passphrase-file`, or asked on the terminal with echo off.
enum Passphrase {
    /// The passphrase for `command`: the first line of `file` when given, else asked on
    /// `/dev/tty` (twice when `confirm`), never echoed.
    static func get(file: String?, confirm: Bool, command: String) throws -> [UInt8] {
        if let file {
            let bytes: [UInt8]
            do {
                bytes = try FileIO.readFile(file, maxBytes: 4096)
            } catch {
                throw CLIError.refused("\(file): cannot read the passphrase file (\(error))")
            }
            let line = Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D })
            guard !line.isEmpty else { throw CLIError.refused("\(file): the passphrase file's first line is empty") }
            return line
        }
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard tty >= 0 else {
            throw CLIError.usage("no terminal to ask for a passphrase on: give --passphrase-file FILE", command: command)
        }
        defer { close(tty) }
        let first = try ask(tty, "Passphrase: ")
        guard first.count >= 8 || !confirm else { throw CLIError.refused("a passphrase of at least 8 characters, please; nothing was written") }
        if confirm {
            let again = try ask(tty, "Passphrase again: ")
            guard again == first else { throw CLIError.refused("the two passphrases differ; nothing was written") }
        }
        return first
    }

    /// One line read from `tty` with echo off (restored even when reading fails). Echo goes off
    /// before the prompt is shown: what is typed once the prompt is there is neither echoed nor
    /// discarded (turning echo off with TCSAFLUSH drops input typed before it).
    private static func ask(_ tty: Int32, _ prompt: String) throws -> [UInt8] {
        var saved = termios()
        let isTerminal = tcgetattr(tty, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(tty, TCSAFLUSH, &quiet)
        }
        defer {
            if isTerminal { _ = tcsetattr(tty, TCSANOW, &saved) }
            _ = write(tty, "\n", 1)
        }
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(tty, &byte, 1)
            if count <= 0 {
                if line.isEmpty { throw CLIError.refused("no passphrase was typed; nothing was written") }
                break
            }
            if byte == 0x0A || byte == 0x0D { break }
            line.append(byte)
            if line.count > 4096 { throw CLIError.refused("the passphrase is too long") }
        }
        guard !line.isEmpty else { throw CLIError.refused("no passphrase was typed; nothing was written") }
        return line
    }
}
