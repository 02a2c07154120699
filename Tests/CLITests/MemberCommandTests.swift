import Foundation
import Testing
import TripSyncHome
import TripSyncPlatform

@testable import TripSyncCore

/// Members, roles and signed files (issue 16) as a person meets them, recorded as snapshot files
/// like CLISnapshotTests: laptops are homes `homeA`, `homeB`, … in the case's folder, sharing the
/// folder `shared`, all given relative to it. Besides Snapshot.swift's placeholders, each home's
/// random device id is `<laptop-A>` (`<laptop-A:8>`), an invite code a step prints is `<invite>`
/// (`<invite-2>` for a second one), a key fingerprint is named after whose key it is
/// (`<owner-key>`, `<laptop-B-key>`; `<key-N>` when the output never says), a base64 key in
/// `--json` likewise, and an invite's expiry `<now+7d>`.
///
///     TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter MemberCommand    # re-record
@Suite struct MemberCommandCLISnapshotTests {
    typealias Step = MemberStep

    static func a(_ arguments: String..., names: String? = nil, captures: String? = nil) -> Step { .run("A", arguments, names: names, captures: captures) }
    static func b(_ arguments: String..., names: String? = nil, captures: String? = nil) -> Step { .run("B", arguments, names: names, captures: captures) }

    /// Laptop A makes an owned trip with one item and publishes it into `shared`.
    static let ownedTrip: [Step] = [
        a("init", "--device-name", "Laptop A"),
        a("new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--owned", names: "trip"),
        a("add", "Fado night", "--day", "2027-06-08", "--at", "21:00", names: "item-1"),
        a("sync", "shared"),
    ]

    /// Laptop B joins the owned trip as ROLE: invite, join, sync (waits), owner's sync (admits), sync (joins).
    static func joined(as role: String) -> [Step] {
        ownedTrip + [
            a("invite", "--role", role, captures: "invite"),
            b("init", "--device-name", "Laptop B"),
            b("join", "<invite>", "shared"),
            b("sync", "shared"),
            a("sync", "shared"),
            b("sync", "shared"),
        ]
    }

