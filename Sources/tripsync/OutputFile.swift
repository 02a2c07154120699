#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync
import TripSyncPlatform

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
        try Failure.during(.writing(path)) { try FileIO.writeAtomically(bytes, to: path, mode: mode) }
    }

    /// A yes/no question on `/dev/tty` (`Confirm.ask`): true for `y` or `yes`; no, an empty
    /// line or the end of input (Ctrl-D) is no. Without a terminal, a refusal naming `--force`.
    static func ask(_ question: String) throws -> Bool {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else { throw CLIError.refused("no terminal to ask on; give --force to write over the file") }
        close(tty)
        return Confirm.ask(question)
    }
}
