import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncPlatform
import TripSyncHome

/// Attachments (issue 17) as a person meets them, recorded as snapshot files like
/// CLISnapshotTests: laptops are homes `homeA`, `homeB` in the case's folder, sharing the folder
/// `shared`, all given relative to it. Besides Snapshot.swift's placeholders, each home's random
/// device id is `<laptop-A>` and each attachment's random id `<att-N>` (`<att-N:8>`), numbered in
/// the order they first appear. The files a case attaches are made in code (photo.jpg records
/// Lisbon in its Exif GPS), so every SHA-256 is fixed.
///
///     TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter AttachmentCommand    # re-record
@Suite struct AttachmentCommandTests {
    typealias Step = AttachmentStep

    static func a(_ arguments: String..., names: String? = nil, environment: [String: String] = [:]) -> Step {
        .run("A", arguments, names: names, environment: environment)
    }
    static func b(_ arguments: String..., names: String? = nil) -> Step { .run("B", arguments, names: names, environment: [:]) }

    /// The photo's SHA-256 (fixed: the fixture is built in code).
    static let photoSHA = AttachmentFiles.sha256(AttachmentFiles.photo)
    static let photoBlob = "shared/<trip>/blobs/" + photoSHA

    /// Laptop A makes a trip (`--open`: any laptop syncing the folder joins; `--owned`: by
    /// invite) with one item, and the files to attach are written into `$TMP`.
    static func trip(_ kind: String) -> [Step] {
        [
            .action("write photo.jpg (a JPEG with Exif GPS), ticket.pdf, big.jpg (1 MiB and 1 byte), an empty folder photos/") { expand in
                try AttachmentFiles.writeAll(into: expand("$TMP"))
                return nil
            },
            a("init", "--device-name", "Laptop A"),
            a("new", "Lisbon 2027", "--zone", "Europe/Lisbon", kind, names: "trip"),
            a("add", "Tram 28", "--day", "2027-06-10", "--at", "10:00", names: "item-1"),
        ]
    }

    static let openTrip = trip("--open")

    /// Moves the file at `$TMP/FROM` to `$TMP/TO` (what a folder client does), saying why.
    static func move(_ from: String, to: String, _ why: String) -> Step {
        .action("move \(from) to \(to): \(why)") { expand in
            try FileManager.default.moveItem(atPath: expand("$TMP/" + from), toPath: expand("$TMP/" + to))
            return nil
        }
    }

    /// `openTrip`, the photo attached and shared by A's sync, laptop B joining through `shared`.
    static let sharedPhoto: [Step] = openTrip + [
        a("attach", "<item-1:8>", "photo.jpg", "--caption", "At the stop"),
        a("sync", "shared"),
        b("init", "--device-name", "Laptop B"),
    ]