    static let cases: [MemberCase] = [
        MemberCase(
            "members-of-a-new-owned-trip-lists-the-owner",
            [
                a("init", "--device-name", "Laptop A"),
                a("new", "Lisbon 2027", "--owned", names: "trip"),
                a("members"),
                a("members", "--json"),
                a("members", "frobnicate"),
                a("members", "remove"),
            ]),
        MemberCase(
            "invite-usage-errors-exit-2",
            [
                a("init", "--device-name", "Laptop A"),
                a("new", "Lisbon 2027", "--owned", names: "trip"),
                a("invite"),
                a("invite", "--role", "owner"),
                a("invite", "--role", "admin"),
                a("invite", "--role", "editor", "--expires", "0"),
                a("invite", "--role", "editor", "--expires", "400"),
                a("invite", "--role", "viewer", "--expires", "soon"),
                a("invite", "--role", "viewer", "sam@example.com"),
            ]),
        MemberCase(
            "join-damaged-truncated-or-not-an-invite-code-exit-1",
            ownedTrip + [
                a("invite", "--role", "editor", captures: "invite"),
                b("init", "--device-name", "Laptop B"),
                b("join", "<invite:damaged>", "shared"),
                b("join", "<invite:truncated>", "shared"),
                b("join", "https://example.com/trip", "shared"),
                b("join", "tsi1.", "shared"),
                b("join", "<invite>"),
                .files,
            ]),
        MemberCase(
            "invite-join-wait-admit-join-flow",
            ownedTrip + [
                a("invite", "--role", "editor", "--expires", "3", captures: "invite"),
                b("init", "--device-name", "Laptop B"),
                b("join", "<invite>", "shared"),
                .files,
                b("sync", "shared"),
                b("members"),
                a("sync", "shared"),
                a("members"),
                .files,
                b("sync", "shared"),
                .files,
                b("show"),
                b("members"),
                b("add", "Tram 28", "--day", "2027-06-09", "--at", "10:00", names: "item-2"),
                b("sync", "shared"),
                a("sync", "shared"),
                a("show"),
                a("members", "--json"),
            ]),
        MemberCase(
            "viewer-add-and-edit-refused-exit-1",
            joined(as: "viewer") + [
                b("members"),
                b("add", "Pasteis de nata", "--day", "2027-06-09"),
                b("edit", "<item-1:8>", "--title", "Fado, second night"),
                b("show"),
            ]),
        MemberCase(
            "removed-device-later-edit-does-not-reach-the-owner",
            joined(as: "editor") + [
                b("add", "Tram 28", "--day", "2027-06-09", "--at", "10:00", names: "item-2"),
                b("sync", "shared"),
                a("sync", "shared"),
                a("members", "remove", "<laptop-B:8>"),
                a("members"),
                a("sync", "shared"),
                // B edits before its next sync brings the removal; that sync still publishes it.
                b("edit", "<item-2:8>", "--title", "Tram 28 after the removal"),
                b("sync", "shared"),
                a("sync", "shared"),
                a("show"),
                b("members"),
                b("add", "One more", "--day", "2027-06-10"),
            ]),
        MemberCase(
            "tampered-signed-file-skipped-at-the-owner",
            joined(as: "editor") + [
                b("add", "Tram 28", "--day", "2027-06-09", "--at", "10:00", names: "item-2"),
                b("sync", "shared"),
                .action(
                    "open shared/<trip>/<laptop-B>.trip.json.gz with the trip's key, change one byte of the title \"Tram 28\" to \"Tram 29\", seal it again, keep B's signature"
                ) { expand in
                    try MemberFiles.flipTitleByte(
                        in: expand("$TMP/shared/<trip>/<laptop-B>.trip.json.gz"), from: "\"Tram 28\"", to: "\"Tram 29\"", keysOf: expand("$TMP/homeB"))
                },
                a("sync", "shared"),
                a("show"),
                a("validate", "shared/<trip>/<laptop-B>.trip.json.gz"),
            ]),
        MemberCase(
            "owner-export-import-with-passphrase-file",
            joined(as: "editor") + [
                .action("write the passphrase file pass.txt and the wrong one wrong.txt") { expand in
                    try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: expand("$TMP/pass.txt")))
                    try Data("correct horse battery stapler\n".utf8).write(to: URL(fileURLWithPath: expand("$TMP/wrong.txt")))
                },
                b("owner", "export", "-o", "owner.key", "--passphrase-file", "pass.txt"),
                a("owner", "export", "-o", "owner.key", "--passphrase-file", "pass.txt"),
                a("owner", "export", "-o", "owner.key", "--passphrase-file", "pass.txt"),
                b("invite", "--role", "viewer"),
                b("owner", "import", "owner.key", "--passphrase-file", "wrong.txt"),
                b("members"),
                b("owner", "import", "owner.key", "--passphrase-file", "pass.txt"),
                b("members"),
                b("invite", "--role", "viewer", captures: "invite-2"),
                b("sync", "shared"),
                a("sync", "shared"),
                a("members"),
            ]),
        MemberCase(
            "members-claim-an-imported-open-trip",
            [
                // A fixed device id: the open trip lists its devices by id, the sample's among them.
                .action("homeA/device.json: device \(Snapshot.fixedDevice) named Laptop A") { expand in
                    try FileManager.default.createDirectory(atPath: expand("$TMP/homeA"), withIntermediateDirectories: true)
                    let json = #"{"deviceId":"\#(Snapshot.fixedDevice)","format":1,"highWater":0,"name":"Laptop A"}"#
                    try Data((json + "\n").utf8).write(to: URL(fileURLWithPath: expand("$TMP/homeA/device.json")))
                },
                a("import", "samples/lisbon-new-york.trip.json", "--merge", "--yes"),
                a("members"),
                a("invite", "--role", "editor"),
                a("members", "claim"),
                a("members"),
                a("members", "claim"),
                a("members", "approve", "Sam's laptop"),
                a("members", "approve", "--all"),
            ]),
    ]

    @Test(arguments: cases) func snapshot(_ memberCase: MemberCase) throws {
        try MemberSnapshot.check(memberCase)
    }

    @Test func fingerprintsAndKeysAreNamedAfterWhoseTheyAre() {
        let text = """
            "Lisbon", owner key 2cdb 7148 46d5 ff48 (held here)
              <laptop-A:8>  Laptop A  owner  key c4c0 71ad 3c64 5478  (this laptop)
            asked to join (this laptop: Laptop B, key ad34 2074 0d0e fb5b)
            admitted Laptop B (<laptop-B:8>, key ad34 2074 0d0e fb5b) as editor
                "device": "<laptop-A>",
                "fingerprint": "c4c0 71ad 3c64 5478",
                "key": "0I0ylyCgDLbSuDrK7xGMNb+rfhMzW1cHpW7IrWGsuNw=",
            a stranger's key 1111 2222 3333 4444
            """
        #expect(
            MemberSnapshot.namedKeys(text) == """
                "Lisbon", owner key <owner-key> (held here)
                  <laptop-A:8>  Laptop A  owner  key <laptop-A-key>  (this laptop)
                asked to join (this laptop: Laptop B, key <laptop-B-key>)
                admitted Laptop B (<laptop-B:8>, key <laptop-B-key>) as editor
                    "device": "<laptop-A>",
                    "fingerprint": "<laptop-A-key>",
                    "key": "<laptop-A-key, base64>",
                a stranger's key <key-1>
                """)
    }
}

