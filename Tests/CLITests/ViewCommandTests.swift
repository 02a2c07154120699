import Foundation
import Testing

/// Trips and items a person can see (issue 18) as the built `tripsync` prints them, recorded as
/// snapshot files like CLISnapshotTests (one home) and MemberCommandCLISnapshotTests (several
/// laptops sharing `shared`):
///
///     TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter ViewCommand    # re-record
@Suite struct ViewCommandTests {
    typealias Step = SnapshotStep

    static func home(_ arguments: String..., names: String? = nil, file: String? = nil) -> SnapshotStep {
        SnapshotStep(arguments: ["--home", "$TMP/home"] + arguments, names: names, file: file)
    }

    static let lisbon = "samples/lisbon-new-york.trip.json"

    /// A fresh home with a trip of five items: a timed one with a two-line note, a multi-day
    /// stay, a flight into another zone arriving the next day there, a late dinner, and one
    /// with no date.
    static let plannedTrip: [SnapshotStep] = [
        home("init", "--device-name", "Snapshot laptop"),
        home("new", "Lisbon 2027", "--zone", "Europe/Lisbon", names: "trip"),
        home("add", "Fado night", "--day", "2027-06-08", "--at", "21:00", "--place", "Alfama", "--note", "Clube de Fado, table for 2\nPay at the door, cash only", names: "item-1"),
        home("add", "Stay at Casa do Príncipe Real", "--day", "2027-06-07", "--end", "2027-06-10", names: "item-2"),
        home(
            "add", "TP 201 Lisbon → New York", "--day", "2027-06-10", "--at", "19:00", "--end", "2027-06-10T21:50", "--end-zone",
            "America/New_York", "--place", "LIS T1", names: "item-3"),
        home("add", "Buy a SIM card", "--note", "Any kiosk at the airport", names: "item-4"),
    ]

    static let cases: [SnapshotCase] = [
        SnapshotCase(
            "view-show-lines-carry-ids-notes-and-last-days", home: .fresh,
            plannedTrip + [
                home("show"),
                home("show", "--in", "UTC"),
                home("show", "--in", "Asia/Kathmandu"),
            ]),
        SnapshotCase(
            "view-show-from-to-narrows-the-days", home: .fresh,
            plannedTrip + [
                home("show", "--from", "2027-06-08", "--to", "2027-06-08"),
                home("show", "--from", "2027-06-10"),
                home("show", "--to", "2027-06-07"),
                home("show", "--from", "2027-06-11"),
                home("show", "--from", "2027-06-10", "--to", "2027-06-09"),
                home("show", "--from", "2027-02-30"),
                home("show", "--to", "June"),
            ]),
        SnapshotCase(
            "view-show-in-zone-json-carries-the-viewer-zone", home: .fresh,
            Array(plannedTrip.prefix(2)) + [
                home(
                    "add", "TP 201 Lisbon → New York", "--day", "2027-06-10", "--at", "19:00", "--end", "2027-06-10T21:50", "--end-zone",
                    "America/New_York", names: "item-1"),
                home("show", "--in", "Pacific/Kiritimati", "--json"),
                home("show", "--in", "Pacific/Pago_Pago"),
                home("show", "--in", "UTC", "--json"),
            ]),
        SnapshotCase(
            "view-show-item-whole-then-deleted", home: .fresh,
            plannedTrip + [
                home("show", "<item-1:8>"),
                home("show", "<item-3>", "--json"),
                home("delete", "<item-1:8>"),
                home("show", "<item-1:8>"),
                home("show", "--deleted"),
                home("show", "nope"),
                home("show", "<item-1:8>", "--in", "UTC"),
                home("show", "<item-1:8>", "<item-2:8>"),
            ]),
        SnapshotCase(
            "view-show-sample-item-conflict-and-edited-while-deleted",
            [
                .run("import", lisbon, "--merge", "--yes"),
                .run("show", "6b4e1446"),
                .run("show", "de43cdca"),
                .run("show", "de43cdca", "--json"),
                .run("show", "--deleted"),
                .run("show", "--deleted", "--json"),
                .run("show", "--deleted", "--from", "2027-06-08"),
            ]),
        SnapshotCase(
            "view-find-ignores-case-and-accents",
            [
                .run("import", lisbon, "--merge", "--yes"),
                .run("find", "SINTRA"),
                .run("find", "jeronimos"),
                .run("find", "door code"),
                .run("find", "oceanário"),
                .run("find", "via carota", "--json"),
                .run("find"),
                .run("find", "  "),
            ]),
        SnapshotCase(
            "view-rename-and-names-unique-in-a-home", home: .fresh,
            Array(plannedTrip.prefix(2)) + [
                home("new", "Porto", "--open", names: "trip-2"),
                home("rename", "--trip", "Porto", "Lisbon 2027"),
                home("new", "Lisbon 2027"),
                home("rename", "--trip", "Porto", "Porto 2028"),
                home("rename", "--trip", "<trip-2:8>", "Porto 2028"),
                home("rename", "--trip", "<trip-2:8>", " "),
                home("rename"),
                home("trips"),
            ]),
        SnapshotCase(
            "view-forget-without-a-terminal-needs-yes", home: .fresh,
            Array(plannedTrip.prefix(3)) + [
                home("forget"),
                home("forget", "--yes"),
                home("trips"),
                home("show"),
            ]),
        SnapshotCase(
            "view-export-ics-says-what-it-left-out", home: .fresh,
            plannedTrip + [
                home("export", "--ics", "$TMP/trip.ics"),
                home("edit", "<item-4:8>", "--day", "2027-06-07"),
                home("export", "--ics", "$TMP/trip.ics", "--force"),
            ]),
    ]