    static let cases: [AttachmentCase] = [
        AttachmentCase(
            "attach-jpeg-with-location-pdf-and-refusals",
            openTrip + [
                a("attach", "<item-1:8>", "photo.jpg", "--caption", "At the stop"),
                a("attach", "<item-1:8>", "photo.jpg", "--strip-location"),
                a("attach", "<item-1:8>", "ticket.pdf", "--caption", "TP 201 boarding pass"),
                a("attach", "<item-1:8>", "big.jpg", environment: ["TRIPSYNC_ATTACHMENT_LIMIT_MB": "1"]),
                a("attach", "<item-1:8>", "photos"),
                a("attach", "<item-1:8>", "nowhere.jpg"),
                a("attach", "ffff", "photo.jpg"),
                a("attach", "<item-1:8>"),
                a("attachments"),
                a("attachments", "--json"),
                a("extract", "<att-2:8>", "-o", "stripped.jpg"),
                .action("what the extracted stripped.jpg records, read by JPEGLocation") { expand in
                    let bytes = try AttachmentFiles.read(expand("$TMP/stripped.jpg"))
                    return "stripped.jpg: \(JPEGLocation.find(in: bytes)); \(bytes.count) bytes, photo.jpg \(AttachmentFiles.photo.count)"
                },
            ]),
        AttachmentCase(
            "attach-keeps-no-copy-that-records-the-location-and-copies-nothing-it-refuses",
            openTrip + [
                a("attach", "<item-1:8>", "photo.jpg", "--strip-location"),
                .action("files in homeA/blobs") { expand in AttachmentFiles.listing(expand("$TMP/homeA/blobs")) },
                a("attach", "<item-1:8>", "ticket.pdf", "--caption", "bell \u{7} in a caption"),
                .action("files in homeA/blobs") { expand in AttachmentFiles.listing(expand("$TMP/homeA/blobs")) },
            ]),
        AttachmentCase(
            "captions-and-the-trip-name-conflict-listed-and-settled-like-fields",
            sharedPhoto + [
                b("sync", "shared"),
                a("caption", "<att-1:8>", "Tram stop, Martim Moniz"),
                b("caption", "<att-1:8>", "Waiting for the 28"),
                a("rename", "Lisbon in June"),
                b("rename", "Lisboa 2027"),
                a("sync", "shared"),
                b("sync", "shared"),
                a("sync", "shared"),
                a("conflicts"),
                a("conflicts", "--json"),
                a("show", "<item-1:8>"),
                a("resolve", "<att-1:8>", "caption", "--keep", "mine"),
                a("resolve", "trip", "name", "--keep", "1"),
                a("resolve", "<att-1:8>", "caption", "--keep", "current"),
                a("conflicts"),
                a("caption", "<att-1:8>", "--clear"),
                a("caption", "<att-1:8>", "--clear"),
                a("caption", "<att-1:8>"),
                a("caption", "<att-1:8>", "bell \u{7}"),
                a("attach", "<item-1:8>", "ticket.pdf"),
                a("caption", "<att-2:8>", "TP 201 boarding pass"),
                a("attachments"),
                a("detach", "<att-1:8>"),
                a("caption", "<att-1:8>", "gone"),
            ]),
        AttachmentCase(
            "an-unpublished-caption-is-a-change-status-lists-and-import-replace-warns-of",
            openTrip + [
                a("attach", "<item-1:8>", "ticket.pdf", "--caption", "one"),
                a("sync", "shared"),
                a("backup", "-o", "b.trip.json"),
                a("caption", "<att-1:8>", "two"),
                a("status"),
                a("import", "b.trip.json", "--replace", "--yes"),
                a("attachments"),
            ]),
        // One backup per case: two in one second would be numbered by timing (`-2`).
        AttachmentCase(
            "forget-warns-of-an-unpublished-caption-even-with-yes",
            openTrip + [
                a("attach", "<item-1:8>", "ticket.pdf", "--caption", "one"),
                a("sync", "shared"),
                a("caption", "<att-1:8>", "two"),
                a("forget", "--yes"),
            ]),
        AttachmentCase(
            "attachments-staged-shared-then-arriving-until-the-bytes-land",
            openTrip + [
                a("attach", "<item-1:8>", "photo.jpg", "--caption", "At the stop"),
                a("attachments"),
                a("status"),
                .files,
                a("sync", "shared"),
                a("attachments"),
                .files,
                move(photoBlob, to: "held.jpg", "as a folder client that has not carried it yet"),
                b("init", "--device-name", "Laptop B"),
                b("sync", "shared"),
                b("attachments"),
                b("attachments", "--json"),
                b("status"),
                b("extract", "<att-1:8>", "-o", "out.jpg"),
                move("held.jpg", to: photoBlob, "the bytes land"),
                b("sync", "shared"),
                b("attachments", "--json"),
                b("status", "--json"),
                b("extract", "<att-1:8>", "-o", "out.jpg"),
                .action("compare out.jpg with photo.jpg") { expand in
                    try AttachmentFiles.read(expand("$TMP/out.jpg")) == AttachmentFiles.photo ? "out.jpg equals photo.jpg" : "out.jpg DIFFERS from photo.jpg"
                },
                b("extract", "<att-1:8>", "-o", "out.jpg"),
                b("extract", "<att-1:8>", "-o", "out.jpg", "--force"),
            ]),
        AttachmentCase(
            "folder-blob-replaced-by-same-size-bytes-quarantined",
            sharedPhoto + [
                .action("overwrite \(photoBlob) with other bytes of the same size") { expand in
                    var bytes = AttachmentFiles.photo
                    bytes[bytes.count / 2] ^= 0xFF
                    try Data(bytes).write(to: URL(fileURLWithPath: expand("$TMP/\(photoBlob)")))
                    return nil
                },
                b("sync", "shared"),
                b("attachments"),
                b("attachments", "--json"),
                b("extract", "<att-1:8>", "-o", "out.jpg"),
                .action("out.jpg, and the files in homeB/blobs") { expand in
                    let written = FileManager.default.fileExists(atPath: expand("$TMP/out.jpg")) ? "out.jpg written" : "out.jpg not written"
                    return written + "\n" + AttachmentFiles.listing(expand("$TMP/homeB/blobs"))
                },
                .action("put photo.jpg's bytes back into \(photoBlob)") { expand in
                    try Data(AttachmentFiles.photo).write(to: URL(fileURLWithPath: expand("$TMP/\(photoBlob)")))
                    return nil
                },
                b("sync", "shared"),
                b("attachments"),
            ]),
        AttachmentCase(
            "detach-restore-and-a-deleted-item-hides-its-attachments",
            openTrip + [
                a("attach", "<item-1:8>", "photo.jpg"),
                a("attach", "<item-1:8>", "ticket.pdf"),
                a("detach", "<att-2:8>"),
                a("sync", "shared"),
                a("attachments"),
                a("detach", "<att-1:8>"),
                a("detach", "<att-1:8>"),
                a("attachments"),
                a("attachments", "--detached"),
                a("reattach", "<att-1:8>"),
                a("attachments"),
                a("delete", "<item-1:8>"),
                a("attachments"),
                a("attachments", "--detached"),
                a("restore", "<item-1:8>"),
                a("attachments"),
                a("detach", "abcd"),
                a("detach", "ab"),
            ]),
        AttachmentCase(
            "gc-home-and-folder",
            openTrip + [
                a("attach", "<item-1:8>", "photo.jpg"),
                a("attach", "<item-1:8>", "ticket.pdf"),
                a("sync", "shared"),
                a("attach", "<item-1:8>", "photo.jpg", "--strip-location"),
                a("detach", "<att-3:8>"),
                a("detach", "<att-2:8>"),
                .action("files in homeA/blobs") { expand in AttachmentFiles.listing(expand("$TMP/homeA/blobs")) },
                a("gc", "--dry-run"),
                .action("files in homeA/blobs") { expand in AttachmentFiles.listing(expand("$TMP/homeA/blobs")) },
                a("gc"),
                .action("files in homeA/blobs") { expand in AttachmentFiles.listing(expand("$TMP/homeA/blobs")) },
                .action("a blob no file names (big.jpg's bytes) into shared/<trip>/blobs; every blob there dated 100 days ago") { expand in
                    let blobs = expand("$TMP/shared/<trip>/blobs")
                    try Data(AttachmentFiles.big).write(to: URL(fileURLWithPath: blobs + "/" + AttachmentFiles.sha256(AttachmentFiles.big)))
                    try AttachmentFiles.age(blobs, days: 100)
                    return nil
                },
                a("gc", "--folder", "shared", "--dry-run"),
                .files,
                .action("a trip file that cannot be read: shared/<trip>/0bad0bad-0000-4000-8000-000000000000.trip.json.gz") { expand in
                    try Data("not gzip".utf8).write(to: URL(fileURLWithPath: expand("$TMP/shared/<trip>/0bad0bad-0000-4000-8000-000000000000.trip.json.gz")))
                    return nil
                },
                a("gc", "--folder", "shared"),
                .files,
                .action("remove the unreadable trip file") { expand in
                    try FileManager.default.removeItem(atPath: expand("$TMP/shared/<trip>/0bad0bad-0000-4000-8000-000000000000.trip.json.gz"))
                    return nil
                },
                a("gc", "--folder", "shared"),
                .files,
            ]),
        AttachmentCase(
            "attach-refused-for-a-viewer",
            trip("--owned") + [
                a("sync", "shared"),
                .invite("A", role: "viewer"),
                b("init", "--device-name", "Laptop B"),
                b("join", "<invite>", "shared"),
                b("sync", "shared"),
                a("sync", "shared"),
                b("sync", "shared"),
                b("attach", "<item-1:8>", "photo.jpg"),
                b("attachments"),
            ]),
        AttachmentCase(
            "blob-folder-unusable-attachment-stays-staged-and-unpublished",
            openTrip + [
                a("sync", "shared"),
                .action("a file named blobs where shared/<trip>/blobs belongs") { expand in
                    try Data("in the way".utf8).write(to: URL(fileURLWithPath: expand("$TMP/shared/<trip>/blobs")))
                    return nil
                },
                a("attach", "<item-1:8>", "photo.jpg"),
                a("sync", "shared"),
                a("attachments"),
                .action("does A's published file name the photo?") { expand in
                    try AttachmentFiles.names(expand("$TMP/shared/<trip>/<laptop-A>.trip.json.gz"), photoSHA)
                },
                .action("remove the file named blobs") { expand in
                    try FileManager.default.removeItem(atPath: expand("$TMP/shared/<trip>/blobs"))
                    return nil
                },
                a("sync", "shared"),
                a("attachments"),
                .action("does A's published file name the photo?") { expand in
                    try AttachmentFiles.names(expand("$TMP/shared/<trip>/<laptop-A>.trip.json.gz"), photoSHA)
                },
                .files,
            ]),
    ]

