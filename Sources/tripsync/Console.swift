#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync
import TripSyncPlatform

/// Where command output goes: stdout for results, stderr for warnings, errors and progress.
///
/// The one way text reaches a terminal. Every human-readable line passes through
/// `PrintableText.line` here, so a value from a file or a folder (a title, a name, a file
/// name) can neither move the cursor, colour the screen, start a line of its own nor reverse
/// what follows: one call of `out`/`err` is one line on the screen. Only the program's own
/// text (help, usage, completion scripts) and JSON (`json`, escaped by JSON's rules) go out
/// `verbatim`.
enum Console {
    /// Writes one line to stdout, escaped (`PrintableText.line`: a newline in it is shown as
    /// `\x0a`), its hints completed with the options the person gave (`CommandHint`).
    static func out(_ line: String) {
        emit(PrintableText.line(CommandHint.complete(line)))
    }

    /// Writes each of `lines` as one escaped line to stdout.
    static func out(lines: [String]) {
        for line in lines { out(line) }
    }

    /// Writes the program's own text (help, usage, a completion script, JSON) to stdout as it
    /// is; never text that holds a value from outside unless JSON-escaped.
    static func verbatim(_ text: String) {
        emit(text)
    }

    private static func emit(_ text: String) {
        if let capture {
            capture(text)
            return
        }
        print(text)
        fflushStdout()
    }

    /// Prints a report as one JSON value on stdout (`ReportEncoding`: every `--json` has this
    /// one source); JSON's escaping is its only escaping.
    static func json(_ report: some Encodable) throws {
        verbatim(try ReportEncoding.json(report))
    }

    /// When set (by `demo`), stdout lines go here instead (already escaped).
    nonisolated(unsafe) static var capture: ((String) -> Void)?

    /// Flushes stdout so its lines and stderr's stay in order on a terminal.
    static func fflushStdout() {
        fflush(nil)
    }

    /// Writes one line to stderr, escaped (`PrintableText.line`); `newline: false` for a
    /// question whose answer follows on the same line; `forAnotherLaptop` for a line whose
    /// commands run on another laptop (this one's `--home` is not added to them).
    static func err(_ line: String, newline: Bool = true, forAnotherLaptop: Bool = false) {
        raw(PrintableText.line(forAnotherLaptop ? line : CommandHint.complete(line)) + (newline ? "\n" : ""))
    }

    /// Writes each of `lines` as one escaped line to stderr.
    static func err(lines: [String]) {
        for line in lines { err(line) }
    }

    /// Writes the program's own text (usage) to stderr as it is.
    static func errVerbatim(_ text: String) {
        raw(text + "\n")
    }

    /// Writes `text` to stderr unchanged: only `err`, `errVerbatim` and the progress line call it.
    private static func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// `tripsync: warning: …` on stderr, escaped (names come from outside).
    static func warning(_ message: String) {
        err("tripsync: warning: " + message)
    }

    /// `tripsync: error: …` on stderr, escaped.
    static func error(_ message: String) {
        err("tripsync: error: " + message)
    }

    /// An error message of one or more lines: `hint: …` lines as they are, every other line
    /// as `tripsync: error: …` (git's form for an ambiguous short id and its candidates). The
    /// message's own lines are the library's; a value inside a line cannot hold a newline
    /// (names and titles refuse one, file names are escaped by `PrintableText.escape(bytes:)`).
    static func failure(_ message: String) {
        failure(lines: message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// `failure` of lines already apart: none is split again.
    static func failure(lines: [String]) {
        for line in lines {
            if line.hasPrefix("hint: ") { err(line) } else { error(line) }
        }
    }

    /// Writes bytes to stdout as they are (a file written to `-`).
    static func outBytes(_ bytes: [UInt8]) throws {
        fflushStdout()
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw CLIError.refused("standard output: cannot write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Whether stdout is a terminal (binary output is never written to one).
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }

    /// Shows a progress line on stderr, only when stderr is a terminal (overwritten in place).
    static func progress(_ text: String) {
        guard stderrIsTerminal else { return }
        raw("\r\u{1B}[2K" + PrintableText.line(text))
    }

    /// Clears the progress line, if any.
    static func clearProgress() {
        guard stderrIsTerminal else { return }
        raw("\r\u{1B}[2K")
    }

    /// Whether stderr is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Whether stdin is a terminal (questions are asked only then).
    static var stdinIsTerminal: Bool { isatty(0) == 1 }
}