    /// `tripsync --home homeHOME ARGS` as a step of a laptops case.
    static func on(_ home: String, _ arguments: String..., names: String? = nil) -> MemberStep {
        .run(home, arguments, names: names, captures: nil)
    }

    static let laptopCases: [MemberCase] = [
        MemberCase(
            "view-sync-without-a-folder-uses-the-last-one",
            [
                on("A", "init", "--device-name", "Laptop A"),
                on("A", "new", "Lisbon", "--open", names: "trip"),
                on("A", "sync"),
                on("A", "sync", "shared"),
                on("A", "sync"),
                on("A", "sync", "--json"),
                on("A", "sync", "a", "b"),
            ]),
        MemberCase(
            "view-rename-on-two-laptops-at-once-is-a-conflict",
            [
                on("A", "init", "--device-name", "Laptop A"),
                on("A", "new", "Lisbon", "--open", names: "trip"),
                on("A", "sync", "shared"),
                on("B", "init", "--device-name", "Laptop B"),
                on("B", "sync", "shared"),
                on("A", "rename", "Lisbon (Alex)"),
                on("B", "rename", "Lisbon (Sam)"),
                on("A", "sync"),
                on("B", "sync"),
                on("A", "sync"),
                on("A", "show"),
                on("A", "rename", "Lisbon 2027"),
                on("A", "show"),
            ]),
        MemberCase(
            "view-two-trips-joined-with-one-name-answer-with-the-list",
            [
                on("A", "init", "--device-name", "Laptop A"),
                on("A", "new", "Lisbon", "--open", names: "trip-a"),
                on("A", "sync", "shared"),
                on("C", "init", "--device-name", "Laptop C"),
                on("C", "new", "Lisbon", "--open", names: "trip-c"),
                on("B", "init", "--device-name", "Laptop B"),
                on("B", "sync", "shared"),
                on("C", "sync", "shared"),
                on("B", "sync", "shared"),
                on("B", "show", "--trip", "Lisbon"),
                on("B", "rename", "--trip", "<trip-c:8>", "Lisbon (C)"),
                on("B", "show", "--trip", "Lisbon"),
            ]),
    ]

    @Test(arguments: cases) func snapshot(_ snapshotCase: SnapshotCase) throws {
        try Snapshot.check(snapshotCase)
    }

    @Test(arguments: laptopCases) func laptops(_ memberCase: MemberCase) throws {
        try MemberSnapshot.check(memberCase)
    }

    /// `show --in ZONE --json` depends on ZONE only, never on the machine's TZ.
    @Test func theViewerZoneIsTheSameUnderEveryTZ() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let imported = try CLI.run(["--home", home, "import", CLI.root + "/" + Self.lisbon, "--merge", "--yes"])
        #expect(imported.status == 0, "\(imported.stderr)")
        var outputs: [String: Set<String>] = [:]
        for tz in ["UTC", "America/New_York", "Europe/Lisbon", "Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu"] {
            for zone in ["UTC", "Asia/Kathmandu", "Pacific/Pago_Pago"] {
                let shown = try CLI.run(["--home", home, "show", "--in", zone, "--json"], environment: ["TZ": tz])
                #expect(shown.status == 0, "\(shown.stderr)")
                outputs[zone, default: []].insert(shown.stdout)
                let text = try CLI.run(["--home", home, "show", "--in", zone], environment: ["TZ": tz])
                outputs[zone + " text", default: []].insert(text.stdout)
            }
        }
        for (zone, seen) in outputs { #expect(seen.count == 1, "\(zone) differs between TZ values") }
        #expect(outputs["UTC"]?.first?.contains(#""viewerZone":"UTC""#) == true)
        #expect(outputs["UTC text"]?.first?.contains("(your time: UTC, beside each time where it differs)") == true)
        #expect(outputs["UTC text"]?.first?.contains("GMT") == false)
    }

    /// `show ITEM` shows when each value was written in the machine's zone (TZ).
    @Test func writeTimesAreShownInTheMachinesZone() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try CLI.run(["--home", home, "import", CLI.root + "/" + Self.lisbon, "--merge", "--yes"])
        let utc = try CLI.run(["--home", home, "show", "6b4e1446"], environment: ["TZ": "UTC"])
        let kathmandu = try CLI.run(["--home", home, "show", "6b4e1446"], environment: ["TZ": "Asia/Kathmandu"])
        #expect(utc.stdout.contains("by Sam's laptop, 2026-05-29 12:02 UTC"), "\(utc.stdout)")
        #expect(kathmandu.stdout.contains("by Sam's laptop, 2026-05-29 17:47 UTC+5:45"), "\(kathmandu.stdout)")
    }

    /// The `forget` question on a terminal: y forgets, n and end of input keep the trip.
    @Test(arguments: [("y", Int32(0), true), ("n", 1, false), (nil, 1, false)] as [(String?, Int32, Bool)])
    func forgetAsksOnATerminal(_ answer: String?, _ status: Int32, _ forgotten: Bool) throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try CLI.run(["--home", home, "new", "Lisbon", "--open"])
        let result = try CLI.runInTerminal(["--home", home, "forget"], answers: [answer])
        #expect(result.status == status, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Forget it from this home (y/N)? "))
        let trips = try CLI.run(["--home", home, "trips"])
        #expect(trips.stdout.contains("  Lisbon  ") == !forgotten, "\(trips.stdout)")
        #expect(result.stdout.contains(forgotten ? "forgot \"Lisbon\"" : "nothing was removed"))
    }
}