    @Test(arguments: cases) func snapshot(_ attachmentCase: AttachmentCase) throws {
        try AttachmentSnapshot.check(attachmentCase)
    }

    /// The no-loss rule on a second folder: A's attachment is already in the trip (shared
    /// through `shared`), and a sync with `other`, whose blob folder A cannot write, publishes
    /// no file there (it would name bytes `other` lacks); once writable, the next sync
    /// delivers the bytes and then publishes. chmod means nothing to root, so as root this
    /// uses a file where the blob folder goes.
    @Test func aSyncNeverPublishesAFileNamingBytesItCouldNotDeliver() throws {
        let folder = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AttachmentFiles.writeAll(into: folder)
        try FileManager.default.createDirectory(atPath: folder + "/shared", withIntermediateDirectories: true)
        func run(_ arguments: String...) throws -> CLIResult {
            try CLI.run(["--home", folder + "/home"] + arguments, environment: ["TRIPSYNC_ATTACHMENT_LIMIT_MB": "100"], cwd: folder)
        }
        _ = try run("new", "Lisbon 2027", "--open")
        let item = try run("add", "Tram 28").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run("attach", item, "photo.jpg").status == 0)
        #expect(try run("sync", "shared").status == 0)
        let trip = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/shared").first { SnapshotRun.isIdentifier($0) })
        #expect(try AttachmentFiles.names(folder + "/shared/\(trip)/" + (try AttachmentFiles.tripFile(in: folder + "/shared/\(trip)")), Self.photoSHA) == "names the photo")