/// One step of a members case: a command in a home, the files in `shared`, or an action on the folder.
enum MemberStep: Sendable {
    /// `tripsync --home homeHOME ARGS`; `names` names the id it prints, `captures` the code it prints.
    case run(String, [String], names: String?, captures: String?)
    /// Lists the files in `shared` (what another laptop's folder would receive).
    case files
    /// Something a person (or an attacker) does to the files; the closure gets the expander of `$TMP` and names.
    case action(String, @Sendable (_ expand: (String) -> String) throws -> Void)
}

struct MemberCase: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [MemberStep]
    init(_ name: String, _ steps: [MemberStep]) {
        self.name = name
        self.steps = steps
    }
    var testDescription: String { name }
}

enum MemberFiles {
    /// Opens the sealed file at `path` with the epoch keys of the home `keysOf` (issue 43),
    /// gunzips what is inside, replaces the first `from` by `to` (same length: one byte
    /// differs), gzips and seals it again under the same epoch key and header, and puts the
    /// writer's signature back: what one who holds the trip's key but not the writer's signing
    /// key can write in its name.
    static func flipTitleByte(in path: String, from: String, to: String, keysOf home: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var envelope = try SealedFile(parsing: bytes)
        guard let key = try Home(path: home).sealKeys().key(trip: envelope.trip, id: envelope.epochID) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        let zippedInside = path + ".inside.gz"
        try Data(try envelope.open(with: key).get()).write(to: URL(fileURLWithPath: zippedInside))
        let (status, json, _) = try CLI.spawn("/bin/sh", ["-c", "gzip -dc < \"$1\" && rm \"$1\"", "sh", zippedInside], cwd: "/")
        guard status == 0, let text = String(data: json, encoding: .utf8), let range = text.range(of: from), from.utf8.count == to.utf8.count else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        let changed = text.replacingCharacters(in: range, with: to)
        let plain = path + ".plain"
        try Data(changed.utf8).write(to: URL(fileURLWithPath: plain))
        defer { try? FileManager.default.removeItem(atPath: plain) }
        // Padded to the very length B's plaintext had (a 0x80 byte, then zeros, as `sodium_pad`
        // does), so the header, which names the ciphertext's length, is the one B signed. `gzip`
        // need not give libdeflate's length, so the first of its levels whose output fits is used.
        let paddedCount = envelope.ciphertext.count - Sodium.streamSealedCount(plaintextCount: 0)
        var fitting: Data?
        for level in 1...9 where fitting == nil {
            let (zipped, gzip, _) = try CLI.spawn("/bin/sh", ["-c", "gzip -n -\(level) -c < \"$1\"", "sh", plain], cwd: "/")
            if zipped == 0, gzip.count < paddedCount, paddedCount - gzip.count <= Sodium.paddingBlock(for: paddedCount) { fitting = gzip }
        }
        guard let gzip = fitting else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        let padded = [UInt8](gzip) + [0x80] + [UInt8](repeating: 0, count: paddedCount - gzip.count - 1)
        let ciphertext = Sodium.streamSeal(padded, key: key.key, additionalData: envelope.associatedData)
        guard ciphertext.count == envelope.ciphertext.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        envelope.ciphertext = ciphertext
        let changedFile = envelope.headerLine + ciphertext + bytes.suffix(SealedFile.signatureBytes)
        try Data(changedFile).write(to: URL(fileURLWithPath: path))
    }
}

