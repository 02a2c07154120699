import Foundation
import Testing
import TripSyncPlatform

/// Sealed attachments (schema 7) as a person meets them, through the built binary: the photo of
/// an owned trip reaches the shared folder only sealed under a key of its own; the other laptop
/// gets it byte for byte; sealed copies changed, cut or swapped in the folder are refused and
/// never shown; an open trip's blobs stay plain.
@Suite struct SealedAttachmentCommandTests {
    /// A PNG's signature, then bytes that appear nowhere else, then more: three 64 KiB chunks
    /// and a bit.
    static let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Sodium.random(200_000)
    static let nameMarker = "passport-scan-NAMEMARKER.png"
    static let captionMarker = "CAPTIONMARKER passport number X1234567"

    /// Another photo.
    static let otherPhoto: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Sodium.random(150_000)

    /// An owned trip with B as editor; A attaches the photo twice (two attachments), or the photo
    /// and another one, and syncs.
    static func sharedPhotos(twice: Bool = true) throws -> (Laptops, item: String) {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        try laptops.ownedTrip(withB: "editor")
        try Data(photo).write(to: URL(fileURLWithPath: laptops.root + "/" + nameMarker))
        try Data(otherPhoto).write(to: URL(fileURLWithPath: laptops.root + "/other.png"))
        let item = try laptops.ok("A", "add", "Border crossing", "--day", "2027-06-09").line
        try laptops.ok("A", "attach", String(item.prefix(8)), laptops.root + "/" + nameMarker, "--caption", captionMarker)
        let second = twice ? laptops.root + "/" + nameMarker : laptops.root + "/other.png"
        try laptops.ok("A", "attach", String(item.prefix(8)), second, "--caption", "the second one")
        try laptops.ok("A", "sync", "shared")
        return (laptops, item)
    }

    /// The blob files of the trip folder: name → bytes.
    static func folderBlobs(_ laptops: Laptops) throws -> [String: [UInt8]] {
        let folder = try laptops.tripFolder() + "/blobs"
        var result: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            result[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
        }
        return result
    }

    /// The attachments `who` lists: (id, state, sha256).
    static func attachments(_ laptops: Laptops, _ who: String) throws -> [(id: String, state: String, sha256: String)] {
        let json = try laptops.ok(who, "attachments", "--json").stdout
        let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return list.map { entry in
            let blob = entry["blob"] as? [String: Any]
            return (entry["id"] as? String ?? "", entry["state"] as? String ?? "", (blob?["sha256"] ?? entry["sha256"]) as? String ?? "")
        }
    }

