import Foundation
import Testing

/// The smaller answers of issue 29, through the built binary: "did you mean", "not a trip
/// file", `import --merge` without `--yes`, hints that carry `--home`/`--trip`, trip name
/// prefixes, plain words in `status`, `sync` saying what changed by whom, `members set` to the
/// same role, and the demo's homes.
@Suite struct SmallAnswerTests {
    /// `tripsync --home HOME ARGS`.
    func run(_ home: String, _ arguments: [String]) throws -> CLIResult {
        try CLI.run(["--home", home] + arguments)
    }

    /// A fresh home with one open trip named `name`, made on a laptop named `device`.
    func home(_ folder: String, _ device: String, trips: [String]) throws -> String {
        let home = folder + "/" + device.filter(\.isLetter)
        #expect(try run(home, ["init", "--device-name", device]).status == 0)
        for trip in trips { #expect(try run(home, ["new", trip, "--open"]).status == 0) }
        return home
    }

    @Test func aMistypedCommandOrOptionGetsADidYouMean() throws {
        let command = try CLI.run(["snyc"])
        #expect(command.status == 2)
        #expect(command.stderr.contains("unknown command 'snyc'") && command.stderr.contains("hint: did you mean 'tripsync sync'?"), "\(command.stderr)")
        let swapped = try CLI.run(["stauts"])
        #expect(swapped.status == 2 && swapped.stderr.contains("did you mean 'tripsync status'?"), "\(swapped.stderr)")
        let option = try CLI.run(["validate", "--jsn", "x.json"])
        #expect(option.status == 2 && option.stderr.contains("did you mean '--json'?"), "\(option.stderr)")
        // Nothing close: no guess.
        let far = try CLI.run(["frobnicate"])
        #expect(far.status == 2 && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func validateOfAnUnrelatedJSONFileSaysNotATripFile() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/package.json"
        try Data(#"{"name": "x", "version": 3, "dependencies": {}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["validate", file])
        #expect(result.status == 1)
        let errors = result.stdout.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 1 && errors[0].contains("not a trip file") && errors[0].contains("schemaVersion"), "\(result.stdout)")
        let json = try CLI.run(["validate", "--json", file])
        #expect(json.stdout.contains(#""path":"""#) && json.stdout.contains("not a trip file"), "\(json.stdout)")
    }

    @Test func importMergeNeedsNoYesButReplaceDoes() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = folder + "/home"
        let sample = CLI.root + "/samples/lisbon-new-york.trip.json"
        let merge = try run(home, ["import", sample, "--merge"])
        #expect(merge.status == 0 && merge.stdout.contains("saved:"), "\(merge.stdout)\(merge.stderr)")
        let replace = try run(home, ["import", sample, "--replace"])
        #expect(replace.status == 2 && replace.stderr.contains("--yes"), "\(replace.stderr)")
    }

