import Foundation
import Testing

/// Several homes and one shared folder, run as the built binary.
@Suite struct SyncCommandTests {
    @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]])
    func threeLaptopsConvergeInAnySyncOrder(order: [Int]) throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let names = ["alex", "sam", "kim"]
        let (trip, items) = try laptops.twoItemTrip(names)
        // Everyone joins; device names spread within three rounds whatever the order.
        for _ in 0..<3 { for index in order { _ = try laptops.syncJSON(names[index]) } }
        #expect(try Set(names.map(laptops.fingerprint)).count == 1, "every laptop joined the trip")
        // Concurrent edits: two titles, a note, a delete against an edit.
        _ = try laptops.run("alex", ["edit", items[0], "--title", "Lunch at Time Out"])
        _ = try laptops.run("sam", ["edit", items[0], "--title", "Lunch at Ramiro"])
        _ = try laptops.run("kim", ["edit", items[0], "--note", "Book for 3"])
        _ = try laptops.run("sam", ["delete", items[1]])
        _ = try laptops.run("alex", ["edit", items[1], "--note", "Closed Tuesdays"])
        for _ in 0..<3 { for index in order { _ = try laptops.syncJSON(names[index]) } }
        let prints = try names.map(laptops.fingerprint)
        #expect(Set(prints).count == 1, "converged: \(prints)")
        for name in names {
            let conflicts = try laptops.run(name, ["conflicts", "--json"]).stdout
            #expect(conflicts.contains("Lunch at Time Out") && conflicts.contains("Lunch at Ramiro"), "\(name) sees the title conflict")
            #expect(conflicts.contains("deleted-while-edited"), "\(name) sees the museum edited while deleted")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: laptops.folder + "/" + trip)
        #expect(files.filter { $0.hasSuffix(".trip.json.gz") }.count == 3, "one file per device: \(files)")
        let status = try laptops.run("alex", ["status"]).stdout
        #expect(status.contains("all"), "\(status)")
    }

    @Test func aSecondSyncParsesNothingNew() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        _ = try laptops.twoItemTrip(["alex", "sam"])
        _ = try laptops.syncJSON("alex")
        _ = try laptops.syncJSON("sam")
        _ = try laptops.syncJSON("alex")
        let again = try laptops.syncJSON("alex")
        #expect((again["merged"] as? [Any])?.isEmpty == true)
        #expect((again["unchanged"] as? [Any])?.count == 2)
    }

    @Test func hostileFilesAreSkippedWithAReasonAndNothingElseStops() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.twoItemTrip(["alex", "sam"])
        _ = try laptops.syncJSON("alex")
        let tripFolder = laptops.folder + "/" + trip
        let manager = FileManager.default
        let published = try #require(try manager.contentsOfDirectory(atPath: tripFolder).first)
        let good = try #require(manager.contents(atPath: tripFolder + "/" + published))
        manager.createFile(atPath: tripFolder + "/truncated.trip.json.gz", contents: good.prefix(good.count / 2))
        manager.createFile(atPath: tripFolder + "/random.trip.json", contents: Data((0..<500).map { _ in UInt8.random(in: 0...255) }))
        manager.createFile(atPath: tripFolder + "/newer.trip.json", contents: manager.contents(atPath: CLI.root + "/samples/invalid/schema-version-newer.trip.json"))
        manager.createFile(atPath: tripFolder + "/other-trip.trip.json", contents: manager.contents(atPath: CLI.root + "/samples/lisbon-new-york.trip.json"))
        manager.createFile(atPath: tripFolder + "/.syncthing.x.trip.json.gz.tmp", contents: good)
        manager.createFile(atPath: tripFolder + "/notes.txt", contents: Data("hello".utf8))
        try manager.createDirectory(atPath: tripFolder + "/folder.trip.json.gz", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: tripFolder + "/gone.trip.json.gz", withDestinationPath: tripFolder + "/vanished.trip.json.gz")
        try manager.createDirectory(atPath: laptops.folder + "/not-a-trip", withIntermediateDirectories: true)
        manager.createFile(atPath: laptops.folder + "/00000000-0000-4000-8000-000000000abc", contents: Data("x".utf8))
        let result = try laptops.run("sam", ["sync", laptops.folder, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let skipped = (report["skipped"] as? [[String: String]]) ?? []
        func reason(_ name: String) -> String { skipped.first { $0["file"]?.hasSuffix("/" + name) == true }?["reason"] ?? "" }
        #expect(reason("truncated.trip.json.gz").contains("truncated"))
        #expect(!reason("random.trip.json").isEmpty)
        #expect(reason("newer.trip.json").contains("newer TripSync: schema 8"))
        #expect(reason("other-trip.trip.json").contains("belongs to trip"))
        #expect(reason(".syncthing.x.trip.json.gz.tmp").contains("temporary"))
        #expect(reason("notes.txt").contains("not a trip file"))
        #expect(reason("folder.trip.json.gz").contains("not a regular file"))
        #expect(reason("gone.trip.json.gz").contains("symbolic link"))
        #expect(reason("00000000-0000-4000-8000-000000000abc").contains("not a folder"), "a trip this home lacks: reported, nothing fails")
        #expect((report["merged"] as? [String])?.count == 1, "the good file was still merged")
        #expect(result.stderr.contains("tripsync: warning: "))
        // Nothing of anyone else's was deleted or rewritten.
        #expect(manager.contents(atPath: tripFolder + "/" + published) == good)
        #expect(manager.fileExists(atPath: tripFolder + "/truncated.trip.json.gz"))
        _ = try laptops.run("alex", ["sync", laptops.folder])
        #expect(try laptops.fingerprint("alex") == laptops.fingerprint("sam"))
    }

    @Test func conflictedCopiesAreMergedAndOurOwnAreRemovedAfterPublishing() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, items) = try laptops.twoItemTrip(["alex", "sam"])
        _ = try laptops.syncJSON("alex")
        _ = try laptops.syncJSON("sam")
        let tripFolder = laptops.folder + "/" + trip
        let manager = FileManager.default
        let alexDevice = try #require(try laptops.run("alex", ["init"]).stdout.split(separator: "\n").last?.split(separator: " ")[1]).description
        // Alex edits and backs up; the backup lands as a cloud conflicted copy of Alex's file.
        _ = try laptops.run("alex", ["edit", items[0], "--title", "Lunch (from a conflicted copy)"])
        let copy = tripFolder + "/\(alexDevice).sync-conflict-20261129-101010-ABCDEFG.trip.json.gz"
        _ = try laptops.run("alex", ["backup", "-o", copy])
        let samCopy = tripFolder + "/sam (conflicted copy 2026-11-29).trip.json.gz"
        try manager.copyItem(atPath: copy, toPath: samCopy)
        // Sam merges both copies but deletes neither (they are not Sam's).
        let samReport = try laptops.syncJSON("sam")
        #expect((samReport["merged"] as? [String])?.contains(copy) == true)
        #expect(manager.fileExists(atPath: copy) && manager.fileExists(atPath: samCopy))
        #expect(try laptops.run("sam", ["show"]).stdout.contains("Lunch (from a conflicted copy)"))
        // Alex merges its own conflicted copy, publishes, then removes the copy.
        let alexReport = try laptops.syncJSON("alex")
        #expect((alexReport["removed"] as? [String]) == [copy])
        #expect(!manager.fileExists(atPath: copy))
        #expect(manager.fileExists(atPath: samCopy))
    }

    @Test func aStaleBackupImportedLaterBringsNothingBack() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (_, items) = try laptops.twoItemTrip(["alex", "sam"])
        let stale = laptops.root + "/old.trip.json.gz"
        _ = try laptops.run("alex", ["backup", "-o", stale])
        _ = try laptops.run("alex", ["delete", items[1]])
        _ = try laptops.syncJSON("alex")
        _ = try laptops.syncJSON("sam")
        for who in ["alex", "sam"] {
            let result = try laptops.run(who, ["import", stale, "--merge", "--yes"])
            #expect(result.status == 0)
            #expect(!(try laptops.run(who, ["show"]).stdout.contains("Museum")), "\(who): the museum stays deleted")
        }
    }

    @Test func aCopiedHomeIsCaughtAndNothingIsLost() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (_, items) = try laptops.twoItemTrip(["alex"])
        _ = try laptops.syncJSON("alex")
        // The whole home is copied (a VM snapshot): both copies write under one device id.
        try FileManager.default.copyItem(atPath: laptops.home("alex"), toPath: laptops.home("clone"))
        _ = try laptops.run("alex", ["edit", items[0], "--title", "Alex's title"])
        _ = try laptops.run("clone", ["edit", items[1], "--note", "Clone's note"])
        _ = try laptops.run("clone", ["edit", items[0], "--place", "Clone's place"])
        let alexSync = try laptops.run("alex", ["sync", laptops.folder])
        #expect(alexSync.status == 0)
        let cloneSync = try laptops.run("clone", ["sync", laptops.folder])
        #expect(cloneSync.status == 0)
        #expect(try laptops.deviceID("clone") != laptops.deviceID("alex"), "the copy took a new id before its first write")
        _ = try laptops.syncJSON("alex")
        _ = try laptops.syncJSON("clone")
        _ = try laptops.syncJSON("alex")
        #expect(try laptops.fingerprint("alex") == laptops.fingerprint("clone"))
        let shown = try laptops.run("alex", ["show", "--json"]).stdout
        for value in ["Alex's title", "Clone's note", "Clone's place"] { #expect(shown.contains(value), "lost \(value)") }
        #expect(try laptops.run("alex", ["conflicts"]).stdout == "no conflicts\n", "values both copies shared are not resurrected")
    }

    @Test func watchResyncsOnChangeAndStopsCleanlyOnSIGINT() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (_, items) = try laptops.twoItemTrip(["alex", "sam"])
        _ = try laptops.syncJSON("alex")
        _ = try laptops.syncJSON("sam")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["--home", laptops.home("alex"), "sync", laptops.folder, "--watch"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        usleep(700_000)
        _ = try laptops.run("sam", ["edit", items[0], "--title", "Edited on Sam's laptop"])
        _ = try laptops.syncJSON("sam")
        var seen = false
        for _ in 0..<100 where !seen {
            usleep(100_000)
            seen = (try? laptops.run("alex", ["show"]).stdout.contains("Edited on Sam's laptop")) ?? false
        }
        #expect(seen, "the watching sync merged Sam's change by itself")
        kill(process.processIdentifier, SIGINT)
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        #expect(!process.isRunning, "stopped on SIGINT")
        if !process.isRunning {
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        }
    }
}

extension Laptops {
    /// `sync --json` on laptop `who` (expected to work), as a JSON object.
    func syncJSON(_ who: String) throws -> [String: Any] {
        let result = try run(who, ["sync", folder, "--json"])
        #expect(result.status == 0, "\(who): \(result.stderr)")
        return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// Laptop `who`'s fingerprint of the trip.
    func fingerprint(_ who: String) throws -> String { try run(who, ["fingerprint"]).stdout }

    /// An open trip made on the first laptop with two items; every laptop named.
    func twoItemTrip(_ names: [String]) throws -> (trip: String, items: [String]) {
        for name in names { _ = try run(name, ["init", "--device-name", "\(name)'s laptop"]) }
        let trip = try run(names[0], ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"]).line
        let a = try run(names[0], ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30"]).line
        let b = try run(names[0], ["add", "Museum", "--day", "2027-06-09"]).line
        return (trip, [a, b])
    }
}
