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
}
