import Foundation
import Testing

/// `tripsync export --html` as a person runs it: the page does not depend on the machine's zone,
/// a file and stdout hold the same bytes, and mistakes are usage errors.
@Suite struct ItineraryPageCLITests {
    /// A home holding the Lisbon sample (a flight across zones, whole-day items, conflicts).
    static func sampleHome() throws -> String {
        let home = CLI.alexHome()
        let imported = try CLI.run(["--home", home, "import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return home
    }

    static let fixedTime = ["SOURCE_DATE_EPOCH": "1796292000"]  // 2026-12-03T10:00:00Z

    @Test(arguments: ["Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "America/New_York"])
    func thePageDoesNotDependOnTheMachinesZone(tz: String) throws {
        let home = try Self.sampleHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let reference = try CLI.run(["--home", home, "export", "--html", "-"], environment: Self.fixedTime.merging(["TZ": "UTC"]) { $1 })
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(reference.stdout.contains("<time datetime=\"2026-12-03T10:00:00Z\">2026-12-03 10:00 UTC</time>"))
        #expect(reference.stdout.contains("data-duration-minutes=\"480\""), "the sample's Lisbon → New York flight is 8 h")
        let other = try CLI.run(["--home", home, "export", "--html", "-"], environment: Self.fixedTime.merging(["TZ": tz]) { $1 })
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.stdout == reference.stdout, "TZ=\(tz) changed the page")
    }

    @Test func aFileAndStdoutHoldTheSameBytes() throws {
        let home = try Self.sampleHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = home + "/trip.html"
        let written = try CLI.run(["--home", home, "export", "--html", file], environment: Self.fixedTime)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.hasPrefix("wrote \(file): "))
        let printed = try CLI.run(["--home", home, "export", "--html", "-"], environment: Self.fixedTime)
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(String(decoding: bytes, as: UTF8.self) == printed.stdout)
        #expect(printed.stderr.isEmpty)
        // Both formats at once.
        let both = try CLI.run(["--home", home, "export", "--html", file, "--ics", home + "/trip.ics", "--force"], environment: Self.fixedTime)
        #expect(both.status == 0, "\(both.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/trip.ics"))
    }

    @Test(arguments: [
        (["export", "--html"], [String: String]()),
        (["export", "--html", "-", "--ics", "-"], [:]),
        (["export", "--html", "-"], ["SOURCE_DATE_EPOCH": "yesterday"]),
        (["export", "stray", "--html", "-"], [:]),
    ])
    func mistakesAreUsageErrors(arguments: [String], environment: [String: String]) throws {
        let home = try Self.sampleHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run(["--home", home] + arguments, environment: environment)
        #expect(result.status == 2, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("tripsync: error: "), "\(result.stderr)")
    }
}
