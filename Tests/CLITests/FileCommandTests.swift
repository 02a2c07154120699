import Foundation
import Testing

/// validate, merge, migrate and fingerprint, run as a user runs them.
@Suite struct FileCommandTests {
    let samples = CLI.root + "/samples"

    @Test func validateReportsAndSetsTheExitStatus() throws {
        let ok = try CLI.run(["validate", "samples/lisbon-new-york.trip.json", "samples/lisbon-new-york.trip.json.gz"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("OK       samples/lisbon-new-york.trip.json.gz (schema 2)"))
        let bad = try CLI.run(["validate", "samples/lisbon-new-york.trip.json", "samples/invalid/title-too-long.trip.json"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("INVALID  samples/invalid/title-too-long.trip.json"))
        #expect(bad.stdout.contains("/title/value: expected a title of 1 to 200 characters, found 201"))
        let usage = try CLI.run(["validate"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("tripsync: error: validate needs at least one FILE"))
        let unknown = try CLI.run(["validate", "--frobnicate", "x"])
        #expect(unknown.status == 2)
    }

    @Test func validateJSONHasTheContractShape() throws {
        let result = try CLI.run(["validate", "--json", "samples/warnings/unknown-zone.trip.json", "samples/invalid/empty.trip.json"])
        #expect(result.status == 1)
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        let reports = try #require(value)
        #expect(reports.count == 2)
        #expect(reports[0]["valid"] as? Bool == true)
        #expect(reports[0]["schemaVersion"] as? Int == 2)
        #expect((reports[0]["warnings"] as? [[String: Any]])?.first?["path"] as? String != nil)
        #expect(reports[1]["valid"] as? Bool == false)
        #expect(((reports[1]["errors"] as? [[String: Any]])?.first?["message"] as? String)?.contains("empty") == true)
        #expect(result.stderr.isEmpty)
    }

    @Test func mergeWritesGzipByNameAndIsOrderIndependent() throws {
        let home = CLI.alexHome()
        let out = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: home) }
        let a = try CLI.run(["--home", home, "merge", "samples/v1/porto-alex.trip.json", "samples/v1/porto-sam.trip.json", "-o", out + "/m1.trip.json.gz"])
        let b = try CLI.run(["--home", home, "merge", "samples/v1/porto-sam.trip.json", "samples/v1/porto-alex.trip.json", "-o", out + "/m2.trip.json.gz"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout.contains("merged 2 files: 11 items, 1 deleted item, 0 conflicts"))
        #expect(b.stdout.contains("1 field changed"))
        let m1 = try #require(FileManager.default.contents(atPath: out + "/m1.trip.json.gz"))
        let m2 = try #require(FileManager.default.contents(atPath: out + "/m2.trip.json.gz"))
        #expect(m1 == m2)
        #expect(m1.prefix(2) == Data([0x1F, 0x8B]))
        let f1 = try CLI.run(["fingerprint", out + "/m1.trip.json.gz"])
        let f2 = try CLI.run(["fingerprint", "samples/v1/porto-merged.expected.trip.json"])
        #expect(f1.status == 0 && f1.stdout == f2.stdout && f1.stdout.count == 65)
    }

    @Test func mergeJSONAndDryRun() throws {
        let home = CLI.alexHome()
        let out = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: home) }
        let result = try CLI.run([
            "--home", home, "merge", "samples/lisbon-new-york.trip.json", "samples/v1/porto-alex.trip.json", "-o", out + "/m.json",
        ])
        #expect(result.status == 1, "different trips are refused")
        #expect(result.stderr.contains("different trips"))
        let dry = try CLI.run(["--home", home, "merge", "samples/v1/porto-alex.trip.json", "samples/v1/porto-sam.trip.json", "-o", out + "/m.json", "--dry-run", "--json"])
        #expect(dry.status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/m.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        #expect(object["items"] as? Int == 11)
        #expect(object["tombstones"] as? Int == 1)
        #expect(object["conflicts"] as? Int == 0)
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["schemaVersion"] as? Int } == [1, 1])
        #expect(inputs.first?["deviceId"] as? String == "a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d")
    }

    @Test(arguments: ["samples/invalid/title-too-long.trip.json", "samples/invalid/schema-version-newer.trip.json", "samples/invalid/truncated.trip.json.gz"])
    func oneBadInputRefusesTheWholeMergeAndLeavesOutUntouched(bad: String) throws {
        let home = CLI.alexHome()
        let out = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: home) }
        let target = out + "/existing.trip.json"
        let before = Data("previous content\n".utf8)
        FileManager.default.createFile(atPath: target, contents: before)
        // --force: the refusal tested is the bad input's, not the existing file's.
        let result = try CLI.run(["--home", home, "merge", "samples/lisbon-new-york.trip.json", bad, "-o", target, "--force"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tripsync: error: \(bad): "))
        #expect(FileManager.default.contents(atPath: target) == before)
        let migrate = try CLI.run(["migrate", bad, "-o", target, "--force"])
        #expect(migrate.status == 1)
        #expect(FileManager.default.contents(atPath: target) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["existing.trip.json"])
    }

    @Test func newerSchemaMessageNamesBothVersions() throws {
        let result = try CLI.run(["migrate", "samples/invalid/schema-version-newer.trip.json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "tripsync: error: samples/invalid/schema-version-newer.trip.json: /schemaVersion: written by a newer TripSync: schema 8, this build reads up to 7\n")
    }

    @Test(arguments: ["UTC", "America/New_York", "Europe/Lisbon", "Australia/Lord_Howe", "Pacific/Kiritimati", "Asia/Kathmandu"])
    func migrationDoesNotDependOnTheMachinesZone(tz: String) throws {
        let result = try CLI.run(["migrate", "samples/v1/porto-alex.trip.json"], environment: ["TZ": tz])
        #expect(result.status == 0)
        #expect(result.stderr.contains("11 items, 1 deleted item, 1 item with unconfirmed local edits"))
        let reference = try CLI.run(["migrate", "samples/v1/porto-alex.trip.json"], environment: ["TZ": "UTC"])
        #expect(result.stdout == reference.stdout)
        #expect(result.stdout.contains(#""local":"2027-10-31T01:30","zone":"Europe/Lisbon""#))
        #expect(result.stdout.contains(#""local":"2027-06-13T08:30","zone":"Pacific/Kiritimati""#))
    }

    @Test func helpListsEveryCommand() throws {
        let result = try CLI.run(["help"])
        #expect(result.status == 0)
        for command in ["validate", "migrate", "merge", "fingerprint"] { #expect(result.stdout.contains("  \(command) ")) }
        let merge = try CLI.run(["merge", "--help"])
        #expect(merge.stdout.hasPrefix("usage: tripsync merge"))
        let none = try CLI.run([])
        #expect(none.status == 2)
    }

    @Test func demoShowsAConflictMergedAndResolved() throws {
        let result = try CLI.run(["demo"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("alex$ tripsync conflicts"))
        #expect(result.stdout.contains("changed the title to \"Lunch at Time Out Market\""))
        #expect(result.stdout.contains("saved: kept \"Lunch at Time Out Market\""))
        #expect(result.stdout.contains("Both laptops hold the same trip: nothing anyone typed was lost.\n"))
    }
}
