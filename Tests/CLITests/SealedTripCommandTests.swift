import Foundation
import Testing

@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncPlatform
import TripSyncFixtures

/// Sealed trips through the built binary (issue 43, layer 4): what the folder's host can read,
/// what a removed member can read, files planted or changed in the folder, a late joiner, and
/// every entrance (validate, backup, import, merge).
@Suite struct SealedTripCommandTests {
    static let markers = ["PASSPORT-X7Q9", "BOOKING-K2M4", "PLACE-Z8W1", "TRIPNAME-R5T6", "LAPTOPNAME-J3H7", "PHOTONAME-U1Y2", "CAPTION-E6D5"]

    /// Every file under `folder` but the attachments' bytes, with its path.
    static func folderFiles(_ folder: String) throws -> [(path: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            found.append((path, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        return found
    }

    /// The marker forms (raw, UTF-16, base64) and what inflates, for every file of the folder.
    static func leaks(_ folder: String, markers: [String] = markers, skippingBlobs: Bool = false) throws -> [String] {
        var leaks: [String] = []
        for (path, bytes) in try folderFiles(folder) where !(skippingBlobs && path.contains("/blobs/")) {
            let views = [bytes] + MarkerForms.inflatedStreams(bytes)
            for marker in markers {
                for form in MarkerForms.all(marker) where views.contains(where: { MarkerForms.contains($0, form) }) {
                    leaks.append("\(marker) in \(path)")
                }
            }
        }
        return leaks
    }

    /// `path` read as laptop `who` reads it, with its home's keys.
    static func read(_ laptops: Laptops, _ who: String, _ path: String) throws -> LoadedTrip {
        try Home(path: laptops.home(who)).tripFileReader().read(path: path)
    }

    /// An owned trip of A holding a marker in every typed field, its name and a laptop's name,
    /// with B an editor; both synced until settled.
    static func markedTrip(_ laptops: Laptops) throws -> (trip: String, item: String) {
        try laptops.ok("A", ["init", "--device-name", "A \(markers[4])"])
        let trip = try laptops.ok("A", ["new", markers[3], "--owned", "--zone", "Europe/Lisbon"]).line
        let item = try laptops.ok("A", ["add", markers[0], "--day", "2027-06-08", "--place", markers[2], "--note", markers[1]]).line
        let photo = laptops.root + "/\(markers[5]).pdf"
        try Data("%PDF-1.4\n%\(markers[6])\n".utf8).write(to: URL(fileURLWithPath: photo))
        try laptops.ok("A", ["attach", item, photo, "--caption", markers[6]])
        try laptops.ok("A", ["sync", laptops.folder])
        let code = try laptops.ok("A", ["invite", "--role", "editor"]).line
        try laptops.ok("B", ["init", "--device-name", "B \(markers[4])"])
        try laptops.ok("B", ["join", code, laptops.folder])
        for who in ["B", "A", "B", "A"] { try laptops.ok(who, ["sync", laptops.folder]) }
        return (trip, item)
    }

    @Test func theFolderHoldsNothingTypedInAnyForm() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try Self.markedTrip(laptops)
        #expect(try laptops.ok("B", ["show"]).stdout.contains(Self.markers[0]), "the member reads the trip")
        let tripFolder = laptops.folder + "/\(trip)"
        let files = try Self.folderFiles(tripFolder).map(\.path)
        #expect(files.contains { $0.hasSuffix(".trip.json.gz") } && files.contains { $0.hasSuffix(".keyring.json") }, "\(files)")
        // The attachment's bytes are layer 5's (sealed attachments); everything else here.
        let leaks = try Self.leaks(tripFolder, skippingBlobs: true)
        #expect(leaks.isEmpty, "\(leaks)")
        // The scan finds what is there: a plain backup (inflated) and a base64 or UTF-16 copy.
        let control = laptops.root + "/control"
        try FileManager.default.createDirectory(atPath: control, withIntermediateDirectories: true)
        try laptops.ok("B", ["backup", "--plain", "-o", control + "/plain.trip.json.gz"])
        try Data(Data(Self.markers[1].utf8).base64EncodedString().utf8).write(to: URL(fileURLWithPath: control + "/b64"))
        try Data(Self.markers[2].utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: control + "/utf16"))
        let found = try Self.leaks(control)
        #expect(found.contains { $0.hasPrefix(Self.markers[0]) && $0.hasSuffix("plain.trip.json.gz") }, "\(found)")
        #expect(found.contains { $0.hasPrefix(Self.markers[1]) && $0.hasSuffix("b64") } && found.contains { $0.hasPrefix(Self.markers[2]) && $0.hasSuffix("utf16") })
        // Each device file is sealed, signed by its writer.
        for path in files where path.hasSuffix(".trip.json.gz") {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.withUnsafeBytes { SealedFile.isSealed($0) }, "\(path)")
            #expect(try Self.read(laptops, "B", path).wasSealed)
        }
    }

