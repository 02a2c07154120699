#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import TripSync

/// Where command output goes: stdout for results, stderr for warnings, errors and progress.
enum Console {
    /// Writes a line to stdout.
    static func out(_ line: String, terminator: String = "\n") {
        if let capture {
            capture(terminator.isEmpty && line.hasSuffix("\n") ? String(line.dropLast()) : line)
            return
        }
        print(line, terminator: terminator)
        fflushStdout()
    }

    /// Prints a report as one JSON value on stdout (`ReportEncoding`: every `--json` has this
    /// one source).
    static func json(_ report: some Encodable) throws {
        out(try ReportEncoding.json(report))
    }

    /// When set (by `demo`), stdout lines go here instead.
    nonisolated(unsafe) static var capture: ((String) -> Void)?

    /// Flushes stdout so its lines and stderr's stay in order on a terminal.
    static func fflushStdout() {
        fflush(nil)
    }

    /// Writes a line to stderr.
    static func err(_ line: String, newline: Bool = true) {
        var text = line + (newline ? "\n" : "")
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// `tripsync: warning: …` on stderr, control characters escaped (names come from outside).
    static func warning(_ message: String) {
        err("tripsync: warning: " + PrintableText.escapeControls(message))
    }

    /// `tripsync: error: …` on stderr, control characters escaped.
    static func error(_ message: String) {
        err("tripsync: error: " + PrintableText.escapeControls(message))
    }

    /// An error message of one or more lines: `hint: …` lines as they are, every other line
    /// as `tripsync: error: …` (git's form for an ambiguous short id and its candidates).
    static func failure(_ message: String) {
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("hint: ") { err(PrintableText.escapeControls(String(line))) } else { error(String(line)) }
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
        err("\r\u{1B}[2K" + text, newline: false)
    }

    /// Clears the progress line, if any.
    static func clearProgress() {
        guard stderrIsTerminal else { return }
        err("\r\u{1B}[2K", newline: false)
    }

    /// Whether stderr is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Whether stdin is a terminal (questions are asked only then).
    static var stdinIsTerminal: Bool { isatty(0) == 1 }
}
