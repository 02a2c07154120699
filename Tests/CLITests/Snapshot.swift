import Foundation
import Testing

// Snapshot tests of the built `tripsync`: a case runs commands one after another in a fresh
// folder and renders each command line with its stdout, stderr and exit status into one text
// file, Tests/CLITests/Snapshots/NAME.txt, which the test compares with what was recorded.
//
//     TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter CLISnapshot    # re-record (tests then fail, saying so)
//
// What varies between runs is replaced by placeholders: the case's folder by `$TMP`, the
// repository by `$ROOT`, ids a step creates at random by the name the case gives them
// (`<trip>`, `<item-1>`; `<item-1:8>` for the 8-character prefix commands print), the random
// device id of a fresh home by `<device>` (an id a home takes later, a re-key, by `<device-2>`),
// times within two days of the run by `<now>`, and ages counted up to the run's clock
// (`status --json`'s `oldestUnpublishedChangeSeconds` and `silentSeconds`) by `<seconds>`.
// Ids and times that are fixed in samples/ stay as they are.

/// One command of a snapshot case.
struct SnapshotStep: Sendable {
    /// The arguments after `tripsync`; `$TMP`, `<NAME>` and `<NAME:8>` are expanded before running.
    var arguments: [String]
    /// Names the id this step prints as its whole stdout (`new`, `add`): later arguments and all
    /// output show `<NAME>` for it.
    var names: String?
    /// A file the step writes (a path under `$TMP`) whose text goes into the snapshot after it.
    var file: String?

    /// `tripsync ARGS` as a step of a case.
    static func run(_ arguments: String..., names: String? = nil, file: String? = nil) -> SnapshotStep {
        SnapshotStep(arguments: arguments, names: names, file: file)
    }
}

/// Where a case's `$TMP/home` (also `TRIPSYNC_HOME`) starts.
enum SnapshotHome: Sendable {
    /// A device.json with a fixed device id and name, so merges and imports are reproducible.
    case fixedDevice
    /// Nothing: the first command creates the home with a random device id, shown as `<device>`.
    case fresh
}

/// A named table entry: commands whose output together is one snapshot file.
struct SnapshotCase: Sendable, CustomTestStringConvertible {
    /// The snapshot's file name without `.txt`; says what the case shows.
    var name: String
    var home: SnapshotHome
    var steps: [SnapshotStep]

    init(_ name: String, home: SnapshotHome = .fixedDevice, _ steps: [SnapshotStep]) {
        self.name = name
        self.home = home
        self.steps = steps
    }

    /// A case of one command.
    init(_ name: String, home: SnapshotHome = .fixedDevice, _ arguments: String...) {
        self.init(name, home: home, arguments: arguments)
    }

    /// A case of one command given as an array.
    init(_ name: String, home: SnapshotHome = .fixedDevice, arguments: [String]) {
        self.init(name, home: home, [SnapshotStep(arguments: arguments)])
    }

    var testDescription: String { name }
}


enum Snapshot {
    /// Tests/CLITests/Snapshots.
    static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots").path

    /// True when `TRIPSYNC_RECORD_SNAPSHOTS` is set (to anything but `0` or nothing).
    static var recording: Bool {
        let value = ProcessInfo.processInfo.environment["TRIPSYNC_RECORD_SNAPSHOTS"] ?? ""
        return !value.isEmpty && value != "0"
    }

    static let recordHint = "re-record with TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter CLISnapshot"

    /// The device id and name of a `.fixedDevice` home (no sample uses this id).
    static let fixedDevice = "c0ffee00-5a9b-4e00-8000-000000000001"
    static let fixedDeviceName = "Snapshot laptop"

    static func path(of name: String) -> String { folder + "/" + name + ".txt" }

    /// Runs the case and compares (or records) its snapshot; a mismatch is one Issue with the first
    /// differing line.
    static func check(_ snapshotCase: SnapshotCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try compare(try SnapshotRun.render(snapshotCase), name: snapshotCase.name, hint: recordHint, sourceLocation: sourceLocation)
    }