    @Test func aRemovedMemberWithEveryKeyItHeldReadsNothingWrittenAfterTheRotation() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try Self.markedTrip(laptops)
        let code = try laptops.ok("A", ["invite", "--role", "editor"]).line
        try laptops.ok("C", ["init", "--device-name", "Laptop C"])
        try laptops.ok("C", ["join", code, laptops.folder])
        for who in ["A", "C", "A", "B", "C"] { try laptops.ok(who, ["sync", laptops.folder]) }
        #expect(try laptops.ok("C", ["show"]).stdout.contains(Self.markers[0]))
        // A removes C; the rotation reaches B; B writes something new.
        let c = try laptops.device("C")
        try laptops.ok("A", ["members", "remove", String(c.description.prefix(8))])
        try laptops.ok("A", ["sync", laptops.folder])
        try laptops.ok("B", ["sync", laptops.folder])
        let secret = "AFTER-ROTATION-P4L8"
        try laptops.ok("B", ["add", secret, "--day", "2027-06-09"])
        try laptops.ok("B", ["sync", laptops.folder])
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.ok("A", ["show"]).stdout.contains(secret))
        // C syncs with every key it ever held: it reads nothing new, is told why, and its own
        // keys open no file written since.
        let sync = try laptops.ok("C", ["sync", laptops.folder])
        #expect((sync.stdout + sync.stderr).contains("left out of the trip's newest keys"), "\(sync.stdout)\(sync.stderr)")
        #expect(!(try laptops.ok("C", ["show"]).stdout.contains(secret)))
        let tripFolder = laptops.folder + "/\(trip)"
        for (path, bytes) in try Self.folderFiles(tripFolder) where path.hasSuffix(".trip.json.gz") && !path.contains(c.description) {
            #expect(bytes.withUnsafeBytes { SealedFile.isSealed($0) })
            do {
                let loaded = try Self.read(laptops, "C", path)
                Issue.record("C read \(path): \(loaded.document.items.count) items")
            } catch let error as TripFileError {
                #expect(error.isSealed, "\(path): \(error)")
            }
        }
        #expect(try Self.leaks(tripFolder, markers: [secret]).isEmpty)
        // Its edits are refused here, saying why (they could reach no one).
        let refused = try laptops.expect(1, "C", ["add", "Typed after removal", "--day", "2027-06-10"])
        #expect(refused.stderr.contains("left out of the newest keys"), "\(refused.stderr)")
    }

    @Test func filesChangedPlantedOrResignedInTheFolderAreRefusedAndChangeNothing() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, item) = try Self.markedTrip(laptops)
        let tripFolder = laptops.folder + "/\(trip)"
        let b = try laptops.device("B")
        let bFile = tripFolder + "/\(b).trip.json.gz"
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bFile)))
        let before = try laptops.ok("A", ["fingerprint"]).line
        // B writes something; A's copy of the folder then gets a changed or planted version.
        try laptops.ok("B", ["edit", String(item.prefix(8)), "--note", "changed by B"])
        try laptops.ok("B", ["sync", laptops.folder])
        let edited = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bFile)))
        #expect(edited != original)
        let bLoaded = try Self.read(laptops, "B", bFile)
        let tripID = try #require(Identifier(trip))
        let key = try #require(KeyringPlan.current(try TripAccess.load(Home(path: laptops.home("B")), tripID).epochKeys))
        let envelope = try SealedFile(parsing: edited)
        // Another member (A's laptop here stands for any member: it holds the epoch key) opens
        // B's file and seals it again as B's, signed by itself.
        let aKey = try Home(path: laptops.home("A")).signingKey(for: try laptops.device("A"))
        let resigned = SealedFile.seal(gzip: try bLoaded.document.gzipData(), trip: envelope.trip, writer: b, key: key, signingKey: aKey)
        // A file of another trip, sealed honestly by its writer, moved here under B's name.
        let other = Laptops()
        defer { other.cleanUp() }
        let (otherTrip, _) = try Self.markedTrip(other)
        let otherB = try other.device("B")
        let moved = try [UInt8](Data(contentsOf: URL(fileURLWithPath: other.folder + "/\(otherTrip)/\(otherB).trip.json.gz")))
        var flipped = edited
        flipped[flipped.count / 2] ^= 0x01
        let cases: [(String, [UInt8])] = [
            ("a flipped byte", flipped), ("cut short", Array(edited.prefix(edited.count - 100))), ("re-signed by another member", resigned),
            ("moved from another trip", moved),
        ]
        for (what, bytes) in cases {
            try Data(bytes).write(to: URL(fileURLWithPath: bFile))
            let sync = try laptops.ok("A", ["sync", laptops.folder, "--json"])
            #expect(sync.stdout.contains("\"skipped\""), "\(what): \(sync.stdout)")
            #expect(try laptops.ok("A", ["fingerprint"]).line == before, "\(what): A's trip changed")
            #expect(!(try laptops.ok("A", ["show"]).stdout.contains("changed by B")), "\(what)")
        }
        // B's real file: taken.
        try Data(edited).write(to: URL(fileURLWithPath: bFile))
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.ok("A", ["show"]).stdout.contains("changed by B"))
    }

    @Test func aMemberJoiningAfterThreeEpochsReadsFilesOfEveryEpoch() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try Self.markedTrip(laptops)
        let b = try laptops.device("B")
        let bFile = laptops.folder + "/\(trip)/\(b).trip.json.gz"
        // B's file stays as epoch 1 sealed it (B away) while A rotates three times.
        #expect(try SealedFile(parsing: [UInt8](Data(contentsOf: URL(fileURLWithPath: bFile)))).epoch == 1)
        for _ in 0..<3 {
            try laptops.ok("A", ["members", "rotate"])
            try laptops.ok("A", ["sync", laptops.folder])
        }
        let code = try laptops.ok("A", ["invite", "--role", "viewer"]).line
        try laptops.ok("D", ["init", "--device-name", "Laptop D"])
        try laptops.ok("D", ["join", code, laptops.folder])
        try laptops.ok("A", ["sync", laptops.folder])
        let sync = try laptops.ok("D", ["sync", laptops.folder, "--json"])
        #expect(try laptops.ok("D", ["show"]).stdout.contains(Self.markers[0]), "\(sync.stdout)")
        // D opens B's epoch-1 file with the key it found in the history.
        #expect(try Self.read(laptops, "D", bFile).document.deviceID == b)
        #expect(try SealedFile(parsing: [UInt8](Data(contentsOf: URL(fileURLWithPath: bFile)))).epoch == 1)
    }

    @Test func everyEntranceReadsAndWritesTheSealedForm() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try Self.markedTrip(laptops)
        let a = try laptops.device("A")
        let aFile = laptops.folder + "/\(trip)/\(a).trip.json.gz"
        // validate: without a member's home, the envelope; with one, everything.
        let stranger = try laptops.ok("X", ["validate", aFile, "--json"])
        #expect(stranger.stdout.contains("\"contentsChecked\":false") && stranger.stdout.contains("\"sealed\":true"), "\(stranger.stdout)")
        #expect(try laptops.ok("X", ["validate", aFile]).stdout.hasPrefix("SEALED"))
        let member = try laptops.ok("B", ["validate", aFile, "--json"])
        #expect(member.stdout.contains("\"contentsChecked\":true") && member.stdout.contains("\"valid\":true"), "\(member.stdout)")
        // backup: sealed by default (no .json name), --plain on purpose and said.
        let sealedBackup = laptops.root + "/backup.trip.json.gz"
        let backup = try laptops.ok("B", ["backup", "-o", sealedBackup])
        #expect(backup.stdout.contains("sealed"), "\(backup.stdout)")
        #expect(try Self.leaks(laptops.root, markers: [Self.markers[0]]).filter { $0.contains("backup.trip") }.isEmpty)
        #expect(try laptops.run("B", ["backup", "-o", laptops.root + "/b.trip.json"]).status == 2)
        let plain = try laptops.ok("B", ["backup", "--plain", "-o", laptops.root + "/plain.trip.json"])
        #expect(plain.stdout.contains("NOT sealed"), "\(plain.stdout)")
        #expect(try String(contentsOfFile: laptops.root + "/plain.trip.json", encoding: .utf8).contains(Self.markers[0]))
        // import: a member's home imports the sealed backup; a stranger's is told it is sealed.
        let imported = try laptops.run("X", ["import", sealedBackup])
        #expect(imported.status != 0 && imported.stderr.contains("sealed"), "\(imported.stderr)")
        try laptops.ok("B", ["import", sealedBackup, "--merge"])
        // merge: sealed inputs give a sealed output, readable by a member.
        let merged = laptops.root + "/merged.trip.json.gz"
        let merge = try laptops.ok("B", ["merge", aFile, sealedBackup, "-o", merged])
        #expect(merge.stdout.contains("sealed"), "\(merge.stdout)")
        let out = try [UInt8](Data(contentsOf: URL(fileURLWithPath: merged)))
        #expect(out.withUnsafeBytes { SealedFile.isSealed($0) })
        #expect(try Self.read(laptops, "A", merged).document.tripID.description == trip)
        // fingerprint of a sealed file: with the keys, the same as the trip's.
        #expect(try laptops.ok("B", ["fingerprint", aFile]).line == (try laptops.ok("A", ["fingerprint"]).line))
    }
}

