import TripSync
import TripSyncPlatform
import TripSyncCore

/// A failure of a command, turned into a message and an exit status in one place (`main.swift`).
enum CLIError: Error {
    /// The command line is wrong: exit 2 with a hint to `help`.
    case usage(String, command: String?)
    /// Input was refused or the operation failed, nothing was changed: exit 1.
    case refused([String])
    /// Refused with nothing more to print (the command already printed its report): exit 1.
    case silentFailure

    /// One refusal line.
    static func refused(_ line: String) -> CLIError { .refused([line]) }

    /// The lines of a trip file error, each `FILE: /pointer: message`, escaped here already
    /// (`PrintableText.line`), so a newline in the file's name stays inside its line.
    static func file(_ error: TripFileError) -> CLIError {
        .refused(error.lines.map(PrintableText.line))
    }
}