        let other = folder + "/other/" + trip
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot {
            try Data("in the way".utf8).write(to: URL(fileURLWithPath: other + "/blobs"))
        } else {
            try FileManager.default.createDirectory(atPath: other + "/blobs", withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: other + "/blobs")
        }
        let refused = try run("sync", "other", "--json")
        #expect((refused.stdout + refused.stderr).contains("not published"), "\(refused.stdout) \(refused.stderr)")
        let published = try FileManager.default.contentsOfDirectory(atPath: other).filter { $0.contains(".trip.json") }
        #expect(published.isEmpty, "published into a folder without the photo's bytes: \(published)")

        if asRoot {
            try FileManager.default.removeItem(atPath: other + "/blobs")
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: other + "/blobs")
        }
        #expect(try run("sync", "other").status == 0)
        let blob = try AttachmentFiles.read(other + "/blobs/" + Self.photoSHA)
        #expect(blob == AttachmentFiles.photo)
        #expect(try AttachmentFiles.names(other + "/" + (try AttachmentFiles.tripFile(in: other)), Self.photoSHA) == "names the photo")
    }
}

/// One step of an attachments case: a command in a home, the files in `shared`, an invite code
/// captured as `<invite>`, or an action on the files whose returned text goes into the snapshot.
enum AttachmentStep: Sendable {
    /// `tripsync --home homeHOME ARGS` with `environment` added; `names` names the id it prints.
    case run(String, [String], names: String?, environment: [String: String])
    /// Lists the files in `shared` with their sizes.
    case files
    /// `tripsync --home homeHOME invite --role ROLE`, its code named `<invite>`.
    case invite(String, role: String)
    /// What a person (or a folder client) does to the files; the closure gets the expander of
    /// `$TMP` and names, and may return text for the snapshot.
    case action(String, @Sendable (_ expand: (String) -> String) throws -> String?)
}