extension SealedTripCommandTests {
    /// A member of an open trip who learned the hash of a photo in someone's sealed trip writes
    /// an attachment naming it: that laptop, a member of both, holds the plain bytes, but does
    /// not put them into the open trip's folder, where the host (and that member) would read them.
    @Test func aPhotoOfASealedTripIsNeverRelayedIntoAnOpenTripsFolder() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let photo = Array("%PDF-1.4\n% passport scan PASSPORT-X7Q9\n".utf8) + Array(repeating: 0x41, count: 3000)
        let photoPath = laptops.root + "/passport.pdf"
        try Data(photo).write(to: URL(fileURLWithPath: photoPath))
        try laptops.ok("A", ["init", "--device-name", "Laptop A"])
        try laptops.ok("A", ["new", "Secret", "--owned"])
        let secretItem = try laptops.ok("A", ["add", "Border", "--day", "2027-06-08"]).line
        try laptops.ok("A", ["attach", String(secretItem.prefix(8)), photoPath])
        try laptops.ok("A", ["sync", laptops.folder])
        // Mallory's open trip, which A's laptop syncs too.
        let openFolder = laptops.root + "/open-folder"
        try FileManager.default.createDirectory(atPath: openFolder, withIntermediateDirectories: true)
        try laptops.ok("M", ["init", "--device-name", "Mallory"])
        let openTrip = try laptops.ok("M", ["new", "Picnic club", "--open"]).line
        let picnic = try laptops.ok("M", ["add", "Picnic", "--day", "2027-06-09"]).line
        try laptops.ok("M", ["sync", openFolder])
        try laptops.ok("A", ["sync", openFolder])
        // Mallory writes an attachment naming the photo's plain hash (no bytes of her own).
        let tripID = try #require(Identifier(openTrip))
        let mHome = Home(path: laptops.home("M"))
        var document = try mHome.readReplica(tripID).document
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        let digest = SHA256.hex(SHA256.digest(photo))
        try document.attach(
            Identifier.random(), item: try #require(Identifier(picnic)), blob: BlobReference(sha256: digest, size: Int64(photo.count), type: "application/pdf"),
            name: "bait.pdf", caption: nil, hlc: &hlc, now: document.clock.maxCounter + 1000)
        try Data(try document.gzipData()).write(to: URL(fileURLWithPath: openFolder + "/\(openTrip)/\(document.deviceID).trip.json.gz"))
        let sync = try laptops.ok("A", ["sync", openFolder])
        #expect((sync.stdout + sync.stderr).contains("not put into this open trip's folder in plain"), "\(sync.stdout)\(sync.stderr)")
        #expect(!FileManager.default.fileExists(atPath: openFolder + "/\(openTrip)/blobs/\(digest)"))
        #expect(try Self.leaks(openFolder, markers: ["PASSPORT-X7Q9"]).isEmpty)
        // The sealed trip's folder holds it only sealed.
        #expect(try Self.leaks(laptops.folder, markers: ["PASSPORT-X7Q9"]).isEmpty)
    }
}

