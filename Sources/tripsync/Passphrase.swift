#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync
import TripSyncPlatform
import TripSyncHome

/// A passphrase from `--passphrase-file`, or asked on the terminal with echo off.
enum Passphrase {
    /// The passphrase for `command`: the first line of `file` when given, else asked on
    /// `/dev/tty` (twice when `confirm`), never echoed. A new passphrase (`confirm`) must pass
    /// `OwnerKeyExport.passphraseProblem`, the one rule, whichever way it came: a file that
    /// breaks it is refused, a terminal says why and asks again (`maxTries` in all). The caller
    /// wipes the result (`SecretBytes.wipe`); every other copy is wiped here.
    static func get(file: String?, confirm: Bool, command: String) throws -> [UInt8] {
        if let file {
            var bytes = try Failure.during(.reading(file, what: "the passphrase file")) { try FileIO.readFile(file, maxBytes: 4096) }
            defer { SecretBytes.wipe(&bytes) }
            var line = Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D })
            guard !line.isEmpty else { throw CLIError.refused("\(file): the passphrase file's first line is empty") }
            if confirm, let problem = OwnerKeyExport.passphraseProblem(line) {
                SecretBytes.wipe(&line)
                throw CLIError.refused("\(file): \(problem); nothing was written")
            }
            return line
        }
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard tty >= 0 else {
            throw CLIError.usage("no terminal to ask for a passphrase on: give --passphrase-file FILE", command: command)
        }
        defer { close(tty) }
        var first = try ask(tty, "Passphrase: ")
        // A new passphrase that breaks the rule is asked again (3 tries in all), saying why.
        var tries = 1
        while confirm, let problem = OwnerKeyExport.passphraseProblem(first) {
            SecretBytes.wipe(&first)
            guard tries < maxTries else { throw CLIError.refused("\(problem) (\(maxTries) tries); nothing was written") }
            tries += 1
            let why = "\(problem); try again (\(tries) of \(maxTries))\n"
            _ = why.withCString { write(tty, $0, strlen($0)) }
            first = try ask(tty, "Passphrase: ")
        }
        if confirm {
            var again = try ask(tty, "Passphrase again: ")
            defer { SecretBytes.wipe(&again) }
            guard again == first else {
                SecretBytes.wipe(&first)
                throw CLIError.refused("the two passphrases differ; nothing was written")
            }
        }
        return first
    }

    /// How many times a terminal asks for a new passphrase that breaks the rule.
    static let maxTries = 3

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
        // Room for the longest line up front: appending never moves (and leaves behind) a copy.
        var line: [UInt8] = []
        line.reserveCapacity(4097)
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            let count = read(tty, &byte, 1)
            if count <= 0 {
                if line.isEmpty { throw CLIError.refused("no passphrase was typed; nothing was written") }
                break
            }
            if byte == 0x0A || byte == 0x0D { break }
            line.append(byte)
            if line.count > 4096 {
                SecretBytes.wipe(&line)
                throw CLIError.refused("the passphrase is too long")
            }
        }
        guard !line.isEmpty else { throw CLIError.refused("no passphrase was typed; nothing was written") }
        return line
    }
}
