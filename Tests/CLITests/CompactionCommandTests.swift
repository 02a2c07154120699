import Foundation
import Testing

/// Compaction as two laptops meet it over months, run as the built binary under faketime
/// (issue 25, finding 1): edits made while an item was deleted are typed work, never
/// compacted away until a person restores the item or deletes it again.
@Suite struct CompactionCommandTests {
    static let faketime = "/usr/bin/faketime"

    /// Two homes and a folder; every command runs at a fake wall-clock day (day 0 is
    /// 2027-01-01, 09:00 UTC), the clock running on from there.
    @Test(.enabled(if: CLI.faketimeUsable, Comment(rawValue: CLI.faketimeMissing)))
    func editsMadeWhileDeletedSurviveEveryLaterSyncUntilAPersonDecides() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try FileManager.default.createDirectory(atPath: laptops.folder, withIntermediateDirectories: true)
        for name in ["alex", "sam"] { _ = try laptops.run(name, day: 0, ["init", "--device-name", "\(name)'s laptop"]) }
        _ = try laptops.run("alex", day: 0, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"])
        func add(_ title: String) throws -> String {
            try laptops.run("alex", day: 0, ["add", title, "--day", "2027-06-08"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let museum = try add("Museum")
        let train = try add("Train to Sintra")
        for _ in 0..<2 { for name in ["alex", "sam"] { try laptops.sync(name, day: 0) } }
        // Day 1: alex deletes both items. Sam is away from the folder for 40 days and more.
        for item in [museum, train] { #expect(try laptops.run("alex", day: 1, ["delete", item]).status == 0) }
        try laptops.sync("alex", day: 1)
        #expect(try laptops.run("sam", day: 40, ["edit", museum, "--note", "tickets booked, ref 4711"]).status == 0)
        #expect(try laptops.run("sam", day: 40, ["edit", train, "--title", "Train to Sintra 10:15"]).status == 0)
        // Day 101 on: sam is back; every laptop syncs, round after round, long past the retention.
        for day in [101, 101, 102, 103, 150, 400] {
            for name in ["sam", "alex"] {
                try laptops.sync(name, day: day)
                let conflicts = try laptops.run(name, day: day, ["conflicts"])
                #expect(conflicts.stdout.contains("tickets booked, ref 4711"), "\(name), day \(day): \(conflicts.stdout)")
                #expect(conflicts.stdout.contains("Train to Sintra 10:15"), "\(name), day \(day): \(conflicts.stdout)")
                #expect(conflicts.stdout.contains("while edited"), "\(name), day \(day): \(conflicts.stdout)")
            }
        }
        // Sam drops the train edit, having seen it; alex restores the museum with its note.
        let again = try laptops.run("sam", day: 401, ["delete", train])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("again"), "\(again.stdout)")
        #expect(try laptops.run("alex", day: 401, ["restore", museum]).status == 0)
        #expect(try laptops.run("alex", day: 401, ["show", museum]).stdout.contains("tickets booked, ref 4711"))
        for name in ["sam", "alex", "sam"] { try laptops.sync(name, day: 402) }
        for name in ["alex", "sam"] {
            let conflicts = try laptops.run(name, day: 402, ["conflicts"]).stdout
            #expect(!conflicts.contains("while edited"), "\(name): every decision taken: \(conflicts)")
            #expect(try laptops.run(name, day: 402, ["show", museum]).stdout.contains("tickets booked, ref 4711"), "\(name)")
        }
        // The retention of the train counts from sam's second delete: kept at day 480, gone later,
        // once every laptop has reached day 491 by what it acknowledged (issue 40: the age is
        // measured by the laptops' acknowledgements, so a quiet trip compacts nothing): alex
        // writes on day 495 and both laptops publish having seen it.
        for name in ["sam", "alex", "sam"] { try laptops.sync(name, day: 480) }
        #expect(try laptops.run("alex", day: 480, ["show", "--deleted"]).stdout.contains("Train to Sintra 10:15"))
        for name in ["sam", "alex", "sam"] { try laptops.sync(name, day: 495) }
        #expect(try laptops.run("alex", day: 495, ["show", "--deleted"]).stdout.contains("Train to Sintra 10:15"), "no laptop has acknowledged day 491")
        #expect(try laptops.run("alex", day: 495, ["edit", museum, "--place", "Belém"]).status == 0)
        for name in ["alex", "sam", "alex", "sam"] { try laptops.sync(name, day: 495) }
        #expect(try !laptops.run("alex", day: 495, ["show", "--deleted"]).stdout.contains("Train to Sintra 10:15"))
        #expect(try !laptops.run("sam", day: 495, ["show", "--deleted"]).stdout.contains("Train to Sintra 10:15"))
    }
}

/// Issue 40: `gc --folder` removes a blob no trip file names only once the retention has passed
/// by this laptop's wall clock and by every device's acknowledged counters: a blob nothing names
/// yet may be on its way (its attachment is published after it), and a laptop whose clock runs
/// ten years ahead used to remove it at once.
@Suite struct FolderBlobClockTests {
    @Test(.enabled(if: CLI.faketimeUsable, Comment(rawValue: CLI.faketimeMissing)))
    func aClockYearsAheadRemovesNoFolderBlobAlone() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try FileManager.default.createDirectory(atPath: laptops.folder, withIntermediateDirectories: true)
        _ = try laptops.run("alex", day: 0, ["init", "--device-name", "Alex's laptop"])
        let trip = try laptops.run("alex", day: 0, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let item = try laptops.run("alex", day: 0, ["add", "Museum", "--day", "2027-06-08"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.sync("alex", day: 0)
        // A blob nothing names yet, as if another laptop had just put it there (written now).
        let bytes = Array("photo bytes on their way".utf8)
        let blobs = laptops.folder + "/" + trip + "/blobs"
        try FileManager.default.createDirectory(atPath: blobs, withIntermediateDirectories: true)
        let blob = blobs + "/" + AttachmentFiles.sha256(bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: blob))
        // Ten years ahead by this laptop's clock alone: kept.
        let fast = try laptops.run("alex", day: 3650, ["gc", "--folder", laptops.folder])
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(FileManager.default.fileExists(atPath: blob), "removed by a clock ten years ahead: \(fast.stdout)")
        // Every device (here, alex) has written and published past the blob's age plus the
        // retention: the blob goes.
        #expect(try laptops.run("alex", day: 200, ["edit", item, "--note", "closed on Mondays"]).status == 0)
        try laptops.sync("alex", day: 200)
        let later = try laptops.run("alex", day: 200, ["gc", "--folder", laptops.folder])
        #expect(later.status == 0, "\(later.stderr)")
        #expect(!FileManager.default.fileExists(atPath: blob), "\(later.stdout)")
    }
}

extension Laptops {
    /// Runs tripsync on laptop `who` under faketime, `day` days after 2027-01-01T09:00:00Z.
    func run(_ who: String, day: Int, _ arguments: [String]) throws -> CLIResult {
        let stamp = "@\(1_798_794_000 + day * 86_400)"  // 2027-01-01T09:00:00Z + days
        return try run(who, arguments, through: [CompactionCommandTests.faketime, stamp], cwd: CLI.root)
    }

    /// Laptop `who` syncs on `day` (expected to work).
    func sync(_ who: String, day: Int) throws {
        let result = try run(who, day: day, ["sync", folder])
        #expect(result.status == 0, "\(who) on day \(day): \(result.stderr)")
    }
}