extension SealedTripCommandTests {
    /// An owned trip from before sealed files (plain signed files in the folder, no keyring, no
    /// epoch key in any home) becomes sealed at its owner's next sync; what a member typed
    /// meanwhile is kept, and both laptops converge on one trip with nothing readable left.
    @Test func anExistingOwnedTripBecomesSealedAndNothingTypedIsLost() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, item) = try Self.markedTrip(laptops)
        let tripFolder = laptops.folder + "/\(trip)"
        // Back to the trip as a build before sealed files left it: each laptop's file plain and
        // signed (what `backup --plain` writes is what that build published), no keyring, no
        // epoch key kept in either home.
        for who in ["A", "B"] {
            let device = try laptops.device(who)
            try laptops.ok(who, ["backup", "--plain", "--force", "-o", tripFolder + "/\(device).trip.json.gz"])
            let access = laptops.home(who) + "/access/\(trip).json"
            var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: access))) as? [String: Any])
            record["epochs"] = nil
            try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: access))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: tripFolder) where name.hasSuffix(".keyring.json") {
            try FileManager.default.removeItem(atPath: tripFolder + "/" + name)
        }
        #expect(!(try Self.leaks(tripFolder, markers: [Self.markers[0]], skippingBlobs: true).isEmpty), "the folder starts readable")
        // B types while the trip is still plain; then the owner syncs first, B after, A again.
        try laptops.ok("B", ["edit", String(item.prefix(8)), "--note", "typed before sealing"])
        let first = try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.ok("A", ["status"]).stdout.contains("sealed in the shared folder"), "\(first.stdout)")
        for who in ["B", "A", "B"] { try laptops.ok(who, ["sync", laptops.folder]) }
        #expect(try laptops.ok("A", ["show"]).stdout.contains("typed before sealing"))
        #expect(try laptops.ok("A", ["fingerprint"]).line == (try laptops.ok("B", ["fingerprint"]).line))
        let leaks = try Self.leaks(tripFolder, markers: Self.markers + ["typed before sealing"], skippingBlobs: true)
        #expect(leaks.isEmpty, "\(leaks)")
    }
}