    /// Compares `actual` with the snapshot `name` (or records it); `hint` says how to re-record.
    static func compare(_ actual: String, name: String, hint: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = path(of: name)
        let recorded = FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) }
        if recording {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            let what = recorded == actual ? "unchanged" : (recorded == nil ? "new" : "changed")
            Issue.record(
                "recorded snapshot \(name).txt (\(what)); unset TRIPSYNC_RECORD_SNAPSHOTS and run again to compare",
                sourceLocation: sourceLocation)
            return
        }
        guard let recorded else {
            Issue.record("no snapshot recorded at \(file); \(hint)\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        if let difference = difference(expected: recorded, actual: actual) {
            let saved = NSTemporaryDirectory() + "tripsync-snapshot-\(name).actual.txt"
            try? Data(actual.utf8).write(to: URL(fileURLWithPath: saved))
            Issue.record(
                "snapshot \(name).txt differs from what was recorded\n\(difference)\n(this run's output: \(saved); \(hint))",
                sourceLocation: sourceLocation)
        }
    }

    /// nil when equal; else the first differing line (expected vs actual) with two lines before it.
    static func difference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < old.count, index < new.count, old[index] == new[index] { index += 1 }
        var lines: [String] = []
        for context in max(0, index - 2)..<index { lines.append("  \(context + 1)  " + clip(old[context], from: 0)) }
        let expectedLine = index < old.count ? old[index] : nil
        let actualLine = index < new.count ? new[index] : nil
        let column = commonPrefixLength(expectedLine ?? "", actualLine ?? "")
        lines.append("first difference at line \(index + 1)" + (expectedLine != nil && actualLine != nil ? ", column \(column + 1):" : ":"))
        lines.append("  expected: " + (expectedLine.map { clip($0, from: column) } ?? "(end of the recorded snapshot)"))
        lines.append("  actual:   " + (actualLine.map { clip($0, from: column) } ?? "(end of this run's output)"))
        lines.append("(recorded \(old.count) lines, this run \(new.count))")
        return lines.joined(separator: "\n")
    }

    static func commonPrefixLength(_ a: String, _ b: String) -> Int {
        var count = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            count += 1
        }
        return count
    }

    /// A long line is shown around `column` (60 characters before it, 100 from it).
    static func clip(_ line: String, from column: Int) -> String {
        let characters = Array(line)
        guard characters.count > 160 else { return line }
        let start = max(0, column - 60)
        let end = min(characters.count, column + 100)
        return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
    }
}

/// One run of a case in its own folder: runs the steps, names random ids, renders the text.
struct SnapshotRun {
    let folder: String
    let snapshotCase: SnapshotCase
    let started = Date()
    /// Random ids seen so far, by name, in the order they were named.
    var names: [(name: String, id: String)] = []

    static func render(_ snapshotCase: SnapshotCase) throws -> String {
        let folder = NSTemporaryDirectory() + "tripsync-snapshot-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Sample paths are given and printed relative to the case's folder, as samples/...
        try FileManager.default.createSymbolicLink(atPath: folder + "/samples", withDestinationPath: CLI.root + "/samples")
        if case .fixedDevice = snapshotCase.home {
            try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
            let json = #"{"deviceId":"\#(Snapshot.fixedDevice)","format":1,"highWater":0,"name":"\#(Snapshot.fixedDeviceName)"}"#
            try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/home/device.json"))
        }
        var run = SnapshotRun(folder: folder, snapshotCase: snapshotCase)
        var text = "# tripsync snapshot \(snapshotCase.name); \(Snapshot.recordHint)\n"
        for step in snapshotCase.steps { text += "\n" + (try run.perform(step)) }
        return text
    }

