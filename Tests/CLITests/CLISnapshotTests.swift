import Foundation
import Testing

/// The command-line behaviour people and scripts meet (docs: /work/shared/CLI.md), recorded as
/// snapshot files: each case runs the built `tripsync` and compares stdout, stderr and the exit
/// status with Tests/CLITests/Snapshots/NAME.txt. See Snapshot.swift for the placeholders;
/// `TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter CLISnapshot` re-records.
@Suite struct CLISnapshotTests {
    typealias Step = SnapshotStep

    /// `--home $TMP/home` before a command of the home flow.
    static func home(_ arguments: String..., names: String? = nil, file: String? = nil) -> SnapshotStep {
        SnapshotStep(arguments: ["--home", "$TMP/home"] + arguments, names: names, file: file)
    }

    static let lisbon = "samples/lisbon-new-york.trip.json"
    static let porto = ["samples/v1/porto-alex.trip.json", "samples/v1/porto-sam.trip.json"]

    /// A fresh home with a trip of four items (timed, whole-day, a flight into another zone, unscheduled).
    static let plannedTrip: [SnapshotStep] = [
        home("init", "--device-name", "Snapshot laptop"),
        home("new", "Lisbon 2027", "--zone", "Europe/Lisbon", names: "trip"),
        home("add", "Fado night", "--day", "2027-06-08", "--at", "21:00", "--place", "Alfama", names: "item-1"),
        home("add", "Pack", "--day", "2027-06-09", names: "item-2"),
        home(
            "add", "TP 201 Lisbon → New York", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T13:00", "--end-zone",
            "America/New_York", "--place", "LIS T1", names: "item-3"),
        home("add", "Buy a SIM card", names: "item-4"),
    ]