/// A named attachments case: its steps make one snapshot file.
struct AttachmentCase: Sendable, CustomTestStringConvertible {
    var name: String
    var steps: [AttachmentStep]
    init(_ name: String, _ steps: [AttachmentStep]) {
        self.name = name
        self.steps = steps
    }
    var testDescription: String { name }
}

/// The files the cases attach, and what they look at afterwards.
enum AttachmentFiles {
    /// A JPEG recording where it was taken (Lisbon, Exif GPS, little-endian, with a thumbnail).
    static let photo: [UInt8] = JPEGFixture().bytes()
    /// A small PDF (its first bytes make it one).
    static let ticket: [UInt8] = Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
    /// A JPEG one byte over 1 MiB.
    static let big: [UInt8] = {
        var fixture = JPEGFixture()
        fixture.gps = nil
        let around = fixture.bytes().count - fixture.scanData.count
        fixture.scanData = [UInt8](repeating: 0x55, count: (1 << 20) + 1 - around)
        return fixture.bytes()
    }()

    static func writeAll(into folder: String) throws {
        try Data(photo).write(to: URL(fileURLWithPath: folder + "/photo.jpg"))
        try Data(ticket).write(to: URL(fileURLWithPath: folder + "/ticket.pdf"))
        try Data(big).write(to: URL(fileURLWithPath: folder + "/big.jpg"))
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
    }

    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func sha256(_ bytes: [UInt8]) -> String { SHA256Hasher.digest(bytes).map { String(format: "%02x", $0) }.joined() }

    /// The regular files under `root`, relative, with their sizes, sorted; "(none)" when empty.
    static func listing(_ root: String) -> String {
        let paths = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        let lines = paths.sorted().map { path -> String in
            // A trip file's compressed size varies with its clock's digits: only blobs show theirs.
            guard !path.contains(".trip.json") else { return "  " + path }
            let size = (try? FileManager.default.attributesOfItem(atPath: root + "/" + path)[.size] as? Int).flatMap { $0 } ?? -1
            return "  \(path)  \(size) bytes"
        }
        return lines.isEmpty ? "  (none)" : lines.joined(separator: "\n")
    }

    /// Sets the modification time of every file in `folder` to `days` ago.
    static func age(_ folder: String, days: Double) throws {
        let date = Date(timeIntervalSinceNow: -days * 86_400)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: folder + "/" + name)
        }
    }

    /// The one `*.trip.json.gz` in `folder`.
    static func tripFile(in folder: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".trip.json.gz") }
        guard files.count == 1, let file = files.first else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: folder]) }
        return file
    }

    /// Whether the gzip trip file at `path` names `sha256` ("names the photo" / "does not
    /// name the photo" / "not written").
    static func names(_ path: String, _ sha256: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "not written" }
        let (status, json, _) = try CLI.spawn("/bin/sh", ["-c", "gzip -dc < \"$1\"", "sh", path], cwd: "/")
        guard status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        return String(decoding: json, as: UTF8.self).contains(sha256) ? "names the photo" : "does not name the photo"
    }
}

/// Runs an attachments case and compares (or records) its snapshot.
enum AttachmentSnapshot {
    static let homes = ["A", "B"]
    static let hint = "re-record with TRIPSYNC_RECORD_SNAPSHOTS=1 swift test --filter AttachmentCommand"

