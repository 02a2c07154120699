import Foundation
import Testing

/// The laptop commands against temporary homes, run as the built binary.
@Suite struct ReplicaCommandTests {
    /// A fresh home with one trip; returns the home and the trip id.
    func newTrip(zone: String = "Europe/Lisbon", open: Bool = false) throws -> (home: String, trip: String) {
        let home = CLI.temporaryFolder()
        let result = try CLI.run(["--home", home, "new", "Lisbon 2027", "--zone", zone] + (open ? ["--open"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        return (home, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func run(_ home: String, _ arguments: [String], env: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(["--home", home] + arguments, environment: env)
    }

    func tripFile(_ home: String, _ trip: String) -> Data? {
        FileManager.default.contents(atPath: home + "/trips/\(trip).trip.json.gz")
    }

    @Test func addShowAndTheJSONContract() throws {
        let (home, trip) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let flight = try run(home, ["add", "TP 201", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T13:00", "--end-zone", "America/New_York"])
        #expect(flight.status == 0)
        let id = flight.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 36)
        _ = try run(home, ["add", "Pack", "--day", "2027-06-09"])
        _ = try run(home, ["add", "Buy cards"])
        let json = try run(home, ["show", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["tripId"] as? String == trip)
        #expect(object["name"] as? String == "Lisbon 2027")
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2027-06-09", "2027-06-10"])
        let item = try #require((days[1]["items"] as? [[String: Any]])?.first)
        #expect(item["id"] as? String == id)
        let start = try #require(item["start"] as? [String: Any])
        #expect(start["local"] as? String == "2027-06-10T10:00")
        #expect(start["zone"] as? String == "Europe/Lisbon")
        #expect(start["instant"] as? String == "2027-06-10T09:00:00Z")
        #expect((item["end"] as? [String: Any])?["instant"] as? String == "2027-06-10T17:00:00Z")
        #expect(item["conflicts"] as? Int == 0)
        for key in ["title", "sortKey", "place", "note"] { #expect(item.keys.contains(key)) }
        #expect((object["unscheduled"] as? [[String: Any]])?.count == 1)
        let human = try run(home, ["show"])
        #expect(human.stdout.contains("Thursday 2027-06-10"))
        #expect(human.stdout.contains("(8 h)"), "Lisbon 10:00 to New York 13:00 is eight hours")
        #expect(human.stdout.contains("Unscheduled"))
    }

    @Test(arguments: ["UTC", "America/New_York", "Europe/Lisbon", "Australia/Lord_Howe", "Pacific/Kiritimati", "Asia/Kathmandu"])
    func showDoesNotDependOnTheMachinesZone(tz: String) throws {
        let (home, _) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try run(home, ["add", "Gap", "--day", "2027-03-28", "--at", "01:30"])
        _ = try run(home, ["add", "Overlap", "--day", "2027-10-31", "--at", "01:30"])
        _ = try run(home, ["add", "Kathmandu call", "--day", "2027-06-13", "--at", "16:00", "--zone", "Asia/Kathmandu"])
        _ = try run(home, ["add", "Lord Howe", "--day", "2027-10-03", "--at", "02:15", "--zone", "Australia/Lord_Howe"])
        let reference = try run(home, ["show", "--json"], env: ["TZ": "UTC"])
        let here = try run(home, ["show", "--json"], env: ["TZ": tz])
        #expect(here.stdout == reference.stdout)
        let human = try run(home, ["show"], env: ["TZ": tz])
        #expect(human.stdout.contains("01:30 does not exist that day (the clocks go forward); moved forward 1 h"))
        #expect(human.stdout.contains("02:30"), "the gap time is shown where it lands")
        #expect(human.stdout.contains("01:30 happens twice that day (the clocks go back); the first is used"))
        // Lord Howe moves its clocks by half an hour.
        #expect(human.stdout.contains("moved forward 30 min"))
        #expect(reference.stdout.contains("\"instant\":\"2027-06-13T10:15:00Z\""))
        #expect(reference.stdout.contains("\"instant\":\"2027-10-31T00:30:00Z\""), "overlap: the earlier offset")
        #expect(reference.stdout.contains("\"instant\":\"2027-03-28T01:30:00Z\""), "gap: moved forward")
        let viewer = try run(home, ["show", "--in", "America/New_York"], env: ["TZ": tz])
        #expect(viewer.stdout.contains("06:15 EDT"), "Kathmandu 16:00 is New York 06:15 (daylight time)")
        #expect(human.stdout.contains("WEST"), "Lisbon summer time by its name, whatever the machine")
    }

    @Test func editWritesOnlyWhatChangesAndClearWritesNull() throws {
        let (home, trip) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let id = try run(home, ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30", "--place", "Mercado"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try #require(tripFile(home, trip))
        let same = try run(home, ["edit", String(id.prefix(6)), "--place", "Mercado", "--title", "Lunch"])
        #expect(same.status == 0)
        #expect(same.stdout == "nothing changed\n")
        #expect(tripFile(home, trip) == before, "an edit that changes nothing writes nothing")
        let changed = try run(home, ["edit", String(id.prefix(6)), "--place", "Mercado", "--note", "Book"])
        #expect(changed.stdout == "saved: note\n")
        let cleared = try run(home, ["edit", String(id.prefix(6)), "--clear", "place"])
        #expect(cleared.stdout == "saved: place\n")
        let json = try run(home, ["show", "--json"]).stdout
        #expect(json.contains("\"place\":null"))
        #expect(json.contains("\"note\":\"Book\""))
        // The replica stays a valid trip file.
        let validate = try CLI.run(["validate", home + "/trips/\(trip).trip.json.gz"])
        #expect(validate.status == 0)
    }

    @Test(arguments: [
        (["add", "X", "--day", "2027-02-30"], 2, "--day expects a date"),
        (["add", "X", "--day", "2027-06-10", "--at", "24:00"], 2, "--at expects a time"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "+01:00"], 2, "never a fixed offset"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "Europe/Lisbonn"], 2, "unknown to this machine"),
        (["add", "X", "--colour", "red"], 2, "unknown option --colour"),
        (["add", ""], 2, "cannot be empty"),
        (["edit", "ffffffff", "--title", "Y"], 1, "no item matches"),
        (["edit", "ff", "--title", "Y"], 2, "at least 4 characters"),
        (["delete", "ffffffff"], 1, "no item matches"),
        (["resolve", "ffffffff", "color", "--keep", "mine"], 2, "FIELD is one of"),
        (["move", "ffffffff"], 2, "exactly one of"),
    ] as [([String], Int32, String)])
    func badInputChangesNothing(arguments: [String], status: Int32, message: String) throws {
        let (home, trip) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try run(home, ["add", "Existing", "--day", "2027-06-10"])
        let before = try #require(tripFile(home, trip))
        let result = try run(home, arguments)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix("tripsync: error: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(tripFile(home, trip) == before)
    }

    @Test func moveOrdersItemsOfTheSameDay() throws {
        let (home, _) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var ids: [String] = []
        for title in ["A", "B", "C"] {
            ids.append(try run(home, ["add", title, "--day", "2027-06-10"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        func order() throws -> [String] {
            let json = try run(home, ["show", "--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let items = ((object?["days"] as? [[String: Any]])?.first?["items"] as? [[String: Any]]) ?? []
            return items.compactMap { $0["title"] as? String }
        }
        #expect(try order() == ["A", "B", "C"])
        #expect(try run(home, ["move", ids[2], "--first"]).status == 0)
        #expect(try order() == ["C", "A", "B"])
        #expect(try run(home, ["move", ids[2], "--after", ids[0]]).status == 0)
        #expect(try order() == ["A", "C", "B"])
        #expect(try run(home, ["move", ids[0], "--last"]).status == 0)
        #expect(try order() == ["C", "B", "A"])
        #expect(try run(home, ["add", "D", "--day", "2027-06-10", "--before", ids[1]]).status == 0)
        #expect(try order() == ["C", "D", "B", "A"])
    }

    /// A backup of an owned trip imported on another laptop is read-only there until the owner
    /// approves that laptop, which the owner's sync lists as pending from its signed file.
    @Test func anImportedOwnedTripIsReadOnlyUntilTheOwnerApproves() throws {
        let (alex, _) = try newTrip()
        let sam = CLI.temporaryFolder()
        let shared = CLI.temporaryFolder()
        defer { for path in [alex, sam, shared] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try run(sam, ["init", "--device-name", "Sam's laptop"])
        _ = try run(alex, ["add", "Lunch", "--day", "2027-06-08"])
        _ = try run(alex, ["backup", "-o", shared + "/a.trip.json.gz"])
        #expect(try run(sam, ["import", shared + "/a.trip.json.gz", "--merge", "--yes"]).status == 0)
        let refused = try run(sam, ["add", "Dinner", "--day", "2027-06-08"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("this laptop is not yet a member of \"Lisbon 2027\""))
        let folder = shared + "/sync"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let samSync = try run(sam, ["sync", folder])
        #expect(samSync.stdout.contains("this laptop is not a member of this trip"), "\(samSync.stdout)")
        let alexSync = try run(alex, ["sync", folder])
        #expect(alexSync.stderr.contains("is not a member of this trip"), "\(alexSync.stderr)")
        let members = try run(alex, ["members", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(members.stdout.utf8)) as? [[String: Any]])
        // Sam's laptop is no member, so it names itself nowhere in the trip (a member's name is
        // in its grant): the pending entry is its signed file's device.
        let pending = try #require(list.first { $0["pending"] as? Bool == true && $0["key"] is String })
        let device = try #require(pending["device"] as? String)
        #expect(pending["key"] is String)
        #expect(try run(alex, ["members", "approve", String(device.prefix(8))]).status == 0)
        _ = try run(alex, ["sync", folder])
        _ = try run(sam, ["sync", folder])
        let added = try run(sam, ["add", "Dinner", "--day", "2027-06-08"])
        #expect(added.status == 0, "\(added.stderr)")
        _ = try run(sam, ["sync", folder])
        _ = try run(alex, ["sync", folder])
        #expect(try run(alex, ["show"]).stdout.contains("Dinner"))
    }

    @Test func twoLaptopsConflictResolveDeleteRestore() throws {
        // An open trip: Sam's laptop edits a copy it imported, with no invite.
        let (alex, _) = try newTrip(open: true)
        let sam = CLI.temporaryFolder()
        let shared = CLI.temporaryFolder()
        defer { for path in [alex, sam, shared] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try run(alex, ["init", "--device-name", "Alex's laptop"])
        _ = try run(sam, ["init", "--device-name", "Sam's laptop"])
        let lunch = try run(alex, ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let museum = try run(alex, ["add", "Museum", "--day", "2027-06-09"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try run(alex, ["backup", "-o", shared + "/a.trip.json.gz"])
        let imported = try run(sam, ["import", shared + "/a.trip.json.gz", "--merge", "--yes"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2 items, 0 deleted items, 0 conflicts"))
        _ = try run(alex, ["edit", lunch, "--title", "Lunch at Time Out"])
        _ = try run(alex, ["edit", museum, "--note", "Closed Tuesdays"])
        _ = try run(sam, ["edit", lunch, "--title", "Lunch at Ramiro"])
        _ = try run(sam, ["delete", museum])
        _ = try run(sam, ["backup", "-o", shared + "/s.trip.json.gz"])
        _ = try run(alex, ["import", shared + "/s.trip.json.gz", "--merge", "--yes"])
        let conflicts = try run(alex, ["conflicts", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(conflicts.stdout.utf8)) as? [[String: Any]])
        let title = try #require(list.first { $0["field"] as? String == "title" })
        let values = [title["current"]] + ((title["alternatives"] as? [Any]) ?? [])
        let texts = values.compactMap { ($0 as? [String: Any])?["value"] as? String }
        #expect(Set(texts) == ["Lunch at Time Out", "Lunch at Ramiro"])
        let deleted = try #require(list.first { $0["kind"] as? String == "deleted-while-edited" })
        #expect(deleted["item"] as? String == museum)
        #expect(((deleted["edits"] as? [[String: Any]])?.first?["value"] as? String) == "Closed Tuesdays")
        let human = try run(alex, ["conflicts"])
        #expect(human.stdout.contains("Sam's laptop changed the title to \"Lunch at Ramiro\"") || human.stdout.contains("current: \"Lunch at Ramiro\" by Sam's laptop"))
        #expect(try run(alex, ["resolve", lunch, "title", "--keep", "mine"]).stdout == "saved: kept \"Lunch at Time Out\"\n")
        #expect(try run(alex, ["restore", museum]).status == 0)
        #expect(try run(alex, ["conflicts"]).stdout == "no conflicts\n")
        _ = try run(alex, ["backup", "-o", shared + "/a.trip.json.gz", "--force"])
        _ = try run(sam, ["import", shared + "/a.trip.json.gz", "--merge", "--yes"])
        let a = try run(alex, ["fingerprint"]).stdout
        let s = try run(sam, ["fingerprint"]).stdout
        #expect(a == s)
        #expect(try run(sam, ["show"]).stdout.contains("Museum"))
        let status = try run(sam, ["status"])
        #expect(status.stdout.contains("Alex's laptop"))
    }

    @Test func importNeedsAChoiceAwayFromATerminal() throws {
        let (home, _) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try run(home, ["import", CLI.root + "/samples/lisbon-new-york.trip.json"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("19 items, 2 deleted items, 2 conflicts (1 field, 1 item edited while deleted)"), "it shows what the file holds first")
        #expect(result.stderr.contains("give --merge, or --replace together with --yes"), "\(result.stderr)")
        let newer = try run(home, ["import", CLI.root + "/samples/invalid/schema-version-newer.trip.json", "--merge", "--yes"])
        #expect(newer.status == 1)
        #expect(newer.stderr.contains("written by a newer TripSync: schema 8, this build reads up to 7"))
    }

    @Test func concurrentProcessesNeverLoseEachOthersWrites() throws {
        let (home, _) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let group = DispatchGroup()
        let failures = LockedCounter()
        for worker in 0..<4 {
            DispatchQueue.global().async(group: group) {
                for index in 0..<5 {
                    let result = try? CLI.run(["--home", home, "add", "w\(worker)-\(index)", "--day", "2027-06-10"])
                    if result?.status != 0 { failures.increment() }
                }
            }
        }
        group.wait()
        #expect(failures.value == 0)
        let json = try run(home, ["show", "--json"]).stdout
        let titles = Set((0..<4).flatMap { w in (0..<5).map { "w\(w)-\($0)" } })
        for title in titles { #expect(json.contains("\"title\":\"\(title)\""), "lost \(title)") }
    }

    @Test func killedMidEditTheReplicaStaysValidAndKeepsEveryAcknowledgedChange() throws {
        let (home, trip) = try newTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var acknowledged: [String] = []
        var random = SystemRandomNumberGenerator()
        for round in 0..<25 {
            let title = "item \(round)"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["--home", home, "add", title, "--day", "2027-06-10", "--note", String(repeating: "x", count: 2000)]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // SIGKILL at a random moment: before, during or after the durable write.
            usleep(UInt32.random(in: 0...25_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if process.terminationReason == .exit && process.terminationStatus == 0 && printed.count >= 36 { acknowledged.append(title) }
            if FileManager.default.fileExists(atPath: home + "/trips/\(trip).trip.json.gz") {
                let check = try CLI.run(["validate", home + "/trips/\(trip).trip.json.gz"])
                #expect(check.status == 0, "round \(round): \(check.stdout)")
            }
        }
        let json = try run(home, ["show", "--json"]).stdout
        for title in acknowledged { #expect(json.contains("\"title\":\"\(title)\""), "an acknowledged change was lost: \(title)") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home + "/trips").filter { $0.contains(".tmp-") }
        #expect(leftovers.count <= 25, "temp files are only ever left by killed writers")
    }
}

/// A counter safe to bump from several threads.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
