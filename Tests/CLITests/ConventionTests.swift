import Foundation
import Testing
import TripSync
import TripSyncHome

/// The command-line conventions of issue 18 that git, restic and keepassxc-cli users expect,
/// recorded as snapshots (stdout, stderr, exit status; Snapshot.swift) where the output is
/// fixed, and checked by assertions where it depends on the machine (host name, timing, shells).
@Suite struct ConventionSnapshotTests {
    typealias Step = SnapshotStep

    /// A sample whose two items share the id prefix 08a955dc (one id changed from the Lisbon
    /// sample), reached from the case's folder through its `samples` link to the repository.
    static let twoItemsSharingAPrefix = "samples/../Tests/CLITests/Snapshots/fixtures/two-items-share-prefix-08a955dc.trip.json"

    /// The Lisbon sample under another trip id with the same first 8 characters and the same name.
    static let lisbonAgain = "samples/../Tests/CLITests/Snapshots/fixtures/lisbon-again-trip-6f1c0d2e-0000.trip.json"

    static let cases: [SnapshotCase] = [
        // 1. -h / --help after a command, but not after "--".
        SnapshotCase(
            "help-flag-after-a-command",
            [
                .run("backup", "-h"),
                .run("members", "claim", "--help"),
                .run("new", "Lisbon 2027", names: "trip"),
                .run("add", "--", "-h", names: "item-1"),
                .run("show"),
            ]),

        // 2. --trip (and --home) before or after the command; "--" ends options; "-" is stdout.
        SnapshotCase(
            "trip-option-before-or-after-the-command",
            [
                .run("new", "Lisbon", names: "trip-1"),
                .run("new", "Porto", names: "trip-2"),
                .run("--trip", "Lisbon", "add", "Fado night", "--day", "2027-06-08", names: "item-1"),
                .run("add", "Port tasting", "--day", "2027-06-12", "--trip", "Porto", names: "item-2"),
                .run("--trip=<trip-2>", "show"),
                .run("--home", "$TMP/home", "--trip", "Porto", "show", "--trip", "Lisbon"),
                .run("--trip", "Lisbon", "add", "--", "-5 euro tip", names: "item-3"),
                .run("--trip", "Lisbon", "show"),
                .run("--trip", "Lisbon", "validate", "samples/lisbon-new-york.trip.json"),
                .run("--trip"),
            ]),
        SnapshotCase(
            "dash-writes-to-standard-output",
            [
                .run("import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"),
                .run("merge", "samples/v1/porto-alex.trip.json", "-o", "-"),
                .run("migrate", "samples/v1/porto-sam.trip.json", "-o", "-"),
                .run("merge", "samples/v1/porto-alex.trip.json", "-o", "-", "--json"),
                .run("owner", "export", "-o", "-"),
            ]),

        // 3. Read-only commands on a home that does not exist create nothing.
        SnapshotCase(
            "read-only-commands-on-a-missing-home", home: .fresh,
            [
                .run("show"), .run("trips"), .run("status"), .run("conflicts"), .run("fingerprint"),
                .run("export", "--ics", "$TMP/trip.ics"), .run("backup", "-o", "$TMP/b.trip.json.gz"), .run("members"),
                .run("--home", "$TMP", "show"),
                // merge makes a home only to write as it: not for a refused input, not for a dry run.
                .run("merge", "samples/v1/porto-alex.trip.json", "$TMP/nowhere.trip.json", "-o", "$TMP/m.trip.json"),
                .run("merge", "samples/v1/porto-alex.trip.json", "samples/v1/porto-sam.trip.json", "-o", "$TMP/m.trip.json", "--dry-run"),
                // The home is still not there: validate names what it finds at the path.
                .run("validate", "$TMP/home", "$TMP/device.json"),
            ]),

        // 4. An existing output file needs --force (no terminal here); backup writes what its name says.
        SnapshotCase(
            "existing-output-files-need-force",
            [
                .run("import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"),
                .run("backup", "-o", "$TMP/b.trip.json.gz"),
                .run("backup", "-o", "$TMP/b.trip.json.gz"),
                .run("backup", "-o", "$TMP/b.trip.json.gz", "--force"),
                .run("export", "--ics", "$TMP/trip.ics"),
                .run("export", "--ics", "$TMP/trip.ics", "--html", "$TMP/trip.html"),
                .run("export", "--ics", "$TMP/trip.ics", "--force"),
                .run("merge", "samples/v1/porto-alex.trip.json", "-o", "$TMP/porto.trip.json"),
                .run("merge", "samples/v1/porto-sam.trip.json", "-o", "$TMP/porto.trip.json"),
                .run("merge", "samples/v1/porto-sam.trip.json", "-o", "$TMP/porto.trip.json", "--dry-run"),
                .run("migrate", "samples/v1/porto-sam.trip.json", "-o", "$TMP/porto.trip.json"),
                .run("merge", "samples/v1/porto-sam.trip.json", "-o", "$TMP/porto.trip.json", "--force"),
                .run("backup", "-o", "$TMP"),
            ]),
        SnapshotCase(
            "backup-writes-what-the-name-says",
            [
                .run("import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"),
                .run("backup", "-o", "$TMP/plain.trip.json"),
                .run("backup", "-o", "$TMP/packed.trip.json.gz"),
                .run("validate", "$TMP/plain.trip.json", "$TMP/packed.trip.json.gz"),
                .run("backup", "-o", "$TMP/trip.bak"),
                .run("validate", "$TMP/trip.bak"),
            ]),

        // 5. An ambiguous trip name or item prefix lists the candidates with their ids.
        SnapshotCase(
            "ambiguous-trip-names-list-the-candidates",
            [
                .run("import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"),
                .run("import", lisbonAgain, "--merge", "--yes"),
                .run("show"),
                .run("show", "--trip", "Lisbon & New York 2027"),
                .run("show", "--trip", "6f1c0d2e"),
                .run("show", "--trip", "Porto"),
                .run("conflicts", "--trip", "6f1c0d2e-0000"),
            ]),
        SnapshotCase(
            "ambiguous-item-prefixes-list-the-candidates",
            [
                .run("import", twoItemsSharingAPrefix, "--merge", "--yes"),
                .run("edit", "08a955", "--title", "Walk the High Line at dusk"),
                .run("delete", "08a955dc"),
                .run("edit", "ffff", "--title", "Nothing"),
                .run("delete", "08a955dc-e73d"),
                .run("restore", "08a9"),
            ]),

        // 8. completion: its usage errors (the scripts themselves are run in real shells below).
        SnapshotCase("completion-needs-a-known-shell", [.run("completion"), .run("completion", "tcsh"), .run("completion", "-h")]),
    ]

