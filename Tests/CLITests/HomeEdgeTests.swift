import Foundation
import Testing
import TripSync
import TripSyncHome
import TripSyncCore

/// Faults a person meets at the edges of a home, run as the built binary: a broken trip file,
/// the import question on a terminal, an edit over conflicting values, typed values a reader
/// would only warn about, and one conflict count in every command.
@Suite struct HomeEdgeTests {
    func run(_ home: String, _ arguments: [String]) throws -> CLIResult {
        try CLI.run(["--home", home] + arguments)
    }

    func line(_ result: CLIResult) -> String { result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    func json(_ result: CLIResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    func tripFile(_ home: String, _ trip: String) -> String { home + "/trips/\(trip).trip.json.gz" }

    func titles(_ home: String, trip: String) throws -> [String] {
        let show = try run(home, ["show", "--json", "--trip", trip])
        let object = try #require(try json(show) as? [String: Any], "\(show.stderr)")
        let days = (object["days"] as? [[String: Any]]) ?? []
        let items = days.flatMap { ($0["items"] as? [[String: Any]]) ?? [] } + ((object["unscheduled"] as? [[String: Any]]) ?? [])
        return items.compactMap { $0["title"] as? String }.sorted()
    }

    // MARK: 1. a broken trip file affects only its own trip

    /// A home with two trips, Alpha (one item) and Beta; Beta's backup is kept, then its replica
    /// is broken. Returns the home, both ids and Beta's backup.
    func homeWithABrokenTrip() throws -> (home: String, alpha: String, beta: String, betaBackup: String) {
        let home = CLI.temporaryFolder()
        let alpha = line(try run(home, ["new", "Alpha", "--zone", "Europe/Lisbon"]))
        let beta = line(try run(home, ["new", "Beta", "--zone", "Europe/Lisbon"]))
        #expect(try run(home, ["add", "Alpha lunch", "--trip", alpha, "--day", "2027-06-10", "--at", "12:00"]).status == 0)
        let betaBackup = home + "/beta-backup.trip.json.gz"
        #expect(try run(home, ["backup", "--trip", beta, "-o", betaBackup]).status == 0)
        try Data("this is not a trip file".utf8).write(to: URL(fileURLWithPath: tripFile(home, beta)))
        return (home, alpha, beta, betaBackup)
    }

    static let skipped = "(this trip is skipped; the others are not affected)"

    @Test(arguments: [
        ["trips"], ["trips", "--json"], ["show", "--trip", "Alpha"], ["show", "--trip", "ALPHA"], ["conflicts", "--trip", "ALPHA"],
        ["status", "--trip", "ALPHA"], ["add", "Dinner", "--trip", "ALPHA", "--day", "2027-06-11"], ["backup", "--trip", "ALPHA", "-o", "HOME/a.trip.json.gz"],
        ["fingerprint", "--trip", "ALPHA"], ["export", "--ics", "HOME/a.ics", "--trip", "ALPHA"],
    ])
    func commandsOnTheOtherTripsWarnAndWork(arguments: [String]) throws {
        let (home, alpha, beta, _) = try homeWithABrokenTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let brokenBytes = try Data(contentsOf: URL(fileURLWithPath: tripFile(home, beta)))
        let args = arguments.map { $0 == "ALPHA" ? alpha : $0.replacingOccurrences(of: "HOME", with: home) }
        let result = try run(home, args)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tripsync: warning: \(tripFile(home, beta)): "), "\(result.stderr)")
        #expect(result.stderr.contains(Self.skipped))
        #expect(try Data(contentsOf: URL(fileURLWithPath: tripFile(home, beta))) == brokenBytes)
        if arguments == ["trips", "--json"] {
            let rows = try #require(try json(result) as? [[String: Any]])
            #expect(rows.map { $0["tripId"] as? String } == [alpha])
        }
    }

    @Test(arguments: [
        ["show", "--trip", "BETA"], ["show", "--trip", "BETA8"], ["add", "Y", "--trip", "BETA", "--day", "2027-06-11"],
        ["edit", "ffffffff", "--title", "Z", "--trip", "BETA"], ["import", "BACKUP", "--merge", "--yes"], ["import", "BACKUP", "--replace", "--yes"],
    ])
    func aCommandMeantForTheBrokenTripIsRefusedWithItsError(arguments: [String]) throws {
        let (home, _, beta, backup) = try homeWithABrokenTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let before = try FileManager.default.contentsOfDirectory(atPath: home + "/trips").sorted()
        let brokenBytes = try Data(contentsOf: URL(fileURLWithPath: tripFile(home, beta)))
        let args = arguments.map { $0 == "BETA" ? beta : $0 == "BETA8" ? String(beta.prefix(8)) : $0 == "BACKUP" ? backup : $0 }
        let result = try run(home, args)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("tripsync: error: \(tripFile(home, beta)): "), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was changed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: tripFile(home, beta))) == brokenBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/trips").sorted() == before)
    }