    @Test func hintsCarryTheHomeAndTripThePersonGave() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = try self.home(folder, "Alex", trips: ["Lisbon 2027", "Porto"])
        let added = try run(home, ["add", "Fado", "--trip", "Porto"])
        let id = String(added.stdout.prefix(8))
        let deleted = try run(home, ["delete", id, "--trip", "Porto"])
        #expect(deleted.stdout.contains("tripsync --home \(home) --trip Porto restore \(id)"), "\(deleted.stdout)")
        // `sync` takes no --trip: its hint gets only the home.
        let status = try CLI.run(["--home", home, "--trip", "Porto", "status"])
        #expect(status.stdout.contains("tripsync --home \(home) sync FOLDER"), "\(status.stdout)")
        // A library-worded refusal gets the home too.
        let missing = try run(home, ["edit", "ffffffff", "--title", "X", "--trip", "Porto"])
        #expect(missing.stderr.contains("'tripsync --home \(home) --trip Porto show'"), "\(missing.stderr)")
    }

    /// A hint addressed to the owner names the command bare: the owner may be at another laptop,
    /// where this laptop's `--home` would name the wrong home; this laptop's own next step still
    /// gets it.
    @Test func hintsForTheOwnerNameNoHomeOfThisLaptop() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let alex = folder + "/alex"
        #expect(try run(alex, ["init", "--device-name", "Alex"]).status == 0)
        #expect(try run(alex, ["new", "Lisbon"]).status == 0)
        #expect(try run(alex, ["sync", shared]).status == 0)
        let sam = folder + "/sam"
        #expect(try run(sam, ["init", "--device-name", "Sam"]).status == 0)
        let synced = try run(sam, ["sync", shared])
        let text = synced.stdout + synced.stderr
        #expect(text.contains("ask the owner for an invite (tripsync invite) and run tripsync --home \(sam) join CODE"), "\(text)")
        let code = try run(sam, ["join", "not-a-code", shared])
        #expect(code.stderr.contains("ask the owner to run tripsync invite)"), "\(code.stderr)")
    }

    @Test func aTripIsNamedByTheStartOfItsName() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = try self.home(folder, "Alex", trips: ["Lisbon 2027", "Porto"])
        let shown = try run(home, ["show", "--trip", "lis"])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("Lisbon 2027"), "\(shown.stdout)\(shown.stderr)")
        #expect(try run(home, ["new", "Lisbon later", "--open"]).status == 0)
        let ambiguous = try run(home, ["show", "--trip", "LIS"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("Lisbon 2027") && ambiguous.stderr.contains("Lisbon later") && ambiguous.stderr.contains("candidates"), "\(ambiguous.stderr)")
        #expect(try run(home, ["show", "--trip", "Lisbon 2027"]).status == 0)
    }

    @Test func statusSpeaksPlainly() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = try self.home(folder, "Alex", trips: ["Dinner"])
        #expect(try run(home, ["add", "Book a table"]).status == 0)
        let status = try run(home, ["status"])
        #expect(status.stdout.contains("of your changes are not shared yet"), "\(status.stdout)")
        for jargon in ["this device", "keep-mine", "published"] { #expect(!status.stdout.contains(jargon), "\(jargon): \(status.stdout)") }
        let json = try run(home, ["status", "--json"])
        #expect(json.stdout.contains("keepMineShare"), "\(json.stdout)")
    }

    @Test func syncSaysWhatChangedAndByWhom() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let alex = try home(folder, "Alex's laptop", trips: ["Lisbon"])
        let first = try run(alex, ["add", "Lunch"]).stdout.prefix(8)
        let second = try run(alex, ["add", "Museum"]).stdout.prefix(8)
        let shareFirst = try run(alex, ["sync", shared])
        // Two items and the trip itself (its name and zone count as one change).
        #expect(shareFirst.stdout.contains("you shared 3 changes"), "\(shareFirst.stdout)")
        let sam = folder + "/sam"
        #expect(try run(sam, ["init", "--device-name", "Sam's laptop"]).status == 0)
        #expect(try run(sam, ["sync", shared]).stdout.contains("Alex's laptop added 2 items"))
        #expect(try run(sam, ["add", "Dinner"]).status == 0)
        #expect(try run(sam, ["add", "Tram"]).status == 0)
        #expect(try run(sam, ["edit", String(first), "--title", "Long lunch"]).status == 0)
        #expect(try run(sam, ["delete", String(second)]).status == 0)
        #expect(try run(sam, ["sync", shared]).stdout.contains("you shared 4 changes"))
        let told = try run(alex, ["sync", shared])
        #expect(told.stdout.contains("Sam's laptop added 2 items, changed 1, deleted 1"), "\(told.stdout)")
        #expect(try run(sam, ["edit", String(first), "--note", "Book"]).status == 0)
        #expect(try run(sam, ["sync", shared]).status == 0)
        let json = try run(alex, ["sync", shared, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let changes = object?["changes"] as? [[String: Any]]
        #expect(changes?.count == 1, "\(json.stdout)")
        #expect(changes?.first?["name"] as? String == "Sam's laptop" && changes?.first?["changed"] as? Int == 1, "\(json.stdout)")
        #expect(changes?.first?["added"] as? Int == 0 && changes?.first?["deleted"] as? Int == 0 && changes?.first?["device"] is String, "\(json.stdout)")
        #expect(object?["merged"] != nil && object?["published"] != nil, "the keys stay: \(json.stdout)")
    }

    @Test func membersSetToTheSameRoleChangesNothing() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let a = folder + "/a"
        let b = folder + "/b"
        #expect(try run(a, ["init", "--device-name", "Laptop A"]).status == 0)
        #expect(try run(a, ["new", "Lisbon"]).status == 0)
        #expect(try run(a, ["sync", shared]).status == 0)
        let code = try run(a, ["invite", "--role", "editor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(b, ["init", "--device-name", "Laptop B"]).status == 0)
        #expect(try run(b, ["join", code, shared]).status == 0)
        #expect(try run(a, ["sync", shared]).status == 0)
        let same = try run(a, ["members", "set", "Laptop B", "--role", "editor"])
        #expect(same.status == 0 && same.stdout.contains("is already an editor; nothing changed"), "\(same.stdout)\(same.stderr)")
        #expect(!same.stdout.contains("is now"))
        let changed = try run(a, ["members", "set", "Laptop B", "--role", "viewer"])
        #expect(changed.status == 0 && changed.stdout.contains("is now viewer"), "\(changed.stdout)\(changed.stderr)")
    }

    @Test func theDemoShowsInviteJoinSyncAndKeepsItsHomesOnlyWhenAsked() throws {
        let kept = try CLI.run(["demo", "--keep"])
        #expect(kept.status == 0, "\(kept.stderr)")
        for step in ["tripsync invite", "tripsync join", "tripsync sync", "tripsync resolve", "Sam's laptop added"] {
            #expect(kept.stdout.contains(step), "\(step)")
        }
        #expect(!kept.stdout.contains("--open") && !kept.stdout.contains("tripsync backup") && !kept.stdout.contains("tripsync import"))
        // The commands it prints run against the homes it kept.
        let commands = kept.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("tripsync --home ") }
        let show = try #require(commands.first { $0.hasSuffix(" show") })
        let words = show.split(separator: " ").dropFirst().map(String.init)
        let home = words[1]
        defer { try? FileManager.default.removeItem(atPath: (home as NSString).deletingLastPathComponent) }
        let result = try CLI.run(words)
        #expect(result.status == 0 && result.stdout.contains("Lisbon 2027"), "\(result.stdout)\(result.stderr)")
        // Without a terminal and without --keep: removed, and it says so.
        let removed = try CLI.run(["demo"])
        #expect(removed.status == 0 && removed.stdout.contains("Removed the demo's homes in"), "\(removed.stdout)")
        let line = try #require(removed.stdout.split(separator: "\n").first { $0.hasPrefix("Removed the demo's homes in ") })
        let root = String(line.dropFirst("Removed the demo's homes in ".count).prefix { $0 != " " })
        #expect(!FileManager.default.fileExists(atPath: root), "\(root)")
    }
}
