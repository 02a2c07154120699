#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync

/// A file a person named for a command to write (`-o FILE`, `--ics FILE`): `-` is standard
/// output, and an existing file is written over only after a yes on the terminal or `--force`.
enum OutputFile {
    /// Whether `path` means standard output.
    static func isStdout(_ path: String) -> Bool { path == "-" }

    /// Checks `path` before any work is done: for `-`, that `binary` output does not go to a
    /// terminal; for an existing file, that `force` was given or the person answers yes to
    /// "overwrite FILE? [y/N]" on the terminal (asked only when stdin is one). Throws a refusal
    /// naming `--force` otherwise; nothing has been written then.
    static func check(_ path: String, force: Bool, binary: Bool = false, command: String) throws {
        if isStdout(path) {
            if binary && Console.stdoutIsTerminal {
                throw CLIError.refused(
                    "\(command): the output is gzip (binary) and standard output is a terminal; redirect it (> FILE) or pipe it (| gzip -dc); nothing was written")
            }
            return
        }
        var info = stat()
        guard lstat(path, &info) == 0, !force else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw CLIError.refused("\(path): is a folder, expected a file to write; nothing was written") }
        guard Console.stdinIsTerminal else {
            throw CLIError.refused("\(path) exists; give --force to write over it; nothing was written")
        }
        guard try ask("overwrite \(PrintableText.escapeControls(path))? [y/N] ") else {
            throw CLIError.refused("\(path) exists and was not overwritten (--force writes over it without asking)")
        }
    }

    /// Writes `bytes` to `path` durably and atomically (`FileIO.writeAtomically`), or to stdout for `-`.
    static func save(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        if isStdout(path) {
            try Console.outBytes(bytes)
            return
        }
        do {
            try FileIO.writeAtomically(bytes, to: path, mode: mode)
        } catch {
            throw CLIError.refused("\(path): cannot write: \(error)")
        }
    }

    /// A yes/no question on `/dev/tty` (as `Passphrase` asks): true for `y` or `yes`; no, an
    /// empty line or the end of input (Ctrl-D) is no. Without a terminal, a refusal naming `--force`.
    static func ask(_ question: String) throws -> Bool {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { throw CLIError.refused("no terminal to ask on; give --force to write over the file") }
        defer { close(tty) }
        _ = question.withCString { write(tty, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 64 {
            let count = read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                _ = write(tty, "\n", 1)
                break
            }
            if byte == 0x0A || byte == 0x0D { break }
            line.append(byte)
        }
        let answer = String(decoding: line.filter { $0 != 0x20 && $0 != 0x09 }, as: UTF8.self).lowercased()
        return answer == "y" || answer == "yes"
    }
}