    @Test func leftOutTripIsNotGuessedWhenABrokenFileCouldBeTheOneMeant() throws {
        let (home, _, _, _) = try homeWithABrokenTrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try run(home, ["show"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("this home holds 2 trips (1 of them unreadable); pick one with --trip"), "\(result.stderr)")
    }

    /// The fault as it was met: with another trip's replica broken, importing a backup of this
    /// trip took it for a new trip and replaced the replica, so an unpublished item vanished.
    @Test func importWithAnotherTripBrokenMergesIntoTheRightReplica() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let alpha = line(try run(home, ["new", "Alpha", "--zone", "Europe/Lisbon"]))
        let beta = line(try run(home, ["new", "Beta", "--zone", "Europe/Lisbon"]))
        #expect(try run(home, ["add", "Alpha lunch", "--trip", alpha, "--day", "2027-06-10"]).status == 0)
        let backup = home + "/alpha-backup.trip.json.gz"
        #expect(try run(home, ["backup", "--trip", alpha, "-o", backup]).status == 0)
        #expect(try run(home, ["add", "Unpublished idea", "--trip", alpha, "--day", "2027-06-12"]).status == 0)
        try Data("this is not a trip file".utf8).write(to: URL(fileURLWithPath: tripFile(home, beta)))
        let result = try run(home, ["import", backup, "--merge", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(Self.skipped))
        #expect(!result.stdout.contains("this home does not hold this trip yet"), "\(result.stdout)")
        #expect(result.stdout.contains("saved: merged; the trip now holds 2 items"), "\(result.stdout)")
        #expect(try titles(home, trip: alpha) == ["Alpha lunch", "Unpublished idea"])
        // Read with the broken file out of the way too, so the check does not lean on the listing.
        try FileManager.default.removeItem(atPath: tripFile(home, beta))
        #expect(try titles(home, trip: alpha) == ["Alpha lunch", "Unpublished idea"])
    }

    @Test func aBrokenSettingsFileIsAWarningNotSilence() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let trip = line(try run(home, ["new", "Alpha", "--zone", "Asia/Kolkata"]))
        try Data("{\"defaultZone\": ".utf8).write(to: URL(fileURLWithPath: home + "/trips/\(trip).settings.json"))
        let result = try run(home, ["add", "Call", "--day", "2027-06-10", "--at", "09:00"])
        #expect(result.status == 0, "the trip's own zone is used: the broken local setting is not taken for a zone")
        #expect(result.stderr.contains("at 09:00 Asia/Kolkata"), "\(result.stderr)")
        #expect(result.stderr.contains("tripsync: warning: \(home)/trips/\(trip).settings.json: "), "\(result.stderr)")
        #expect(result.stderr.contains("the trip's default zone is not used"))
        let typed = try run(home, ["add", "Call", "--day", "2027-06-10", "--at", "09:00", "--zone", "Asia/Kolkata"])
        #expect(typed.status == 0, "\(typed.stderr)")
    }

    // MARK: 2. the import question on a terminal