    /// The environment of every command: nothing of the developer's TRIPSYNC_* or home, a fixed zone and locale.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRIPSYNC_") }
        environment["TRIPSYNC_HOME"] = folder + "/home"
        environment["HOME"] = folder
        environment["TZ"] = "UTC"
        environment["LC_ALL"] = "C.UTF-8"
        environment["LANG"] = "C.UTF-8"
        return environment
    }

    mutating func perform(_ step: SnapshotStep) throws -> String {
        let arguments = step.arguments.map(expand)
        let (status, outData, errData) = try CLI.spawn(CLI.binary, arguments, environment: environment, cwd: folder)
        let stdout = String(decoding: outData, as: UTF8.self)
        let stderr = String(decoding: errData, as: UTF8.self)
        if let name = step.names {
            let printed = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if Self.isIdentifier(printed) {
                names.append((name, printed))
            } else {
                Issue.record("\(snapshotCase.name): `\(step.arguments.joined(separator: " "))` was to print an id named \(name), printed \(stdout) \(stderr)")
            }
        }
        // The fresh home's device id, and any id a home takes later (a re-key), is random.
        if let device = homeDevice(), device != Snapshot.fixedDevice, !names.contains(where: { $0.id == device }) {
            let count = names.filter { $0.name.hasPrefix("device") }.count
            names.append((count == 0 ? "device" : "device-\(count + 1)", device))
        }
        var text = (["$ tripsync"] + step.arguments.map(Self.quoted)).joined(separator: " ") + "\n"
        text += step.arguments.contains("--json") ? jsonSection(stdout) : section("stdout", stdout)
        text += section("stderr", stderr)
        text += "--- exit \(status)\n"
        if let file = step.file {
            let path = expand(file)
            if let data = FileManager.default.contents(atPath: path) {
                text += fileSection(file, data)
            } else {
                text += "--- file \(file): not written\n"
            }
        }
        return text
    }

    /// `$TMP`, `<NAME:8>` and `<NAME>` in an argument, made real.
    func expand(_ argument: String) -> String {
        var result = argument.replacingOccurrences(of: "$TMP", with: folder)
        for (name, id) in names {
            result = result.replacingOccurrences(of: "<\(name):8>", with: String(id.prefix(8)))
            result = result.replacingOccurrences(of: "<\(name)>", with: id)
        }
        return result
    }

    /// The device id of `$TMP/home`, once the CLI has created it.
    func homeDevice() -> String? {
        guard let data = FileManager.default.contents(atPath: folder + "/home/device.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let device = object["deviceId"] as? String, Self.isIdentifier(device)
        else { return nil }
        return device
    }

    func section(_ title: String, _ output: String) -> String {
        guard !output.isEmpty else { return "--- \(title) (empty)\n" }
        let text = sanitized(output).replacingOccurrences(of: "\r", with: "␍")
        return "--- \(title)\n" + text + (text.hasSuffix("\n") ? "" : "\n\\ no newline at end\n")
    }

    /// `--json` output that is one JSON value on one line is shown indented (keys in the order
    /// printed, every scalar as printed), so a changed field is a changed line; anything else is
    /// shown as printed.
    func jsonSection(_ output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[1].isEmpty,
            (try? JSONSerialization.jsonObject(with: Data(lines[0].utf8), options: [.fragmentsAllowed])) != nil
        else { return section("stdout", output) }
        return "--- stdout (one line of JSON, shown indented)\n" + sanitized(Self.indented(String(lines[0]))) + "\n"
    }

    /// Valid compact JSON with a line per member and element, two spaces per level; `{}` and `[]` stay as they are.
    static func indented(_ json: String) -> String {
        let characters = Array(json)
        var result = ""
        var depth = 0
        var inString = false
        var escaped = false
        func newline() { result += "\n" + String(repeating: "  ", count: depth) }
        for (index, character) in characters.enumerated() {
            if inString {
                result.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"":
                inString = true
                result.append(character)
            case "{", "[":
                result.append(character)
                let next = characters.indices.contains(index + 1) ? characters[index + 1] : " "
                if next != "}" && next != "]" {
                    depth += 1
                    newline()
                }
            case "}", "]":
                let previous = index > 0 ? characters[index - 1] : " "
                if previous != "{" && previous != "[" {
                    depth -= 1
                    newline()
                }
                result.append(character)
            case ",":
                result.append(character)
                newline()
            case ":":
                result += ": "
            case " ", "\n", "\t", "\r":
                continue
            default:
                result.append(character)
            }
        }
        return result
    }

    func fileSection(_ file: String, _ data: Data) -> String {
        guard let raw = String(data: data, encoding: .utf8) else { return "--- file \(file): \(data.count) bytes, not UTF-8\n" }
        // Lines by bytes: in a Swift String "\r\n" is one Character, not "\r" then "\n".
        let lines = Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        let crlf = !lines.isEmpty && data.last == 0x0A && lines.allSatisfy { $0.last == 0x0D }
        let lf = crlf ? String(decoding: lines.map { Array($0.dropLast()) + [0x0A] }.joined(), as: UTF8.self) : raw
        let text = sanitized(lf).replacingOccurrences(of: "\r", with: "␍")
        return "--- file \(file)" + (crlf ? " (every line ends in CRLF, shown as LF)" : "") + "\n"
            + text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n\\ no newline at end\n")
    }

    /// Output with what varies between runs replaced by placeholders.
    func sanitized(_ output: String) -> String {
        var text = output
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        for path in Set([folder, real]).sorted(by: { $0.count > $1.count }) { text = text.replacingOccurrences(of: path, with: "$TMP") }
        text = text.replacingOccurrences(of: CLI.root, with: "$ROOT")
        for (name, id) in names {
            text = text.replacingOccurrences(of: id, with: "<\(name)>")
            text = Self.replace(#"(?<![0-9a-fA-F])"# + id.prefix(8) + #"(?![0-9a-fA-F])"#, in: text) { _ in "<\(name):8>" }
        }
        return scrubbedAges(scrubbedTimes(text))
    }

    /// Ages a command counts up to its own clock (`status --json` metrics) differ from run to run.
    func scrubbedAges(_ text: String) -> String {
        Self.replace(#"("(?:oldestUnpublishedChangeSeconds|silentSeconds)":\s*)\d+"#, in: text) { groups in groups[1] + "<seconds>" }
    }

    /// Times within two days of the run (ISO 8601 `…Z`, iCalendar `YYYYMMDDTHHMMSSZ`, the page's
    /// `YYYY-MM-DD HH:MM UTC`, or clock milliseconds) come from this run's clock: `<now>`. Sample
    /// times are far older and stay.
    func scrubbedTimes(_ text: String) -> String {
        let now = started.timeIntervalSince1970
        func near(_ seconds: Double) -> Bool { abs(seconds - now) < 2 * 86_400 }
        var result = Self.replace(#"\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?Z"#, in: text) { groups in
            Self.epoch(groups).map(near) == true ? "<now>" : nil
        }
        result = Self.replace(#"\b(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\b"#, in: result) { groups in
            Self.epoch(groups).map(near) == true ? "<now>" : nil
        }
        result = Self.replace(#"\b(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) UTC\b"#, in: result) { groups in
            Self.epoch(groups).map(near) == true ? "<now>" : nil
        }
        result = Self.replace(#"\b1\d{12}\b"#, in: result) { groups in
            Double(groups[0]).map { near($0 / 1000) } == true ? "<now>" : nil
        }
        return result
    }

    /// Seconds since 1970 of captured year, month, day, hour, minute[, second] (UTC).
    static func epoch(_ groups: [String]) -> Double? {
        let numbers = groups.dropFirst().map { Int($0) ?? 0 }
        guard numbers.count >= 5 else { return nil }
        var components = DateComponents()
        components.year = numbers[0]
        components.month = numbers[1]
        components.day = numbers[2]
        components.hour = numbers[3]
        components.minute = numbers[4]
        components.second = numbers.count > 5 ? numbers[5] : 0
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        return calendar.date(from: components)?.timeIntervalSince1970
    }

    /// Replaces each match of `pattern` by what `replacement` returns for its groups (whole match
    /// first; a group that did not take part is ""), or leaves it when that is nil.
    static func replace(_ pattern: String, in text: String, _ replacement: ([String]) -> String?) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let source = text as NSString
        var result = ""
        var last = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: source.length)) {
            let groups = (0..<match.numberOfRanges).map { index -> String in
                let range = match.range(at: index)
                return range.location == NSNotFound ? "" : source.substring(with: range)
            }
            guard let replaced = replacement(groups) else { continue }
            result += source.substring(with: NSRange(location: last, length: match.range.location - last)) + replaced
            last = match.range.location + match.range.length
        }
        return result + source.substring(from: last)
    }

    static func isIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// An argument as a shell would need it (single quotes around anything unusual).
    static func quoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_./:=@%+,$<>".unicodeScalars.contains(scalar))
        }
        return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