extension SealedTripCommandTests {
    /// A laptop waiting to join names itself only to the owner: its request in the folder holds
    /// its name sealed with the invite's secret (version 3), which the owner's sync opens.
    @Test func aJoinRequestShowsTheHostNoName() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ok("A", ["init", "--device-name", "Laptop A"])
        let trip = try laptops.ok("A", ["new", "Lisbon", "--owned"]).line
        try laptops.ok("A", ["sync", laptops.folder])
        let code = try laptops.ok("A", ["invite", "--role", "editor"]).line
        try laptops.ok("B", ["init", "--device-name", "B \(Self.markers[4])"])
        #expect(try laptops.ok("B", ["join", code, laptops.folder]).stdout.contains(Self.markers[4]), "the laptop itself says its name")
        let request = laptops.folder + "/\(trip)/\(try laptops.device("B")).join.json"
        #expect(FileManager.default.fileExists(atPath: request))
        #expect(try Self.leaks(laptops.folder, markers: [Self.markers[4]]).isEmpty)
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.ok("A", ["members"]).stdout.contains(Self.markers[4]), "the owner read the name with the invite")
        for who in ["B", "A", "B"] { try laptops.ok(who, ["sync", laptops.folder]) }
        #expect(try Self.leaks(laptops.folder, markers: [Self.markers[4]]).isEmpty)
    }
}