    /// Alex's home (an item Sam's file lacks, never published) and Sam's backup (an item Alex
    /// lacks). Returns Alex's home, the trip and Sam's file.
    func alexAndSamsBackup() throws -> (alex: String, trip: String, samFile: String, cleanup: [String]) {
        let alex = CLI.temporaryFolder()
        let sam = CLI.temporaryFolder()
        _ = try run(alex, ["init", "--device-name", "Alex's laptop"])
        _ = try run(sam, ["init", "--device-name", "Sam's laptop"])
        let trip = line(try run(alex, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"]))
        #expect(try run(alex, ["add", "Shared lunch", "--day", "2027-06-08"]).status == 0)
        let alexFile = sam + "/alex.trip.json.gz"
        #expect(try run(alex, ["backup", "-o", alexFile]).status == 0)
        #expect(try run(sam, ["import", alexFile, "--merge", "--yes"]).status == 0)
        #expect(try run(sam, ["add", "Sam's museum", "--day", "2027-06-09"]).status == 0)
        let samFile = sam + "/sam.trip.json.gz"
        #expect(try run(sam, ["backup", "-o", samFile]).status == 0)
        #expect(try run(alex, ["add", "Alex unpublished", "--day", "2027-06-10", "--note", "only here"]).status == 0)
        return (alex, trip, samFile, [alex, sam])
    }

    enum Outcome: String, CustomStringConvertible {
        case cancelled, merged, replaced
        var description: String { rawValue }
    }

    @Test(arguments: [
        // The fault: any answer starting with "r" replaced.
        (["rather not", nil], Outcome.cancelled, "please answer m, r or c"),
        (["r", "no"], .cancelled, "type 'replace' to discard them"),
        (["r", ""], .cancelled, "type 'replace' to discard them"),
        (["r", nil], .cancelled, "type 'replace' to discard them"),
        (["r", "replace"], .replaced, "the previous copy is kept at"),
        ([" Replace ", " REPLACE"], .replaced, "the previous copy is kept at"),
        ([""], .cancelled, "(default: cancel)? "),
        ([nil], .cancelled, "(default: cancel)? "),
        (["c"], .cancelled, "cancelled: nothing was changed"),
        (["yes", "mm", "rr"], .cancelled, "please answer m, r or c"),
        (["merge it", "M"], .merged, "please answer m, r or c"),
        (["  merge  "], .merged, "saved: merged"),
    ] as [([String?], Outcome, String)])
    func theImportQuestionTakesOnlyExactAnswers(answers: [String?], outcome: Outcome, shown: String) throws {
        let (alex, trip, samFile, cleanup) = try alexAndSamsBackup()
        defer { for path in cleanup { try? FileManager.default.removeItem(atPath: path) } }
        let before = try Data(contentsOf: URL(fileURLWithPath: tripFile(alex, trip)))
        // The trip as the home holds it: the replica with its edit journal replayed (issue 30).
        let held = try TripFileReader().read(path: tripFile(alex, trip)).document.canonicalJSON()
        let result = try CLI.runInTerminal(["--home", alex, "import", samFile], answers: answers)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[m]erge, [r]eplace or [c]ancel (default: cancel)? "), "\(result.stdout)")
        #expect(result.stdout.contains(shown), "\(result.stdout)")
        let titles = try titles(alex, trip: trip)
        let backups = (try? FileManager.default.contentsOfDirectory(atPath: alex + "/trips/backups")) ?? []
        switch outcome {
        case .cancelled:
            #expect(result.stdout.contains("cancelled: nothing was changed"), "\(result.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: tripFile(alex, trip))) == before)
            #expect(backups.isEmpty)
        case .merged:
            #expect(titles == ["Alex unpublished", "Sam's museum", "Shared lunch"])
            #expect(backups.isEmpty)
        case .replaced:
            #expect(titles == ["Sam's museum", "Shared lunch"])
            // The discarded change was listed before the confirmation.
            #expect(result.stdout.contains("that were never published and that \(samFile) does not hold"), "\(result.stdout)")
            #expect(result.stdout.contains("  \"Alex unpublished\": title, order, start, end, place, note\n"), "\(result.stdout)")
            #expect(backups.count == 1)
            let backup = alex + "/trips/backups/" + (backups.first ?? "")
            #expect(backups.first?.hasPrefix(trip + "-") == true)
            #expect(result.stdout.contains("the previous copy is kept at \(backup); 'tripsync --home \(alex) import \(backup) --replace' undoes this"), "\(result.stdout)")
            #expect(try TripFileReader().read(path: backup).document.canonicalJSON() == held, "the backup is the replaced replica")
            // The backups folder is not a trip; undoing brings the item back.
            let trips = try run(alex, ["trips"])
            #expect(trips.stderr.isEmpty, "\(trips.stderr)")
            #expect(trips.stdout.split(separator: "\n").count == 1)
            let undo = try run(alex, ["import", backup, "--replace", "--yes"])
            #expect(undo.status == 0, "\(undo.stderr)")
            #expect(try self.titles(alex, trip: trip) == ["Alex unpublished", "Shared lunch"])
        }
    }

    @Test func replaceWithYesListsWhatItDiscardsAndKeepsABackup() throws {
        let (alex, trip, samFile, cleanup) = try alexAndSamsBackup()
        defer { for path in cleanup { try? FileManager.default.removeItem(atPath: path) } }
        let result = try run(alex, ["import", samFile, "--replace", "--yes"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tripsync: warning: replacing discards 6 changes of this device"), "\(result.stderr)")
        #expect(result.stderr.contains("  \"Alex unpublished\": title, order, start, end, place, note\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Shared lunch"), "Sam's file holds that one")
        #expect(result.stdout.contains("the previous copy is kept at \(alex)/trips/backups/\(trip)-"), "\(result.stdout)")
        #expect(try titles(alex, trip: trip) == ["Sam's museum", "Shared lunch"])
    }

    // MARK: 3. an edit over conflicting values says what it replaces

    /// Alex and Sam retitled the lunch at once; Alex holds both titles. Returns Alex's home,
    /// the lunch id, the museum id (deleted by Sam while Alex noted it) and the cleanup.
    func twoLaptopsWithConflicts() throws -> (alex: String, lunch: String, museum: String, shared: String, cleanup: [String]) {
        let alex = CLI.temporaryFolder()
        let sam = CLI.temporaryFolder()
        let shared = CLI.temporaryFolder()
        _ = try run(alex, ["init", "--device-name", "Alex's laptop"])
        _ = try run(sam, ["init", "--device-name", "Sam's laptop"])
        _ = try run(alex, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"])
        let lunch = line(try run(alex, ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30"]))
        let museum = line(try run(alex, ["add", "Museum", "--day", "2027-06-09"]))
        _ = try run(alex, ["backup", "-o", shared + "/a.trip.json.gz"])
        _ = try run(sam, ["import", shared + "/a.trip.json.gz", "--merge", "--yes"])
        _ = try run(alex, ["edit", lunch, "--title", "Lunch at Time Out"])
        _ = try run(alex, ["edit", museum, "--note", "Closed Tuesdays"])
        _ = try run(sam, ["edit", lunch, "--title", "Lunch at Ramiro"])
        _ = try run(sam, ["delete", museum])
        _ = try run(sam, ["backup", "-o", shared + "/s.trip.json.gz"])
        #expect(try run(alex, ["import", shared + "/s.trip.json.gz", "--merge", "--yes"]).status == 0)
        return (alex, lunch, museum, shared, [alex, sam, shared])
    }

    @Test func anEditOverConflictingValuesNamesThemOnStderrAndInJSON() throws {
        let (alex, lunch, _, _, cleanup) = try twoLaptopsWithConflicts()
        defer { for path in cleanup { try? FileManager.default.removeItem(atPath: path) } }
        let result = try run(alex, ["edit", String(lunch.prefix(8)), "--title", "Lunch at home", "--place", "Home", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = result.stderr.split(separator: "\n").first { $0.contains("title: this edit replaces the conflicting values") }.map(String.init) ?? ""
        #expect(warning.hasPrefix("tripsync: warning: title: this edit replaces the conflicting values \""), "\(result.stderr)")
        #expect(warning.contains("\"Lunch at Time Out\" (Alex's laptop)"))
        #expect(warning.contains("\"Lunch at Ramiro\" (Sam's laptop)"))
        #expect(warning.contains(" and "))
        #expect(warning.hasSuffix(" resolve' chooses one instead") && warning.contains("; 'tripsync --home "), "\(warning)")
        let object = try #require(try json(result) as? [String: Any])
        #expect(object["item"] as? String == lunch)
        #expect(object["changed"] as? [String] == ["title", "place"])
        let replaced = try #require(object["replaced"] as? [[String: Any]])
        #expect(replaced.count == 2)
        #expect(Set(replaced.compactMap { $0["field"] as? String }) == ["title"])
        #expect(Set(replaced.compactMap { $0["value"] as? String }) == ["Lunch at Time Out", "Lunch at Ramiro"])
        #expect(replaced.allSatisfy { ($0["device"] as? String)?.count == 36 })
        #expect(try run(alex, ["conflicts", "--json"]).stdout.contains("Lunch at Ramiro") == false, "the edit replaced them")
        // A field without a conflict says nothing.
        let plain = try run(alex, ["edit", String(lunch.prefix(8)), "--note", "Window seat"])
        #expect(plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(plain.stdout == "saved: note\n")
    }

    // MARK: 4. values a reader warns about are refused when typed

    @Test(arguments: [
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "PST"], "--zone: zone 'PST' is unknown to this machine's time zone database"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "GMT+1"], "zone 'GMT+1' is unknown"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "IST"], "zone 'IST' is unknown"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T11:00", "--end-zone", "GMT-3"], "--end-zone: zone 'GMT-3' is unknown"),
        (["add", "   "], "TITLE cannot be only spaces"),
        (["add", "\u{00A0}\u{200B}"], "TITLE cannot be only spaces"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T09:59"], "is before the start"),
        (["add", "X", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T04:30", "--end-zone", "America/New_York"], "is before the start"),
        (["add", "X", "--day", "2027-06-10", "--end", "2027-06-09"], "is before the start"),
        (["edit", "ITEM", "--title", " \u{3000} "], "--title cannot be only spaces"),
        (["edit", "ITEM", "--zone", "PST"], "zone 'PST' is unknown"),
        (["edit", "ITEM", "--end", "2027-06-10T08:00"], "is before the start"),
        (["edit", "ITEM", "--day", "2027-06-11"], "is before the start"),
        (["edit", "ITEM", "--end-zone", "Asia/Tokyo"], "is before the start"),
        (["new", "Another", "--zone", "PST"], "zone 'PST' is unknown"),
        (["new", "  "], "NAME cannot be only spaces"),
    ] as [([String], String)])
    func typedValuesAReaderWarnsAboutAreRefused(arguments: [String], message: String) throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let trip = line(try run(home, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon"]))
        let item = line(try run(home, ["add", "Castelo", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T12:00"]))
        let before = try Data(contentsOf: URL(fileURLWithPath: tripFile(home, trip)))
        let result = try run(home, arguments.map { $0 == "ITEM" ? item : $0 })
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("tripsync: error: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: tripFile(home, trip))) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/trips").filter { $0.hasSuffix(".trip.json.gz") }.count == 1)
    }

    @Test(arguments: [
        ["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "Europe/Lisbon"],
        ["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "UTC"],
        ["add", "X", "--day", "2027-06-10", "--at", "10:00", "--zone", "Asia/Kolkata"],
        ["add", "X", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T06:00", "--end-zone", "America/New_York"],
        ["add", "X", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T10:00"],
        ["add", " Fado "],
        ["edit", "ITEM", "--day", "2027-06-11", "--end", "2027-06-11T12:00"],
        ["edit", "ITEM", "--zone", "UTC"],
        ["new", "Another", "--zone", "Asia/Kolkata"],
    ])
    func realValuesAreTaken(arguments: [String]) throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let trip = line(try run(home, ["new", "Lisbon 2027", "--zone", "Europe/Lisbon"]))
        let item = line(try run(home, ["add", "Castelo", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T12:00"]))
        let result = try run(home, arguments.map { $0 == "ITEM" ? item : $0 } + (arguments[0] == "new" ? [] : ["--trip", trip]))
        #expect(result.status == 0, "\(result.stderr)")
        // Only what add says it stored (issue 25): no warning.
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("added \"") }, "\(result.stderr)")
    }

    // MARK: 5. one conflict count, everywhere, with its parts

    @Test func everyCommandCountsTheSameConflictsWithTheSameParts() throws {
        let (alex, _, museum, shared, cleanup) = try twoLaptopsWithConflicts()
        defer { for path in cleanup { try? FileManager.default.removeItem(atPath: path) } }
        let parts: [String: Int] = ["fields": 1, "editedWhileDeleted": 1]
        func check(_ object: [String: Any]?, _ what: String) {
            #expect(object?["conflicts"] as? Int == 2, "\(what)")
            #expect(object?["conflictParts"] as? [String: Int] == parts, "\(what)")
        }
        check((try json(try run(alex, ["trips", "--json"])) as? [[String: Any]])?.first, "trips --json")
        check(try json(try run(alex, ["status", "--json"])) as? [String: Any], "status --json")
        _ = try run(alex, ["backup", "-o", shared + "/both.trip.json.gz"])
        let merge = try run(alex, ["merge", shared + "/both.trip.json.gz", "-o", shared + "/merged.trip.json.gz", "--json"])
        check(try json(merge) as? [String: Any], "merge --json")
        let list = try #require(try json(try run(alex, ["conflicts", "--json"])) as? [[String: Any]])
        #expect(list.count == 2)
        #expect(list.filter { !($0["field"] is NSNull) }.count == 1)
        #expect(list.filter { $0["kind"] as? String == "deleted-while-edited" }.map { $0["item"] as? String } == [museum])
        let text = "2 conflicts (1 field, 1 item edited while deleted)"
        let fresh = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let imported = try run(fresh, ["import", shared + "/both.trip.json.gz", "--merge", "--yes"])
        #expect(imported.stdout.contains("  1 item, 1 deleted item, \(text)\n"), "\(imported.stdout)")
        #expect(imported.stdout.contains("saved: the trip now holds 1 item, 1 deleted item, \(text)"), "\(imported.stdout)")
        #expect(try run(alex, ["trips"]).stdout.contains(text))
        #expect(try run(alex, ["status"]).stdout.contains("  \(text): tripsync --home \(alex) conflicts"))
        #expect(try run(alex, ["merge", shared + "/both.trip.json.gz", "-o", shared + "/m2.trip.json.gz"]).stdout.contains(text))
        #expect(try run(alex, ["conflicts"]).stdout.hasPrefix(text + ":\n"))
    }
}