    static func check(_ attachmentCase: AttachmentCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try Snapshot.compare(try render(attachmentCase), name: attachmentCase.name, hint: hint, sourceLocation: sourceLocation)
    }

    static func render(_ attachmentCase: AttachmentCase) throws -> String {
        let folder = NSTemporaryDirectory() + "tripsync-snapshot-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/shared", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var run = SnapshotRun(folder: folder, snapshotCase: SnapshotCase(attachmentCase.name, []))
        var invite: String?
        var text = "# tripsync snapshot \(attachmentCase.name); \(hint)\n"
        func expand(_ argument: String) -> String {
            run.expand(invite.map { argument.replacingOccurrences(of: "<invite>", with: $0) } ?? argument)
        }
        func tripsync(_ home: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
            let env = run.environment.merging(environment) { $1 }
            let (status, out, err) = try CLI.spawn(CLI.binary, ["--home", "home" + home] + arguments.map(expand), environment: env, cwd: folder)
            return CLIResult(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
        }
        for step in attachmentCase.steps {
            text += "\n"
            switch step {
            case .run(let home, let arguments, let names, let environment):
                let result = try tripsync(home, arguments, environment: environment)
                if let names {
                    let printed = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    if SnapshotRun.isIdentifier(printed) {
                        run.names.append((names, printed))
                    } else {
                        Issue.record("\(attachmentCase.name): `\(arguments.joined(separator: " "))` was to print an id named \(names), printed \(result.stdout) \(result.stderr)")
                    }
                }
                run.names += try newNames(run, folder: folder)
                let shown = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
                text += "$ " + shown + (["tripsync", "--home", "home" + home] + arguments.map(SnapshotRun.quoted)).joined(separator: " ") + "\n"
                text += arguments.contains("--json") ? run.jsonSection(result.stdout) : run.section("stdout", result.stdout)
                text += run.section("stderr", result.stderr) + "--- exit \(result.status)\n"
            case .invite(let home, let role):
                let result = try tripsync(home, ["invite", "--role", role])
                let code = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                guard result.status == 0, code.hasPrefix("tsi1.") else {
                    Issue.record("\(attachmentCase.name): invite printed \(result.stdout) \(result.stderr)")
                    continue
                }
                invite = code
                text += "$ tripsync --home home\(home) invite --role \(role)\n--- stdout: <invite>\n--- exit 0\n"
            case .files:
                // Sorted once the random ids are placeholders, so their order is fixed too.
                let lines = run.sanitized(AttachmentFiles.listing(folder + "/shared")).split(separator: "\n").sorted()
                text += "# the files in shared/\n" + lines.joined(separator: "\n") + "\n"
            case .action(let description, let body):
                text += "# " + run.sanitized(description) + "\n"
                if let said = try body(expand) { text += run.sanitized(said).split(separator: "\n").map { "#   " + $0 + "\n" }.joined() }
            }
        }
        // The viewer case's keys, named as the members snapshots name them.
        return MemberSnapshot.namedKeys(text)
    }

    /// Names for what appeared since: each home's device `<laptop-X>` and each attachment id
    /// `<att-N>` (read with `attachments --json --detached`; a home without a trip lists none).
    static func newNames(_ run: SnapshotRun, folder: String) throws -> [(name: String, id: String)] {
        var names = run.names
        for home in homes {
            guard let data = FileManager.default.contents(atPath: folder + "/home\(home)/device.json"),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let device = object["deviceId"] as? String
            else { continue }
            if !names.contains(where: { $0.id == device }) { names.append(("laptop-\(home)", device)) }
            let (status, out, _) = try CLI.spawn(
                CLI.binary, ["--home", "home" + home, "attachments", "--json", "--detached"], environment: run.environment, cwd: folder)
            guard status == 0, let list = try JSONSerialization.jsonObject(with: out) as? [[String: Any]] else { continue }
            for id in list.compactMap({ $0["id"] as? String }) where !names.contains(where: { $0.id == id }) {
                let count = names.filter { $0.name.hasPrefix("att-") }.count
                names.append(("att-\(count + 1)", id))
            }
        }
        return Array(names.dropFirst(run.names.count))
    }
}
