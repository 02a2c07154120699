import Foundation
import Testing

/// `--at` reads a time as the browser's Time field does (the library's `TypedInput`): both faces
/// take what people type.
@Suite("typed times in the CLI")
struct TypedTimeCommandTests {
    @Test("add --at takes 9:30 and 9:30pm as the browser's form does; a time that is none is still a usage error", arguments: [
        ("9:30", "09:30"), ("09:30", "09:30"), ("9:30pm", "21:30"),
    ])
    func addAt(_ typed: String, _ stored: String) throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-at-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        _ = try CLI.run(["new", "Lisbon", "--zone", "Europe/Lisbon", "--home", home])
        let added = try CLI.run(["add", "Castelo", "--day", "2027-06-10", "--at", typed, "--home", home])
        #expect(added.status == 0)
        #expect(added.stderr.contains("at \(stored) Europe/Lisbon"))
        let wrong = try CLI.run(["add", "Castelo", "--day", "2027-06-10", "--at", "25:00", "--home", home])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--at expects a time HH:MM (00:00 to 23:59), got '25:00'"))
    }

    @Test("edit changes part of a time by the library's one rule: --zone takes an end in the same zone along, a flight's arrival zone stays")
    func editPartOfATime() throws {
        let home = FileManager.default.temporaryDirectory.path + "/tripsync-part-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }  // the test's own folder
        _ = try CLI.run(["new", "Lisbon", "--zone", "Europe/Lisbon", "--home", home])
        let dinner = try CLI.run(["add", "Dinner", "--day", "2027-06-10", "--at", "19:00", "--end", "2027-06-10T21:00", "--home", home]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let flight = try CLI.run([
            "add", "Flight", "--day", "2027-06-11", "--at", "10:00", "--end", "2027-06-11T20:00", "--end-zone", "America/New_York", "--home", home,
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["edit", dinner, "--zone", "Europe/Madrid", "--home", home]).status == 0)
        #expect(try CLI.run(["edit", flight, "--zone", "Europe/Madrid", "--home", home]).status == 0)
        #expect(try CLI.run(["edit", dinner, "--at", "20:00", "--home", home]).status == 0)
        let shown = try CLI.run(["show", "--json", "--home", home]).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        let items = (json["days"] as? [[String: Any]] ?? []).flatMap { $0["items"] as? [[String: Any]] ?? [] }
        func item(_ id: String) -> [String: Any]? { items.first { $0["id"] as? String == id } }
        let dinnerStart = item(dinner)?["start"] as? [String: Any]
        let dinnerEnd = item(dinner)?["end"] as? [String: Any]
        #expect(dinnerStart?["zone"] as? String == "Europe/Madrid")
        #expect(dinnerStart?["local"] as? String == "2027-06-10T20:00")
        #expect(dinnerEnd?["zone"] as? String == "Europe/Madrid")
        #expect((item(flight)?["end"] as? [String: Any])?["zone"] as? String == "America/New_York")
    }
}
