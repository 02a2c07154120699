import TripSync
import TripSyncCore

/// Parses dates, times and zones typed on the command line (usage errors, exit 2).
enum InputParser {
    static func date(_ text: String, option: String, command: String) throws -> LocalDate {
        guard let date = LocalDateParsing.date(text) else {
            throw CLIError.usage("\(option) expects a date YYYY-MM-DD that exists, got '\(text)'", command: command)
        }
        return date
    }

    /// A time as people type it (`09:30`, `9:30`, `9:30pm`): the library's `TypedInput`, which
    /// the browser's form reads too.
    static func time(_ text: String, option: String, command: String) throws -> (hour: Int, minute: Int) {
        guard let (hour, minute) = TypedInput.time(text) else {
            throw CLIError.usage("\(option) expects a time HH:MM (00:00 to 23:59), got '\(text)'", command: command)
        }
        return (hour, minute)
    }

    /// `YYYY-MM-DDTHH:MM` (timed) or `YYYY-MM-DD` (a whole day).
    static func endValue(_ text: String, zone: String?, option: String, command: String) throws -> TripTime {
        if let local = LocalDateParsing.dateTime(text) {
            guard let zone else { throw CLIError.usage("\(option) with a time needs a zone (--end-zone or --zone)", command: command) }
            return .local(local, zone: zone)
        }
        if let date = LocalDateParsing.date(text) { return .date(date) }
        throw CLIError.usage("\(option) expects YYYY-MM-DDTHH:MM or YYYY-MM-DD, got '\(text)'", command: command)
    }

    static func zone(_ text: String, option: String, command: String) throws -> String {
        guard ZoneID.isWellFormed(text) else {
            throw CLIError.usage("\(option) expects an IANA time zone such as Europe/Lisbon (never a fixed offset like +01:00), got '\(text)'", command: command)
        }
        guard ZoneDatabase.isTypeable(text) else {
            throw CLIError.usage(
                "\(option): zone '\(text)' is unknown to this machine's time zone database (check the spelling, e.g. America/New_York; "
                    + "abbreviations such as PST and offsets such as GMT+1 are not zones)", command: command)
        }
        return text
    }

    /// Refuses an end before its start (as instants across zones: the reader's
    /// "end-before-start" comparison).
    static func order(start: TripTime?, end: TripTime?, hint: String, command: String) throws {
        try Failure.during(.checkingInput(hint: hint, command: command)) { try TripDocument.checkOrder(start: start, end: end) }
    }

    /// Typed text checked against the rule files are read by, so nothing typed can make a trip
    /// file that readers refuse; a title or name must show something (not only spaces).
    static func text(_ value: String, option: String, rule: TextRule, command: String) throws -> String {
        switch rule.violation(in: value) {
        case nil where rule.minimumLength > 0 && VisibleText.isBlank(value):
            throw CLIError.usage("\(option) cannot be only spaces", command: command)
        case nil:
            return value
        case .length(let found) where found < rule.minimumLength:
            throw CLIError.usage("\(option) cannot be empty", command: command)
        case .length:
            throw CLIError.usage("\(option) is longer than \(rule.maximumLength) characters", command: command)
        case .controlCharacter:
            throw CLIError.usage("\(option) contains control characters", command: command)
        }
    }
}