    /// Whether `haystack` holds `needle` anywhere.
    static func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func twoLaptopsOfAnOwnedTripExchangeAPhotoTheFolderHoldsOnlySealed() throws {
        let (laptops, _) = try Self.sharedPhotos()
        defer { laptops.cleanUp() }
        let plain = BlobIDText.sha256(Self.photo)
        let blobs = try Self.folderBlobs(laptops)
        // The same photo attached twice: two sealed copies under two names, none the photo's.
        #expect(blobs.count == 2 && blobs[plain] == nil, "\(blobs.keys.sorted())")
        for (name, bytes) in blobs {
            #expect(BlobIDText.sha256(bytes) == name)
            let markers: [[UInt8]] = [
                Array(Self.photo[4096..<4160]), Array(Data(Self.photo[4096..<4160]).base64EncodedString().utf8),
                Array(Data(Self.photo[0..<300]).base64EncodedString().prefix(64).utf8),
                Array("NAMEMARKER".utf8), Array("CAPTIONMARKER".utf8), Array("X1234567".utf8),
                Array("NAMEMARKER".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
                Array(Data("CAPTIONMARKER".utf8).base64EncodedString().dropLast(2).utf8),
            ]
            for marker in markers { #expect(!Self.holds(bytes, marker), "\(name) holds \(String(decoding: marker, as: UTF8.self))") }
        }
        // B fetches, opens and checks both: the photo byte for byte.
        try laptops.ok("B", "sync", "shared")
        let seen = try Self.attachments(laptops, "B")
        #expect(seen.count == 2 && seen.allSatisfy { $0.state == "shared" && $0.sha256 == plain }, "\(seen)")
        for attachment in seen {
            let out = laptops.root + "/out-\(attachment.id.prefix(8)).png"
            try laptops.ok("B", "extract", String(attachment.id.prefix(8)), "-o", out)
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: out))) == Self.photo)
        }
        // A second sync moves nothing.
        try laptops.ok("B", "sync", "shared")
        try laptops.ok("A", "sync", "shared")
        #expect(try Self.folderBlobs(laptops).keys.sorted() == blobs.keys.sorted())
    }

    /// A byte changed, the file cut, or the two sealed copies swapped in the folder: B refuses,
    /// shows the photo as not there, and once A puts the right bytes back B gets the photo.
    @Test(arguments: ["flipped", "cut", "swapped"]) func aChangedSealedCopyIsRefusedAndPutBack(_ attack: String) throws {
        let (laptops, _) = try Self.sharedPhotos(twice: false)
        defer { laptops.cleanUp() }
        let folder = try laptops.tripFolder() + "/blobs"
        let blobs = try Self.folderBlobs(laptops)
        let names = blobs.keys.sorted()
        switch attack {
        case "flipped":
            var bytes = try #require(blobs[names[0]])
            bytes[150_000] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + names[0]))
        case "cut":
            let bytes = try #require(blobs[names[0]])
            try Data(bytes.prefix(bytes.count - 5)).write(to: URL(fileURLWithPath: folder + "/" + names[0]))
        default:
            try Data(try #require(blobs[names[1]])).write(to: URL(fileURLWithPath: folder + "/" + names[0]))
            try Data(try #require(blobs[names[0]])).write(to: URL(fileURLWithPath: folder + "/" + names[1]))
        }
        let sync = try laptops.ok("B", "sync", "shared")
        let seen = try Self.attachments(laptops, "B")
        let notShared = seen.filter { $0.state != "shared" }
        #expect(notShared.count == (attack == "swapped" ? 2 : 1), "\(seen)\n\(sync.stdout)\(sync.stderr)")
        #expect(try laptops.ok("B", "show").stdout.contains("Border crossing"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("B") + "/blobs").filter { $0.count == 64 }.count == 2 - notShared.count)
        if attack == "flipped" {
            // Full-size bytes that do not hash to their name: quarantined and said; cut or
            // swapped ones (of another size) wait as not arrived yet.
            #expect((sync.stdout + sync.stderr).contains("never used"), "\(sync.stdout)\(sync.stderr)")
        }
        for attachment in notShared {
            #expect(try laptops.run("B", ["extract", String(attachment.id.prefix(8)), "-o", laptops.root + "/x.png"]).status != 0)
        }
        // The laptop holding the photo puts its sealed copy back where the wrong one was removed.
        if attack == "cut" { try FileManager.default.removeItem(atPath: folder + "/" + names[0]) }
        try laptops.ok("A", "sync", "shared")
        try laptops.ok("B", "sync", "shared")
        #expect(try Self.attachments(laptops, "B").allSatisfy { $0.state == "shared" })
        #expect(try Self.folderBlobs(laptops) == blobs)
    }

    @Test func anOpenTripsBlobsStayPlainUnderTheirOwnHash() throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        defer { laptops.cleanUp() }
        try laptops.ok("A", "init", "--device-name", "Laptop A")
        try laptops.ok("A", "new", "Open weekend", "--open")
        let item = try laptops.ok("A", "add", "Picnic", "--day", "2027-06-09").line
        try Data(Self.photo).write(to: URL(fileURLWithPath: laptops.root + "/photo.png"))
        try laptops.ok("A", "attach", String(item.prefix(8)), laptops.root + "/photo.png")
        try laptops.ok("A", "sync", "shared")
        let blobs = try Self.folderBlobs(laptops)
        #expect(blobs == [BlobIDText.sha256(Self.photo): Self.photo])
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/blobs/sealed").isEmpty)
    }

    /// `attach` on an owned trip seals at once: the staged entry names its sealed copy, and the
    /// sync puts exactly that copy into the folder, continuing a partial copy a killed sync left.
    @Test func attachSealsOnceAndTheSyncSharesThatCopyResumingAPartial() throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        defer { laptops.cleanUp() }
        try laptops.ownedTrip(withB: "editor")
        try Data(Self.photo).write(to: URL(fileURLWithPath: laptops.root + "/photo.png"))
        let item = try laptops.ok("A", "add", "Border crossing", "--day", "2027-06-09").line
        try laptops.ok("A", "attach", String(item.prefix(8)), laptops.root + "/photo.png")
        let trip = try laptops.tripFolder()
        let tripID = (trip as NSString).lastPathComponent
        let staged = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: laptops.home("A") + "/staged/\(tripID).json")))
        let entry = ((staged as? [String: Any])?["staged"] as? [[String: Any]])?.first
        let sealed = try #require(entry?["sealed"] as? [String: Any])
        let name = try #require(sealed["sha256"] as? String)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: laptops.home("A") + "/blobs/sealed/" + name)))
        #expect(BlobIDText.sha256(bytes) == name && sealed["size"] as? Int == bytes.count)
        // A sync killed halfway through the copy left a partial in the folder.
        try FileManager.default.createDirectory(atPath: trip + "/blobs", withIntermediateDirectories: true)
        try Data(bytes.prefix(90_000)).write(to: URL(fileURLWithPath: trip + "/blobs/\(name).partial"))
        try laptops.ok("A", "sync", "shared")
        #expect(try Self.folderBlobs(laptops) == [name: bytes])
        try laptops.ok("B", "sync", "shared")
        #expect(try Self.attachments(laptops, "B").map(\.state) == ["shared"])
    }

    /// An attachment written before schema 7 (its blob plain, in the folder under the photo's
    /// own hash) is sealed by its writer's next sync; the other laptop gets the photo through the
    /// sealed copy, and `gc --folder` removes the plain copy once no trip file names it.
    @Test func aPlainAttachmentIsSealedByItsWriterAndItsPlainCopyGoes() throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        defer { laptops.cleanUp() }
        try laptops.ownedTrip(withB: "editor")
        try Data(Self.photo).write(to: URL(fileURLWithPath: laptops.root + "/photo.png"))
        let item = try laptops.ok("A", "add", "Border crossing", "--day", "2027-06-09").line
        try laptops.ok("A", "attach", String(item.prefix(8)), laptops.root + "/photo.png")
        try laptops.ok("A", "sync", "shared")
        // What a schema 6 laptop left: the blob plain in A's replica and in the folder.
        let trip = try laptops.tripFolder()
        let tripID = (trip as NSString).lastPathComponent
        let plain = BlobIDText.sha256(Self.photo)
        let replica = laptops.home("A") + "/trips/\(tripID).trip.json.gz"
        try Self.stripSealed(replica)
        try? FileManager.default.removeItem(atPath: laptops.home("A") + "/trips/\(tripID).view")
        for name in try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/blobs/sealed") {
            try FileManager.default.removeItem(atPath: laptops.home("A") + "/blobs/sealed/" + name)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: trip + "/blobs") { try FileManager.default.removeItem(atPath: trip + "/blobs/" + name) }
        try FileManager.default.removeItem(atPath: trip + "/\(try laptops.deviceID("A")).trip.json.gz")
        try Data(Self.photo).write(to: URL(fileURLWithPath: trip + "/blobs/" + plain))

        let sealing = try laptops.ok("A", "sync", "shared")
        #expect((sealing.stdout + sealing.stderr).contains("now sealed in the folder"), "\(sealing.stdout)\(sealing.stderr)")
        let sealedNames = try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/blobs/sealed")
        #expect(sealedNames.count == 1)
        #expect(try Self.folderBlobs(laptops).keys.sorted() == (sealedNames + [plain]).sorted())
        // A second sync seals nothing again.
        try laptops.ok("A", "sync", "shared")
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/blobs/sealed") == sealedNames)
        // B gets the photo through the sealed copy.
        try laptops.ok("B", "sync", "shared")
        let seen = try Self.attachments(laptops, "B")
        #expect(seen.count == 1 && seen.first?.state == "shared", "\(seen)")
        try laptops.ok("B", "extract", String((seen.first?.id ?? "").prefix(8)), "-o", laptops.root + "/got.png")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: laptops.root + "/got.png"))) == Self.photo)
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("B") + "/blobs/sealed") == sealedNames)
        // Once no trip file names the plain copy and its retention has passed, gc --folder removes it.
        try laptops.ok("A", "sync", "shared")
        let date = Date(timeIntervalSinceNow: -100 * 86_400)
        for name in [plain] + sealedNames {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: trip + "/blobs/" + name)
        }
        try laptops.ok("A", "gc", "--folder", "shared")
        #expect(try Self.folderBlobs(laptops).keys.sorted() == sealedNames)
    }

    /// The JSON of the gzip file at `path` without any blob's `sealed` (or, with `wrongKey`, with
    /// the first sealed blob's key replaced by 32 other bytes), written back gzipped.
    static func stripSealed(_ path: String, wrongKey: Bool = false) throws {
        let script = """
            import base64, gzip, json, os, sys
            p, mode = sys.argv[1], sys.argv[2]
            d = json.loads(gzip.decompress(open(p, "rb").read()))
            for i in sorted(d["attachments"]):
                blob = d["attachments"][i]["blob"]["value"]
                if mode == "strip":
                    blob.pop("sealed", None)
                elif "sealed" in blob:
                    blob["sealed"]["key"] = base64.b64encode(os.urandom(32)).decode()
                    break
            open(p, "wb").write(gzip.compress((json.dumps(d, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\\n").encode()))
            """
        let (status, _, err) = try CLI.spawn("/usr/bin/python3", ["-c", script, path, wrongKey ? "key" : "strip"], cwd: "/")
        #expect(status == 0, "\(String(decoding: err, as: UTF8.self))")
    }

    /// A laptop (hostile, or broken) publishes a sealed attachment whose key does not open its
    /// sealed copy: the other laptop refuses it, shows it quarantined, never extracts it, and
    /// does not fetch it again at its next sync; the other photo arrives.
    @Test func aSealedCopyWhoseKeyDoesNotOpenItIsQuarantinedOnce() throws {
        let (laptops, _) = try Self.sharedPhotos(twice: false)
        defer { laptops.cleanUp() }
        let trip = try laptops.tripFolder()
        let tripID = (trip as NSString).lastPathComponent
        try Self.stripSealed(laptops.home("A") + "/trips/\(tripID).trip.json.gz", wrongKey: true)
        try? FileManager.default.removeItem(atPath: laptops.home("A") + "/trips/\(tripID).view")
        try FileManager.default.removeItem(atPath: trip + "/\(try laptops.deviceID("A")).trip.json.gz")
        try laptops.ok("A", "sync", "shared")
        let first = try laptops.ok("B", "sync", "shared")
        #expect((first.stdout + first.stderr).contains("do not open as the attachment's bytes"), "\(first.stdout)\(first.stderr)")
        let seen = try Self.attachments(laptops, "B")
        #expect(seen.map(\.state).sorted() == ["quarantined", "shared"], "\(seen)")
        let refused = try #require(seen.first { $0.state == "quarantined" })
        #expect(try laptops.run("B", ["extract", String(refused.id.prefix(8)), "-o", laptops.root + "/x.png"]).status != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("B") + "/blobs/quarantine").contains { $0.hasSuffix(".sealed-refused") })
        let second = try laptops.ok("B", "sync", "shared")
        #expect(!(second.stdout + second.stderr).contains("do not open"), "\(second.stdout)\(second.stderr)")
        #expect(try Self.attachments(laptops, "B").map(\.state).sorted() == ["quarantined", "shared"])
    }

    /// `gc` keeps the sealed copies attachments (shared or staged) name and removes one
    /// nothing names.
    @Test func gcKnowsSealedNames() throws {
        let (laptops, item) = try Self.sharedPhotos()
        defer { laptops.cleanUp() }
        try laptops.ok("A", "attach", String(item.prefix(8)), laptops.root + "/other.png")  // staged, not synced
        let sealed = laptops.home("A") + "/blobs/sealed"
        let named = try FileManager.default.contentsOfDirectory(atPath: sealed).sorted()
        #expect(named.count == 3)
        let orphan = String(repeating: "0", count: 64)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: sealed + "/" + orphan))
        try laptops.ok("A", "gc")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sealed).sorted() == named)
        #expect(try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/blobs").contains(BlobIDText.sha256(Self.photo)))
    }
}

/// SHA-256 as 64 lowercase hex digits.
enum BlobIDText {
    static func sha256(_ bytes: [UInt8]) -> String { SHA256Hasher.digest(bytes).map { String(format: "%02x", $0) }.joined() }
}
