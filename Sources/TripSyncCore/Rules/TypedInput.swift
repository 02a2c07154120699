import Foundation

/// Days, times and zones as people type them into a form (the browser face, `tripsync open`):
/// `2027-06-10` (a date picker's value) or `10 Jun`, `Jun 10`, `10 June 2027`; `9:30`, `09:30`,
/// `9`, `9:30pm`; a zone chosen by its place. Shared by both faces, so the rule is written once.
package enum TypedInput {
    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `text` without the spaces and tabs around it: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (Unicode's space separators and U+0009),
    /// without its bridge through NSString, which cost a quick `add` more than its own edit
    /// (docs/PERFORMANCE.md, "The replica view").
    static func trimmed(_ text: some StringProtocol) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// The date `text` names, or nil when it names none. A day without a year takes the year
    /// that puts it nearest after `reference` minus 180 days (so "10 Jun" typed in December
    /// for a trip next summer is next June, and a trip's earlier days stay in its year).
    package static func day(_ text: String, reference: LocalDate) -> LocalDate? {
        let trimmed = Self.trimmed(text)
        if let date = LocalDateParsing.date(trimmed) { return date }
        let words = trimmed.lowercased().replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        guard words.count == 2 || words.count == 3 else { return nil }
        var day: Int?
        var month: Int?
        for word in words.prefix(2) {
            if let number = Int(word), word.count <= 2 {
                day = number
            } else if word.count >= 3, let index = monthNames.firstIndex(where: { word.hasPrefix($0) }),
                monthFullNames[index].hasPrefix(word)
            {
                month = index + 1
            }
        }
        guard let day, let month else { return nil }
        if words.count == 3 {
            guard words[2].count == 4, let year = Int(words[2]) else { return nil }
            return LocalDate(year: year, month: month, day: day)
        }
        let floor = LocalDate(daysSinceEpoch: reference.daysSinceEpoch - 180) ?? reference
        for year in floor.year...(floor.year + 1) {
            if let date = LocalDate(year: year, month: month, day: day), date >= floor { return date }
        }
        return nil
    }

    static let monthFullNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]

    /// The time of day `text` names (`9:30`, `09:30`, `9`, `9.30`, `9:30pm`, `12am`), or nil.
    package static func time(_ text: String) -> (hour: Int, minute: Int)? {
        var rest = Self.trimmed(text).lowercased()
        var meridiem: String?
        for suffix in ["am", "pm", "a.m.", "p.m."] where rest.hasSuffix(suffix) {
            meridiem = String(suffix.prefix(1))
            rest = Self.trimmed(rest.dropLast(suffix.count))
            break
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false).count == 2
            ? rest.split(separator: ":", omittingEmptySubsequences: false)
            : rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) }),
            var hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0
        else { return nil }
        if parts.count == 2 && parts[1].count != 2 { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// The zone of this machine's time zone database `text` names (an IANA id), or nil.
    package static func zone(_ text: String) -> String? {
        let trimmed = Self.trimmed(text)
        guard ZoneID.isWellFormed(trimmed), ZoneDatabase.isTypeable(trimmed) else { return nil }
        return trimmed
    }

    /// The zones a person can choose, by place: ("Lisbon", "Europe/Lisbon"), sorted by place.
    package static let zoneChoices: [(place: String, id: String)] = {
        var seen = Set<String>()
        var choices: [(place: String, id: String)] = []
        for id in TimeZone.knownTimeZoneIdentifiers + ["UTC"] where ZoneID.isWellFormed(id) && ZoneDatabase.isTypeable(id) && seen.insert(id).inserted {
            let place = id.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? id
            choices.append((place, id))
        }
        return choices.sorted { ($0.place, $0.id) < ($1.place, $1.id) }
    }()

    /// A start from a typed day, time and zone: nil without a day; a whole day without a time.
    /// Throws `EditError(.invalidValue)` in words for what cannot be read.
    package static func start(day: String, time: String, zone: String?, reference: LocalDate) throws(EditError) -> TripTime? {
        let dayText = Self.trimmed(day)
        let timeText = Self.trimmed(time)
        guard !dayText.isEmpty else {
            if !timeText.isEmpty { throw EditError(.invalidValue, "a time needs a day: fill in Day too") }
            return nil
        }
        guard let date = Self.day(dayText, reference: reference) else {
            throw EditError(.invalidValue, "Day: cannot read '\(dayText.prefix(40))' as a day; type it like 10 Jun or 2027-06-10")
        }
        guard !timeText.isEmpty else { return .date(date) }
        guard let (hour, minute) = Self.time(timeText), let local = LocalDateTime(date: date, hour: hour, minute: minute) else {
            throw EditError(.invalidValue, "Time: cannot read '\(timeText.prefix(40))' as a time; type it like 9:30 or 21:00")
        }
        guard let zone else { throw EditError(.invalidValue, "a time needs a zone: choose one in Zone") }
        return .local(local, zone: zone)
    }

    /// An end from what was typed in Ends: a time (`13:00`, on the start's day), a day (`12 Jun`,
    /// a whole day), or both (`12 Jun 13:00`); nil when empty.
    package static func end(_ text: String, start: TripTime?, zone: String?, reference: LocalDate) throws(EditError) -> TripTime? {
        let trimmed = Self.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        if let local = LocalDateParsing.dateTime(trimmed) {
            guard let zone else { throw EditError(.invalidValue, "Ends: a time needs a zone: choose one in Zone") }
            return .local(local, zone: zone)
        }
        let words = trimmed.split(separator: " ").map(String.init)
        if let last = words.last, last.contains(":") || last.lowercased().hasSuffix("m"), let (hour, minute) = Self.time(last) {
            let dayText = words.dropLast().joined(separator: " ")
            let date: LocalDate?
            if dayText.isEmpty {
                date = start?.localDate
                guard date != nil else { throw EditError(.invalidValue, "Ends: a time alone needs a Day for the start") }
            } else {
                date = Self.day(dayText, reference: start?.localDate ?? reference)
            }
            guard let date, let local = LocalDateTime(date: date, hour: hour, minute: minute) else {
                throw EditError(.invalidValue, "Ends: cannot read '\(trimmed.prefix(40))'; type a time (13:00), a day (12 Jun) or both")
            }
            guard let zone else { throw EditError(.invalidValue, "Ends: a time needs a zone: choose one in Zone") }
            return .local(local, zone: zone)
        }
        guard let date = Self.day(trimmed, reference: start?.localDate ?? reference) else {
            throw EditError(.invalidValue, "Ends: cannot read '\(trimmed.prefix(40))'; type a time (13:00), a day (12 Jun) or both")
        }
        return .date(date)
    }
}