/// Runs a members case and compares (or records) its snapshot, as Snapshot.check does for one home.
enum MemberSnapshot {
    static let homes = ["A", "B", "C"]

    static func check(_ memberCase: MemberCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = try render(memberCase)
        let file = Snapshot.path(of: memberCase.name)
        let recorded = FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) }
        let hint = "re-record with TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter MemberCommand"
        if Snapshot.recording {
            try FileManager.default.createDirectory(atPath: Snapshot.folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            let what = recorded == actual ? "unchanged" : (recorded == nil ? "new" : "changed")
            Issue.record("recorded snapshot \(memberCase.name).txt (\(what)); unset TRIPSYNC_RECORD_SNAPSHOTS and run again to compare", sourceLocation: sourceLocation)
            return
        }
        guard let recorded else {
            Issue.record("no snapshot recorded at \(file); \(hint)\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        if let difference = Snapshot.difference(expected: recorded, actual: actual) {
            let saved = NSTemporaryDirectory() + "tripsync-snapshot-\(memberCase.name).actual.txt"
            try? Data(actual.utf8).write(to: URL(fileURLWithPath: saved))
            Issue.record(
                "snapshot \(memberCase.name).txt differs from what was recorded\n\(difference)\n(this run's output: \(saved); \(hint))",
                sourceLocation: sourceLocation)
        }
    }

    static func render(_ memberCase: MemberCase) throws -> String {
        let folder = NSTemporaryDirectory() + "tripsync-snapshot-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/shared", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/samples", withDestinationPath: CLI.root + "/samples")
        var run = SnapshotRun(folder: folder, snapshotCase: SnapshotCase(memberCase.name, []))
        var codes: [(name: String, code: String)] = []
        var text = "# tripsync snapshot \(memberCase.name); re-record with TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter MemberCommand\n"

        /// Invite codes (whole, damaged, truncated) by their placeholders, longest first.
        func scrubCodes(_ output: String) -> String {
            var result = output
            for (name, code) in codes.flatMap({ [($0.name, $0.code), ($0.name + ":damaged", damaged($0.code)), ($0.name + ":truncated", truncated($0.code))] })
                .sorted(by: { $0.1.count > $1.1.count })
            {
                result = result.replacingOccurrences(of: code, with: "<\(name)>")
            }
            return result
        }
        func expand(_ argument: String) -> String {
            var result = argument
            for (name, code) in codes {
                result = result.replacingOccurrences(of: "<\(name):damaged>", with: damaged(code))
                result = result.replacingOccurrences(of: "<\(name):truncated>", with: truncated(code))
                result = result.replacingOccurrences(of: "<\(name)>", with: code)
            }
            return run.expand(result)
        }

        for step in memberCase.steps {
            text += "\n"
            switch step {
            case .run(let home, let arguments, let names, let captures):
                let (status, outData, errData) = try CLI.spawn(
                    CLI.binary, ["--home", "home" + home] + arguments.map(expand), environment: run.environment, cwd: folder)
                let stdout = String(decoding: outData, as: UTF8.self)
                let stderr = String(decoding: errData, as: UTF8.self)
                let printed = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if let names {
                    if SnapshotRun.isIdentifier(printed) {
                        run.names.append((names, printed))
                    } else {
                        Issue.record("\(memberCase.name): `\(arguments.joined(separator: " "))` was to print an id named \(names), printed \(stdout) \(stderr)")
                    }
                }
                if let captures {
                    if printed.hasPrefix("tsi1."), !printed.contains("\n") {
                        codes.append((captures, printed))
                    } else {
                        Issue.record("\(memberCase.name): `\(arguments.joined(separator: " "))` was to print an invite code, printed \(stdout) \(stderr)")
                    }
                }
                for home in homes {
                    if let device = device(of: folder + "/home" + home), !run.names.contains(where: { $0.id == device }) {
                        let taken = run.names.filter { $0.name.hasPrefix("laptop-\(home)") }.count
                        run.names.append((taken == 0 ? "laptop-\(home)" : "laptop-\(home)-\(taken + 1)", device))
                    }
                }
                text += (["$ tripsync", "--home", "home" + home] + arguments.map(SnapshotRun.quoted)).joined(separator: " ") + "\n"
                text += arguments.contains("--json") ? run.jsonSection(scrubCodes(stdout)) : run.section("stdout", scrubCodes(stdout))
                text += run.section("stderr", scrubCodes(stderr))
                text += "--- exit \(status)\n"
            case .files:
                let root = folder + "/shared"
                let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
                    .filter { var isFolder: ObjCBool = false; return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isFolder) && !isFolder.boolValue }
                    .map { run.sanitized($0) }
                    .sorted()
                text += "# the files in shared/\n" + (files.isEmpty ? "(none)\n" : files.map { "  " + $0 + "\n" }.joined())
            case .action(let description, let body):
                text += "# " + description + "\n"
                try body(expand)
            }
        }
        return namedExpiries(namedKeys(text), since: run.started)
    }

    static func device(of home: String) -> String? {
        guard let data = FileManager.default.contents(atPath: home + "/device.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let device = object["deviceId"] as? String, SnapshotRun.isIdentifier(device)
        else { return nil }
        return device
    }

    /// `<invite:damaged>`: one character in the middle of the code changed.
    static func damaged(_ code: String) -> String {
        var characters = Array(code)
        let middle = characters.count / 2
        characters[middle] = characters[middle] == "A" ? "B" : "A"
        return String(characters)
    }

    /// `<invite:truncated>`: the first half of the code (cut when copied).
    static func truncated(_ code: String) -> String { String(code.prefix(code.count / 2)) }

    static let fingerprint = #"(?<![0-9a-f])[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}(?![0-9a-f])"#
    static let base64Key = #"(?<=")[A-Za-z0-9+/]{43}=(?=")"#

    /// Key fingerprints and base64 keys named after whose key they are: `owner key X` is the
    /// owner key, a key on a line naming `<laptop-B…>` (or, in indented JSON, the nearest
    /// `"device"` above) is that laptop's; the name holds for every other place the key appears.
    static func namedKeys(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var labels: [String: String] = [:]
        func laptop(before column: String.Index, in index: Int) -> String? {
            if let found = lastLaptop(in: String(lines[index][..<column])) { return found }
            guard lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("\"") else { return nil }
            for above in stride(from: index - 1, through: max(0, index - 4), by: -1) {
                if lines[above].contains("\"device\": ") { return lastLaptop(in: lines[above]) }
            }
            return nil
        }
        for (index, line) in lines.enumerated() {
            for range in matches(fingerprint, in: line) where labels[String(line[range])] == nil {
                if line[..<range.lowerBound].hasSuffix("owner key ") {
                    labels[String(line[range])] = "owner-key"
                } else if let who = laptop(before: range.lowerBound, in: index) {
                    labels[String(line[range])] = who + "-key"
                }
            }
            for range in matches(base64Key, in: line) where labels[String(line[range])] == nil {
                if let who = laptop(before: range.lowerBound, in: index) { labels[String(line[range])] = who + "-key, base64" }
            }
        }
        var unnamed = 0
        return lines.map { line in
            var result = line
            for pattern in [fingerprint, base64Key] {
                for range in matches(pattern, in: result).reversed() {
                    let key = String(result[range])
                    if labels[key] == nil {
                        unnamed += 1
                        labels[key] = "key-\(unnamed)"
                    }
                    result.replaceSubrange(range, with: "<\(labels[key] ?? "")>")
                }
            }
            return result
        }.joined(separator: "\n")
    }

    /// The last `<laptop-X…>` placeholder in `text`, without its brackets and `:8`.
    static func lastLaptop(in text: String) -> String? {
        guard let range = matches(#"<laptop-[A-Z](?:-[0-9]+)?(?::8)?>"#, in: text).last else { return nil }
        return String(text[range].dropFirst().dropLast()).replacingOccurrences(of: ":8", with: "")
    }

    /// Times a whole number of days (1 to 365) after the run, as an invite's expiry: `<now+7d>`.
    static func namedExpiries(_ text: String, since started: Date) -> String {
        SnapshotRun.replace(#"\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?Z"#, in: text) { groups in
            guard let seconds = SnapshotRun.epoch(groups) else { return nil }
            let days = ((seconds - started.timeIntervalSince1970) / 86_400).rounded()
            guard (1...365).contains(days), abs(seconds - started.timeIntervalSince1970 - days * 86_400) < 600 else { return nil }
            return "<now+\(Int(days))d>"
        }
    }

    static func matches(_ pattern: String, in text: String) -> [Range<String.Index>] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text) }
    }
}