    static let cases: [SnapshotCase] = [
        // Help and usage.
        SnapshotCase("help-flag-lists-every-command", "--help"),
        SnapshotCase("help-command-lists-every-command", "help"),
        SnapshotCase("help-validate-shows-its-options", "help", "validate"),
        SnapshotCase("help-merge-shows-its-options", "help", "merge"),
        SnapshotCase("no-command-prints-usage-exit-2", arguments: []),
        SnapshotCase("unknown-command-exit-2", "frobnicate"),
        SnapshotCase("help-unknown-command-exit-2", "help", "frobnicate"),
        SnapshotCase("version-flag", "--version"),
        SnapshotCase("version-short-flag", "-V"),
        SnapshotCase("help-help-explains-help", "help", "help"),
        SnapshotCase(
            "home-option-after-the-command",
            [
                SnapshotStep(arguments: ["new", "Lisbon 2027", "--home", "$TMP/home"], names: "trip"),
                SnapshotStep(arguments: ["trips", "--home=$TMP/home"]),
                SnapshotStep(arguments: ["add", "--home", "$TMP/home", "--", "-5 euro tip"], names: "item-1"),
                SnapshotStep(arguments: ["show", "--home"]),
            ]),

        // validate: text and --json.
        SnapshotCase("validate-valid-sample-plain-and-gzip", "validate", lisbon, lisbon + ".gz"),
        SnapshotCase("validate-valid-sample-json", "validate", "--json", lisbon),
        SnapshotCase("validate-invalid-title-too-long-exit-1", "validate", "samples/invalid/title-too-long.trip.json"),
        SnapshotCase("validate-invalid-title-too-long-json", "validate", "--json", "samples/invalid/title-too-long.trip.json"),
        SnapshotCase(
            "validate-invalid-bytes-and-structure", "validate", "samples/invalid/not-json.trip.json", "samples/invalid/duplicate-key.trip.json",
            "samples/invalid/trailing-bytes.trip.json", "samples/invalid/top-level-array.trip.json", "samples/invalid/empty.trip.json",
            "samples/invalid/nesting-100000-deep.trip.json.gz", "samples/invalid/invalid-utf8-in-string.trip.json"),
        SnapshotCase(
            "validate-invalid-values", "validate", "samples/invalid/start-february-30.trip.json", "samples/invalid/counter-above-2-pow-53.trip.json",
            "samples/invalid/sort-key-ends-in-zero.trip.json", "samples/invalid/zone-fixed-offset.trip.json", "samples/invalid/ack-above-clock.trip.json"),
        SnapshotCase(
            "validate-warnings-keep-files-valid", "validate", "samples/warnings/unknown-zone.trip.json", "samples/warnings/end-before-start.trip.json"),
        SnapshotCase(
            "validate-warnings-json", "validate", "--json", "samples/warnings/unknown-zone.trip.json", "samples/warnings/end-before-start.trip.json"),
        SnapshotCase("validate-v1-samples-schema-1", arguments: ["validate"] + porto),
        SnapshotCase(
            "validate-v1-invalid", "validate", "samples/v1/invalid/start-instant-without-zone.trip.json", "samples/v1/invalid/duplicate-item-id.trip.json"),
        SnapshotCase("validate-v1-json", "validate", "--json", "samples/v1/porto-alex.trip.json", "samples/v1/invalid/title-too-long.trip.json"),
        SnapshotCase(
            "validate-truncated-and-corrupt-gzip", "validate", "samples/invalid/truncated.trip.json.gz", "samples/invalid/corrupt-gzip-crc.trip.json.gz",
            "samples/invalid/corrupt-gzip-data.trip.json.gz"),
        SnapshotCase("validate-truncated-gzip-json", "validate", "--json", "samples/invalid/truncated.trip.json.gz"),
        SnapshotCase("validate-newer-schema-names-both-versions", "validate", "samples/invalid/schema-version-newer.trip.json"),
        SnapshotCase("validate-newer-schema-json", "validate", "--json", "samples/invalid/schema-version-newer.trip.json"),
        SnapshotCase("validate-missing-file-and-folder-refused", "validate", "$TMP/no-such.trip.json", "samples"),
        SnapshotCase("validate-without-files-exit-2", "validate"),
        SnapshotCase("validate-unknown-option-exit-2", "validate", "--frobnicate", lisbon),

        // merge, migrate, fingerprint.
        SnapshotCase(
            "merge-v1-pair-into-gzip-then-validate",
            [
                Step(arguments: ["merge"] + porto + ["-o", "$TMP/porto.trip.json.gz"]),
                .run("validate", "$TMP/porto.trip.json.gz"),
                .run("fingerprint", "$TMP/porto.trip.json.gz"),
                .run("fingerprint", "samples/v1/porto-merged.expected.trip.json"),
            ]),
        SnapshotCase(
            "merge-v1-pair-dry-run-json",
            [
                Step(arguments: ["merge"] + porto + ["-o", "$TMP/porto.trip.json", "--dry-run", "--json"]),
                .run("validate", "$TMP/porto.trip.json"),
            ]),
        SnapshotCase("merge-different-trips-refused", arguments: ["merge", lisbon, porto[0], "-o", "$TMP/out.trip.json"]),
        SnapshotCase(
            "merge-one-invalid-input-refuses-all",
            [
                .run("merge", lisbon, "samples/invalid/truncated.trip.json.gz", "-o", "$TMP/out.trip.json"),
                .run("validate", "$TMP/out.trip.json"),
            ]),
        SnapshotCase("merge-without-output-exit-2", arguments: ["merge"] + porto),
        SnapshotCase(
            "migrate-v1-to-file-then-validate",
            [
                .run("migrate", "samples/v1/porto-alex.trip.json", "-o", "$TMP/porto.trip.json"),
                .run("validate", "$TMP/porto.trip.json"),
                .run("fingerprint", "$TMP/porto.trip.json"),
            ]),
        SnapshotCase("migrate-v1-to-stdout", "migrate", "samples/v1/porto-sam.trip.json"),
        SnapshotCase("migrate-current-schema-rewrites-canonically", "migrate", lisbon, "-o", "$TMP/lisbon.trip.json"),
        SnapshotCase("migrate-newer-schema-refused", "migrate", "samples/invalid/schema-version-newer.trip.json", "-o", "$TMP/out.trip.json"),
        SnapshotCase("fingerprint-plain-and-gzip-agree", [.run("fingerprint", lisbon), .run("fingerprint", lisbon + ".gz")]),
        SnapshotCase("fingerprint-invalid-file-refused", "fingerprint", "samples/invalid/title-too-long.trip.json"),

        // A sample imported into a home: what it holds, its conflicts, its calendar.
        SnapshotCase("import-without-a-choice-exit-2", "import", lisbon),
        SnapshotCase("import-invalid-file-refused", "import", "samples/invalid/title-too-long.trip.json", "--merge", "--yes"),
        SnapshotCase(
            "import-sample-show-conflicts-status",
            [
                .run("import", lisbon, "--merge", "--yes"),
                .run("trips"),
                .run("show"),
                .run("show", "--in", "America/New_York"),
                .run("conflicts"),
                .run("conflicts", "--json"),
                .run("status"),
            ]),
        SnapshotCase(
            "import-sample-export-ics",
            [
                .run("import", lisbon + ".gz", "--merge", "--yes"),
                .run("export", "--ics", "$TMP/trip.ics", file: "$TMP/trip.ics"),
            ]),
        SnapshotCase("export-without-ics-exit-2", "export"),
        SnapshotCase(
            "export-html-writes-a-self-contained-page",
            [
                .run("import", lisbon, "--merge", "--yes"),
                .run("export", "--html", "$TMP/trip.html", file: "$TMP/trip.html"),
            ]),
        SnapshotCase("export-html-without-file-exit-2", "export", "--html"),
        SnapshotCase(
            "status-metrics-of-a-sample-with-conflicts",
            [
                .run("import", lisbon, "--merge", "--yes"),
                .run("status", "--json"),
                .run("status"),
            ]),

        // A fresh home, planned by hand.
        SnapshotCase(
            "home-flow-plan-edit-delete-restore", home: .fresh,
            plannedTrip + [
                home("show"),
                home("trips"),
                home("status"),
                home("edit", "<item-1:8>", "--title", "Fado at Clube de Fado", "--note", "Table for 2, cash only"),
                home("edit", "<item-3:8>", "--clear", "place"),
                home("delete", "<item-2:8>"),
                home("show"),
                home("restore", "<item-2:8>"),
                home("conflicts"),
                home("show"),
            ]),
        SnapshotCase(
            "home-flow-json", home: .fresh,
            plannedTrip + [
                home("show", "--json"),
                home("trips", "--json"),
                home("edit", "<item-4>", "--day", "2027-06-07", "--json"),
                home("conflicts", "--json"),
                home("status", "--json"),
            ]),
        SnapshotCase(
            "home-usage-errors-exit-2", home: .fresh,
            Array(plannedTrip.prefix(2)) + [
                home("add", "Lunch", "--day", "2027-02-30"),
                home("add", "Lunch", "--day", "2027-06-10", "--at", "25:00"),
                home("add"),
                home("edit"),
                home("new"),
                home("show", "--in", "PST"),
                home("trips"),
            ]),
        SnapshotCase(
            "home-unknown-item-refused", home: .fresh,
            Array(plannedTrip.prefix(3)) + [
                home("edit", "nope", "--title", "Nothing"),
                home("delete", "<item-1:8>"),
                home("delete", "<item-1:8>"),
                home("restore", "<item-1>"),
                home("restore", "<item-1>"),
            ]),
    ]

