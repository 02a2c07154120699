import Foundation
import Testing

/// Text from a file or a folder reaches the terminal escaped: no escape sequence, no newline of
/// its own, no bidi override or other invisible format character (issue 26, finding 8).
@Suite struct TerminalTextTests {
    /// The sample trip with hostile values a reader accepts: a bidi override in an item's
    /// title, a device's name and a place; an isolate and a zero-width space in the trip name.
    static func hostileTrip() throws -> String {
        var text = try String(contentsOfFile: CLI.root + "/samples/lisbon-new-york.trip.json", encoding: .utf8)
        for (plain, hostile) in [
            ("\"Walk the High Line\"", "\"Walk \\u202eenil hgiH\\u202c the High Line\""),
            ("\"Sam's laptop\"", "\"Sam\\u202e potpal\""),
            ("\"Gansevoort St entrance\"", "\"Gansevoort \\u2066St\\u2069 \\u200bentrance\""),
        ] {
            #expect(text.contains(plain), "the sample changed: \(plain)")
            text = text.replacingOccurrences(of: plain, with: hostile)
        }
        return text
    }

    /// Whether `output` holds anything a terminal would act on or hide.
    static func unsafe(_ output: String) -> [String] {
        var found: [String] = []
        for scalar in output.unicodeScalars {
            let value = scalar.value
            if value == 0x0A { continue }
            if value < 0x20 || (0x7F...0x9F).contains(value) || scalar.properties.generalCategory == .format || value == 0x2028 || value == 0x2029 {
                found.append(String(value, radix: 16))
            }
        }
        return found
    }

    @Test func validatePrintsHostileFileNamesAndValuesEscaped() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // A value with an escape sequence (refused: the error names it) under a name that holds
        // an escape sequence and a newline followed by a fake "OK" line.
        let hostile = try Self.hostileTrip().replacingOccurrences(of: "Gansevoort \\u2066St", with: "Gansevoort \\u001b[31mSt")
        let name = root + "/evil\u{1B}[2J\nOK       fake\u{202E}.trip.json"
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: name))
        let result = try CLI.run(["validate", name])
        #expect(result.status == 1)
        #expect(Self.unsafe(result.stdout).isEmpty, "\(result.stdout.debugDescription)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("OK ") }, "a file name printed a line of its own: \(result.stdout)")
        #expect(result.stdout.contains("evil\\x1b[2J\\x0aOK       fake\\u{202E}.trip.json"), "\(result.stdout)")
        // --json stays exact JSON: the name comes back as it is.
        let json = try CLI.run(["validate", "--json", name])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.first?["file"] as? String == name)
        // A valid hostile file: OK, its name escaped.
        let bidi = root + "/trip\u{202E}nosj.trip.json"
        try Data(try Self.hostileTrip().utf8).write(to: URL(fileURLWithPath: bidi))
        let valid = try CLI.run(["validate", bidi])
        #expect(valid.status == 0, "\(valid.stdout) \(valid.stderr)")
        #expect(Self.unsafe(valid.stdout).isEmpty && valid.stdout.contains("trip\\u{202E}nosj"), "\(valid.stdout.debugDescription)")
    }

    @Test func everyCommandShowsHostileValuesEscaped() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home"
        let file = root + "/hostile.trip.json"
        try Data(try Self.hostileTrip().utf8).write(to: URL(fileURLWithPath: file))
        #expect(try CLI.run(["--home", home, "init", "--device-name", "Alex"]).status == 0)
        let imported = try CLI.run(["--home", home, "import", file, "--merge", "--yes"])
        #expect(imported.status == 0, "\(imported.stderr)")
        var outputs = [("import", imported)]
        for arguments in [["show"], ["show", "--deleted"], ["conflicts"], ["members"], ["attachments"], ["status"], ["trips"], ["find", "High"], ["import", file, "--dry-run"]] {
            outputs.append((arguments.joined(separator: " "), try CLI.run(["--home", home] + arguments)))
        }
        let item = try CLI.run(["--home", home, "find", "High"]).stdout.split(separator: "\n").last.map { String($0.dropFirst(2).prefix(8)) } ?? ""
        outputs.append(("show ITEM", try CLI.run(["--home", home, "show", item])))
        var shownOverride = false
        for (command, result) in outputs {
            #expect(Self.unsafe(result.stdout + result.stderr).isEmpty, "\(command): \((result.stdout + result.stderr).debugDescription)")
            if result.stdout.contains("\\u{202E}") { shownOverride = true }
        }
        #expect(shownOverride, "the override is shown as what it is")
        #expect(outputs.contains { $0.1.stdout.contains("Gansevoort \\u{2066}St\\u{2069} \\u{200B}entrance") })
        // --json keeps the values exact.
        let json = try CLI.run(["--home", home, "show", item, "--json"])
        #expect(json.stdout.contains("\u{202E}") || json.stdout.contains("\\u202e") || json.stdout.contains("\\u202E"), "\(json.stdout)")
    }

    @Test func aFolderEntryNameCannotPrintALineOfItsOwn() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home"
        let shared = root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(try CLI.run(["--home", home, "init", "--device-name", "Alex"]).status == 0)
        let trip = try CLI.run(["--home", home, "new", "Lisbon", "--zone", "Europe/Lisbon", "--open"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["--home", home, "sync", shared]).status == 0)
        let name = "x\ntripsync: warning: fake\u{1B}[2J\u{202E}.trip.json"
        try Data("{\"schemaVersion\": 1".utf8).write(to: URL(fileURLWithPath: shared + "/" + trip + "/" + name))
        let sync = try CLI.run(["--home", home, "sync", shared])
        #expect(sync.status == 0, "\(sync.stderr)")
        let all = sync.stdout + sync.stderr
        #expect(Self.unsafe(all).isEmpty, "\(all.debugDescription)")
        #expect(!all.split(separator: "\n").contains { $0.hasPrefix("tripsync: warning: fake") }, "\(all)")
        #expect(all.contains("x\\x0atripsync: warning: fake\\x1b[2J\\u{202E}.trip.json"), "\(all)")
    }
}