    @Test(arguments: cases)
    func snapshot(_ snapshotCase: SnapshotCase) throws {
        try Snapshot.check(snapshotCase)
    }
}

/// Conventions whose output depends on the machine or on timing, checked by assertions.
@Suite struct ConventionTests {
    func run(_ home: String, _ arguments: [String]) throws -> CLIResult {
        try CLI.run(["--home", home] + arguments)
    }

    /// The command names `tripsync help` lists.
    static func commandNames() throws -> [String] {
        let help = try CLI.run(["help"])
        let lines = help.stdout.split(separator: "\n").drop { $0 != "commands:" }.dropFirst()
        return lines.prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "help" }
    }

    /// 1. Every command answers -h and --help with its own usage (what `help COMMAND` prints), exit 0.
    @Test func everyCommandTakesHelpFlags() throws {
        let names = try Self.commandNames()
        #expect(names.count >= 25, "\(names)")
        #expect(names.contains("completion"))
        let home = CLI.temporaryFolder() + "/never-made"
        for name in names {
            let expected = try CLI.run(["help", name])
            #expect(expected.status == 0 && expected.stdout.hasPrefix("usage: tripsync \(name)"), "\(name): \(expected.stdout)")
            for flag in ["-h", "--help"] {
                let result = try run(home, [name, flag])
                #expect(result.status == 0, "\(name) \(flag): \(result.stderr)")
                #expect(result.stdout == expected.stdout, "\(name) \(flag)")
                #expect(result.stderr.isEmpty, "\(name) \(flag): \(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: home), "asking for help made a home")
    }

    /// 2. `backup -o -` writes the gzip backup to stdout (the report to stderr); on a terminal it is refused.
    @Test func backupToStandardOutput() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try run(home, ["import", CLI.root + "/samples/lisbon-new-york.trip.json", "--merge", "--yes"]).status == 0)
        let (status, out, err) = try CLI.spawn(CLI.binary, ["--home", home, "backup", "-o", "-"], cwd: home)
        #expect(status == 0, "\(String(decoding: err, as: UTF8.self))")
        #expect(Array(out.prefix(2)) == [0x1F, 0x8B], "stdout is not gzip")
        #expect(String(decoding: err, as: UTF8.self) == "wrote the backup to standard output (gzip): 19 items, 2 deleted items\n")
        try out.write(to: URL(fileURLWithPath: home + "/piped.trip.json.gz"))
        let fingerprint = try run(home, ["fingerprint", home + "/piped.trip.json.gz"])
        #expect(fingerprint.stdout == (try run(home, ["fingerprint"])).stdout && fingerprint.status == 0, "\(fingerprint.stderr)")
        // A name ending in .json gets plain JSON of the same state.
        #expect(try run(home, ["backup", "-o", home + "/plain.trip.json"]).status == 0)
        let plain = try Data(contentsOf: URL(fileURLWithPath: home + "/plain.trip.json"))
        #expect(plain.first == UInt8(ascii: "{"))
        #expect(try run(home, ["fingerprint", home + "/plain.trip.json"]).stdout == fingerprint.stdout)

        let terminal = try CLI.runInTerminal(["--home", home, "backup", "-o", "-"], answers: [])
        #expect(terminal.status == 1, "\(terminal.stdout)")
        #expect(
            terminal.stdout.contains(
                "tripsync: error: backup -o -: the output is gzip (binary) and standard output is a terminal; redirect it (> FILE) or pipe it (| gzip -dc); nothing was written"),
            "\(terminal.stdout)")
    }

    /// 3. A read-only command on a home that does not exist leaves the path as it was: nothing made.
    @Test(arguments: [
        ["show"], ["show", "--json"], ["trips"], ["trips", "--json"], ["status"], ["status", "--json"], ["conflicts"], ["conflicts", "--json"],
        ["fingerprint"], ["export", "--ics", "OUT/a.ics"], ["export", "--html", "OUT/a.html"], ["backup", "-o", "OUT/b.trip.json.gz"], ["members"],
        ["members", "--json"],
    ])
    func readOnlyCommandsCreateNoHome(arguments: [String]) throws {
        let out = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let home = out + "/mistyped-home"
        let result = try run(home, arguments.map { $0.replacingOccurrences(of: "OUT", with: out) })
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "tripsync: error: \(home): no TripSync home here (no device.json), and this command creates none; check --home or $TRIPSYNC_HOME, or make one with 'tripsync init --home \(home)'\n")
        #expect(!FileManager.default.fileExists(atPath: home), "\(arguments) made \(home)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "\(arguments) wrote into \(out)")
    }

    /// 4. Refused without --force, an existing file keeps its bytes; with --force it is replaced.
    @Test func refusedOverwritesLeaveTheFileAsItWas() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try run(home, ["import", CLI.root + "/samples/lisbon-new-york.trip.json", "--merge", "--yes"]).status == 0)
        let commands: [[String]] = [
            ["backup", "-o", "FILE"], ["export", "--ics", "FILE"], ["export", "--html", "FILE"],
            ["merge", CLI.root + "/samples/v1/porto-alex.trip.json", "-o", "FILE"], ["migrate", CLI.root + "/samples/v1/porto-alex.trip.json", "-o", "FILE"],
        ]
        for (index, command) in commands.enumerated() {
            let file = home + "/existing-\(index).trip.json"
            let before = Data("keep me\n".utf8)
            try before.write(to: URL(fileURLWithPath: file))
            let arguments = command.map { $0 == "FILE" ? file : $0 }
            let refused = try run(home, arguments)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderr.contains("\(file) exists; give --force to write over it; nothing was written"), "\(command): \(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(command) changed the file")
            let forced = try run(home, arguments + ["--force"])
            #expect(forced.status == 0, "\(command): \(forced.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) != before, "\(command) --force left the file")
        }
    }

    /// 6. A new device is named by its host and the first four characters of its id.
    @Test func aNewDeviceIsNamedByHostAndShortID() throws {
        let home = CLI.temporaryFolder() + "/home"
        defer { try? FileManager.default.removeItem(atPath: (home as NSString).deletingLastPathComponent) }
        let result = try run(home, ["init"])
        #expect(result.status == 0, "\(result.stderr)")
        let identity = try Home(path: home).identity()
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        #expect(identity.name == (host.isEmpty ? "laptop" : host) + " " + identity.deviceID.description.prefix(4))
        #expect(result.stdout.contains("device \(identity.deviceID) (\(identity.name))"))
        #expect(Home.defaultDeviceName(host: "lisbon-mbp.local", deviceID: identity.deviceID) == "lisbon-mbp " + identity.deviceID.description.prefix(4))
        #expect(Home.defaultDeviceName(host: "", deviceID: identity.deviceID) == "laptop " + identity.deviceID.description.prefix(4))
    }

    /// 6. Two laptops with one name: `status` shows each with its short id; others keep the bare name.
    @Test func statusTellsSameNamedDevicesApart() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (a, b, c, shared) = (root + "/a", root + "/b", root + "/c", root + "/shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for (home, name) in [(a, "mbp"), (b, "mbp"), (c, "Sam's laptop")] { #expect(try run(home, ["init", "--device-name", name]).status == 0) }
        #expect(try run(a, ["new", "Lisbon 2027", "--open"]).status == 0)
        #expect(try run(a, ["add", "Fado night", "--day", "2027-06-08"]).status == 0)
        #expect(try run(a, ["sync", shared]).status == 0)
        for home in [b, c] {
            let joined = try run(home, ["sync", shared])
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(try run(home, ["add", "From " + home.suffix(1), "--day", "2027-06-09"]).status == 0)
            #expect(try run(home, ["sync", shared]).status == 0)
        }
        #expect(try run(a, ["sync", shared]).status == 0)
        let status = try run(a, ["status"])
        #expect(status.status == 0, "\(status.stderr)")
        let bID = try Home(path: b).identity().deviceID.description.prefix(8)
        #expect(status.stdout.contains("  mbp (\(bID)): "), "\(status.stdout)")
        #expect(status.stdout.contains("  Sam's laptop: "), "\(status.stdout)")
        #expect(!status.stdout.contains("Sam's laptop ("), "\(status.stdout)")
    }

    /// 7. A wait for the lock says once, on stderr, who holds it and how long it waits; then it goes on.
    @Test func aLockWaitSaysWhoHoldsIt() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try run(home, ["new", "Lisbon 2027"]).status == 0)
        var lock: HomeLock? = try HomeLock(home: Home(path: home))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["--home", home, "add", "Lunch"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        withExtendedLifetime(lock) {}
        lock = nil
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        // The wait, then what add stored (issue 25: add says it on stderr).
        let lines = stderr.split(separator: "\n").filter { !$0.hasPrefix("added \"") }
        #expect(lines.count == 1, "\(stderr)")
        let me = ProcessInfo.processInfo.processIdentifier
        #expect(stderr.hasPrefix("tripsync: \(home) is in use by another tripsync (pid \(me), "), "\(stderr)")
        #expect(stderr.contains(", since ") && stderr.contains("Z); waiting up to 10 s for it\n"), "\(stderr)")
    }

    /// 7. A wait past the timeout: the message once, then the same error as before; nothing was changed.
    @Test func aLockWaitThatTimesOutFails() throws {
        let home = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(try run(home, ["new", "Lisbon 2027"]).status == 0)
        let lock = try HomeLock(home: Home(path: home))
        let result = try run(home, ["add", "Lunch"])
        withExtendedLifetime(lock) {}
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasSuffix("; waiting up to 10 s for it") == true, "\(result.stderr)")
        #expect(
            lines.last
                == "tripsync: error: \(home): another tripsync process has held this home's lock for more than 10 s; wait for it to finish (or end it) and try again; nothing was changed")
    }

    // MARK: 8. completion scripts, loaded in the real shells

    /// Runs `script` with `shell` (`bash`, `zsh`, `fish`), the built tripsync first on PATH.
    func shell(_ shell: String, _ arguments: [String]) throws -> CLIResult {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (CLI.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let (status, out, err) = try CLI.spawn("/usr/bin/env", [shell] + arguments, environment: environment, cwd: CLI.root)
        return CLIResult(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    static func installed(_ shell: String) -> Bool {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
    }

    /// A home with one trip, for trip-id completion.
    func homeWithATrip() throws -> (home: String, trip: String) {
        let home = CLI.temporaryFolder()
        let trip = try run(home, ["new", "Lisbon 2027"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (home, trip)
    }

    @Test func bashCompletesCommandsOptionsActionsAndTripIDs() throws {
        let (home, trip) = try homeWithATrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let script = """
            source <(tripsync completion bash)
            try() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _tripsync; echo "${COMPREPLY[*]}"; }
            try tripsync ba
            try tripsync backup --f
            try tripsync --home \(home) show --trip ""
            try tripsync members ""
            try tripsync completion ""
            try tripsync --home \(home) add --pl
            complete -p tripsync
            """
        let result = try shell("bash", ["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "backup\n--force\n\(trip)\nclaim approve decline set remove rotate\nbash zsh fish\n--place\ncomplete -o filenames -F _tripsync tripsync\n", "\(result.stdout)")
    }

    @Test(.enabled(if: ConventionTests.installed("zsh"), "zsh is installed by .ci/run"))
    func zshCompletesCommandsOptionsActionsAndTripIDs() throws {
        let (home, trip) = try homeWithATrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        // Loaded after compinit as a user's ~/.zshrc does; compadd, _describe and _files (which
        // need a completion widget) print what they were given instead.
        let script = """
            autoload -U compinit; compinit -u -D
            source <(tripsync completion zsh)
            print -r -- "bound ${_comps[tripsync]}"
            compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }
            _describe() { print -r -- "${(j: :)${(@)${(P)2}%%:*}}"; }
            _files() { print -r -- FILES; }
            try() { words=("$@"); CURRENT=${#words}; _tripsync; }
            try tripsync ba
            try tripsync backup --f
            try tripsync --home \(home) show --trip ''
            try tripsync members ''
            try tripsync validate ''
            """
        let syntax = try shell("zsh", ["-n", "-c", try CLI.run(["completion", "zsh"]).stdout])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let result = try shell("zsh", ["-f", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "bound _tripsync", "\(result.stdout)")
        #expect(lines.count == 6, "\(result.stdout)")
        if lines.count == 6 {
            #expect(lines[1].split(separator: " ").contains("backup"), "\(lines[1])")
            #expect(lines[1].split(separator: " ").contains("completion"), "\(lines[1])")
            #expect(lines[2].split(separator: " ").contains("--force"), "\(lines[2])")
            #expect(lines[3] == trip)
            #expect(lines[4] == "claim approve decline set remove rotate")
            #expect(lines[5] == "FILES")
        }
    }

    @Test(.enabled(if: ConventionTests.installed("fish"), "fish is installed by .ci/run"))
    func fishCompletesCommandsOptionsActionsAndTripIDs() throws {
        let (home, trip) = try homeWithATrip()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let syntax = try shell("fish", ["-n", "-c", try CLI.run(["completion", "fish"]).stdout])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let script = """
            tripsync completion fish | source
            complete -C 'tripsync ba'
            echo ==
            complete -C 'tripsync backup --f'
            echo ==
            complete -C 'tripsync --home \(home) show --trip '
            echo ==
            complete -C 'tripsync members '
            """
        let result = try shell("fish", ["--no-config", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let parts = result.stdout.components(separatedBy: "==\n")
        #expect(parts.count == 4, "\(result.stdout)")
        if parts.count == 4 {
            #expect(parts[0].hasPrefix("backup\twrite this trip's replica"), "\(parts[0])")
            #expect(parts[1] == "--force\n", "\(parts[1])")
            #expect(parts[2] == "\(trip)\tthe trip (id, id prefix or name)\n", "\(parts[2])")
            #expect(parts[3].split(separator: "\n").sorted() == ["approve", "claim", "decline", "remove", "rotate", "set"], "\(parts[3])")
        }
    }
}