    @Test(arguments: cases)
    func snapshot(_ snapshotCase: SnapshotCase) throws {
        try Snapshot.check(snapshotCase)
    }

    @Test func caseNamesAreUniqueFileNames() {
        let names = Self.cases.map(\.name)
        #expect(Set(names).count == names.count, "repeated: \(names.filter { name in names.filter { $0 == name }.count > 1 })")
        for name in names {
            #expect(name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }, "\(name)")
        }
    }

    /// A snapshot file no case writes is left over from a renamed or removed case.
    @Test func everySnapshotFileBelongsToACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Snapshot.folder).filter { $0.hasSuffix(".txt") }
        let expected = Set(
            Self.cases.map { $0.name + ".txt" } + MemberCommandCLISnapshotTests.cases.map { $0.name + ".txt" }
                + ConventionSnapshotTests.cases.map { $0.name + ".txt" }
                + ViewCommandTests.cases.map { $0.name + ".txt" } + ViewCommandTests.laptopCases.map { $0.name + ".txt" }
                + AttachmentCommandTests.cases.map { $0.name + ".txt" })
        let orphans = files.filter { !expected.contains($0) }.sorted()
        if Snapshot.recording {
            for orphan in orphans { try FileManager.default.removeItem(atPath: Snapshot.folder + "/" + orphan) }
            if !orphans.isEmpty { Issue.record("removed snapshots no case writes: \(orphans)") }
        } else {
            #expect(orphans.isEmpty, "snapshots no case writes (remove them, or \(Snapshot.recordHint)): \(orphans)")
        }
    }

    /// The snapshots run the binary this build made, not another build's.
    @Test func theBinaryIsThisBuilds() throws {
        let bundle = Bundle.main.bundleURL.standardizedFileURL.path
        let binary = URL(fileURLWithPath: CLI.binary).standardizedFileURL
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path)")
        #expect(
            binary.deletingLastPathComponent().path == bundle || binary.deletingLastPathComponent().path == URL(fileURLWithPath: bundle).deletingLastPathComponent().path,
            "tripsync at \(binary.path) is not next to the test bundle \(bundle)")
    }

    /// The harness itself: the diff names the first differing line, placeholders replace only what is random.
    @Test func aMismatchNamesTheFirstDifferingLine() throws {
        let difference = try #require(Snapshot.difference(expected: "a\nb\nc\n", actual: "a\nb\nX\n"))
        #expect(difference.contains("first difference at line 3, column 1:"))
        #expect(difference.contains("  expected: c\n  actual:   X"))
        #expect(Snapshot.difference(expected: "same\n", actual: "same\n") == nil)
        let shorter = try #require(Snapshot.difference(expected: "a\nb\n", actual: "a\n"))
        #expect(shorter.contains("(end of this run's output)") || shorter.contains("expected: b"), "\(shorter)")
    }

    @Test func jsonIsIndentedWithoutChangingAScalar() {
        #expect(
            SnapshotRun.indented(#"[{"a":[],"b":{},"c":"x,{\"y\":[1]}","d":[1,2.50,true,null]}]"#)
                == "[\n  {\n    \"a\": [],\n    \"b\": {},\n    \"c\": \"x,{\\\"y\\\":[1]}\",\n    \"d\": [\n      1,\n      2.50,\n      true,\n      null\n    ]\n  }\n]")
    }

    @Test func onlyRandomIdsAndTimesBecomePlaceholders() {
        let folder = "/tmp/tripsync-snapshot-test"
        var run = SnapshotRun(folder: folder, snapshotCase: SnapshotCase("x", []))
        run.names = [("item-1", "ade884de-6450-4556-9474-be466b606a73")]
        let now = ISO8601DateFormatter().string(from: Date())
        let text = "id ade884de in \(folder)/a.ics at \(now); sample 6f1c0d2e-8a4b-4c1e-9b7a-2d3e4f5a6b7c at 2026-05-29T12:07:58Z, ade884de-6450-4556-9474-be466b606a73"
        #expect(
            run.sanitized(text)
                == "id <item-1:8> in $TMP/a.ics at <now>; sample 6f1c0d2e-8a4b-4c1e-9b7a-2d3e4f5a6b7c at 2026-05-29T12:07:58Z, <item-1>")
        #expect(run.expand("<item-1:8>/$TMP") == "ade884de/\(folder)")
    }
}
