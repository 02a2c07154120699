import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncPlatform
@testable import TripSyncHome

/// Sealed attachments (schema 7, docs/FORMAT.md "Schema 7"): an owned trip's blob reaches the
/// trip folder only as a sealed copy under a fresh key, named by the SHA-256 of the sealed bytes;
/// a sealed copy that does not open as the attachment's bytes is refused, quarantined, never used.
@Suite struct SealedBlobTests {
    typealias Scene = BlobStoreTests.Scene
    static let trip = BlobStoreTests.trip

    /// A home holding the scene's photo, sealed for the trip, and the reference naming it.
    static func sealedScene(size: Int = 300_000) throws -> (Scene, BlobStore, FolderBlobStore, BlobReference) {
        let scene = try Scene(size: size)
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        let sealed = try store.seal(scene.id, tripID: trip)
        let reference = BlobReference(sha256: scene.id.hex, size: Int64(size), type: "image/jpeg", sealed: sealed)
        return (scene, store, try scene.shared(), reference)
    }

    /// Whether `haystack` holds `needle` anywhere.
    static func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func aSealedPhotoTravelsThroughTheFolderAndArrivesByteIdentical() throws {
        let (scene, store, folder, reference) = try Self.sealedScene()
        defer { scene.remove() }
        let sealed = try #require(reference.sealed)
        #expect(sealed.size == SealedBlob.sealedSize(plaintext: 300_000) && sealed.size == 24 + 300_000 + 5 * 17)
        _ = try store.shareSealed(reference, to: folder, verifyPresent: true)
        // The folder holds the sealed bytes under their own name and nothing named by the photo.
        #expect(scene.names(scene.blobFolder) == [sealed.sha256])
        let inFolder = try scene.read(scene.blobFolder + "/" + sealed.sha256)
        #expect(BlobID(of: inFolder).hex == sealed.sha256 && Int64(inFolder.count) == sealed.size)
        let slice = Array(scene.content[1000..<1064])
        #expect(!Self.holds(inFolder, slice))
        #expect(!Self.holds(inFolder, Array(Data(slice).base64EncodedString().utf8)))
        // Another home fetches, opens and checks it: the photo's own bytes under its own name.
        let other = try BlobStore(home: scene.root + "/home2")
        let fetched = try other.fetchSealed(reference, tripID: Self.trip, from: folder)
        #expect(fetched.blob == scene.id && !fetched.alreadyThere)
        #expect(try other.bytes(of: scene.id) == scene.content)
        #expect(other.containsSealed(sealed))
        #expect(try other.fetchSealed(reference, tripID: Self.trip, from: folder).alreadyThere)
    }

    @Test func theSamePhotoSealedTwiceGetsTwoKeysAndTwoNames() throws {
        let (scene, store, _, reference) = try Self.sealedScene(size: 10_000)
        defer { scene.remove() }
        let again = try store.seal(scene.id, tripID: Self.trip)
        let first = try #require(reference.sealed)
        #expect(again.sha256 != first.sha256 && again.key != first.key && again.key.count == 32)
        #expect(try store.listSealed().map(\.hex).sorted() == [first.sha256, again.sha256].sorted())
    }

    /// Sealed bytes put under their own name in the folder (so the copy's hash check passes) and
    /// named by a reference whose key, trip, plaintext or stream does not fit: refused, moved to
    /// the quarantine, no plain bytes stored.
    @Test(arguments: ["flipped byte", "last chunk cut", "wrong key", "another trip", "another blob's bytes"])
    func aSealedCopyThatDoesNotOpenIsRefusedAndNeverUsed(_ attack: String) throws {
        let (scene, store, folder, reference) = try Self.sealedScene()
        defer { scene.remove() }
        let sealed = try #require(reference.sealed)
        var bytes = try scene.read(scene.home + "/blobs/sealed/" + sealed.sha256)
        var hostile = reference
        var trip = Self.trip
        switch attack {
        case "flipped byte": bytes[200_000] ^= 0x01
        case "last chunk cut":
            // Four whole chunks are the stream's size for 4 × 64 KiB: the reference says so,
            // and the cut is found by the missing final tag.
            bytes.removeLast(300_000 - 4 * 65_536 + 17)
            hostile.size = 4 * 65_536
        case "wrong key": hostile.sealed?.key = Sodium.random(32)
        case "another trip": trip = TripID(high: 9, low: 9)
        default:
            // A second photo's reference pointing at the first photo's sealed copy and key.
            let other = Sodium.random(300_000)
            hostile.sha256 = BlobID(of: other).hex
        }
        hostile.sealed?.sha256 = BlobID(of: bytes).hex
        hostile.sealed?.size = Int64(bytes.count)
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        try FileIO.writeAtomically(bytes, to: scene.blobFolder + "/" + BlobID(of: bytes).hex)
        let other = try BlobStore(home: scene.root + "/home2")
        #expect {
            _ = try other.fetchSealed(hostile, tripID: trip, from: folder)
        } throws: { error in
            guard let error = error as? BlobError, case .sealRefused(_, let quarantined) = error.reason else { return false }
            return quarantined?.contains("quarantine") == true && "\(error)".contains("never used")
        }
        #expect(try other.list().isEmpty && other.listSealed().isEmpty)
        #expect(try !other.quarantined().isEmpty)
        // Known as refused: a sync does not fetch the same bytes again.
        #expect(other.refusedSealed(try #require(hostile.sealed)))
    }

    @Test func aSealedSizeThatIsNotTheStreamsIsRefusedBeforeAnyCopy() throws {
        let (scene, store, folder, reference) = try Self.sealedScene()
        defer { scene.remove() }
        _ = try store.shareSealed(reference, to: folder)
        var hostile = reference
        hostile.size = 1  // the same sealed copy said to hold one byte
        let other = try BlobStore(home: scene.root + "/home2")
        #expect(throws: BlobError.self) { _ = try other.fetchSealed(hostile, tripID: Self.trip, from: folder) }
        #expect(try other.list().isEmpty && other.listSealed().isEmpty)
        #expect(throws: EditError.self) { try TripDocument.checkAttachment(name: "a.png", caption: nil, blob: hostile) }
    }

    @Test func theSealedSizeIsTheStreamsAndNeverOverflows() {
        #expect(SealedBlob.sealedSize(plaintext: 0) == 41)
        #expect(SealedBlob.sealedSize(plaintext: 65_536) == 24 + 65_536 + 17)
        #expect(SealedBlob.sealedSize(plaintext: 65_537) == 24 + 65_537 + 34)
        #expect(SealedBlob.sealedSize(plaintext: BlobReference.maxSize) == 1_099_796_840_472)
        #expect(SealedBlob.sealedSize(plaintext: .max) == .max)
        for size in [0, 1, 65_535, 65_536, 65_537, 200_000] {
            let sealed = Sodium.streamSeal([UInt8](repeating: 7, count: size), key: Sodium.randomSecret(32), additionalData: [])
            #expect(Int64(sealed.count) == SealedBlob.sealedSize(plaintext: Int64(size)))
        }
    }

    @Test func folderBytesThatDoNotHashToTheSealedNameAreQuarantined() throws {
        let (scene, store, folder, reference) = try Self.sealedScene()
        defer { scene.remove() }
        _ = try store.shareSealed(reference, to: folder)
        let sealed = try #require(reference.sealed)
        var bytes = try scene.read(scene.blobFolder + "/" + sealed.sha256)
        bytes[5] ^= 0x80
        try FileIO.writeAtomically(bytes, to: scene.blobFolder + "/" + sealed.sha256)
        let other = try BlobStore(home: scene.root + "/home2")
        #expect {
            _ = try other.fetchSealed(reference, tripID: Self.trip, from: folder)
        } throws: { error in
            guard let error = error as? BlobError, case .mismatch = error.reason else { return false }
            return true
        }
        #expect(try other.list().isEmpty && other.listSealed().isEmpty)
    }

    @Test func anInterruptedSealedCopyResumesFromItsPartial() throws {
        let (scene, store, folder, reference) = try Self.sealedScene()
        defer { scene.remove() }
        _ = try store.shareSealed(reference, to: folder)
        let sealed = try #require(reference.sealed)
        let other = try BlobStore(home: scene.root + "/home2")
        let whole = try scene.read(scene.blobFolder + "/" + sealed.sha256)
        try FileIO.writeAtomically(Array(whole.prefix(120_000)), to: scene.root + "/home2/blobs/partial/\(sealed.sha256).partial")
        let fetched = try other.fetchSealed(reference, tripID: Self.trip, from: folder)
        #expect(fetched.resumedFrom == 120_000)
        #expect(try other.bytes(of: scene.id) == scene.content)
        // Sharing resumes too: a third home's copy cut short in the folder's partial.
        try FileManager.default.removeItem(atPath: scene.blobFolder + "/" + sealed.sha256)
        try FileIO.writeAtomically(Array(whole.prefix(70_000)), to: scene.blobFolder + "/\(sealed.sha256).partial")
        let shared = try other.shareSealed(reference, to: folder)
        #expect(shared.resumedFrom == 70_000)
        #expect(try scene.read(scene.blobFolder + "/" + sealed.sha256) == whole)
    }

    /// Known-answer files: samples/v7 holds a trip whose boarding pass was sealed by Python
    /// (PyNaCl) from docs/FORMAT.md "Schema 7" alone; this build reads the trip, takes the sealed
    /// copy from a folder and opens it to the boarding pass's bytes.
    @Test func theSampleSealedByPythonOpensHere() throws {
        let loaded = try TripFileReader().read(path: PackagePaths.samples + "/v7/porto-sealed.trip.json")
        #expect(loaded.sourceSchemaVersion == 7 && loaded.migration == nil && loaded.warnings.isEmpty)
        let backup = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v7/porto-sealed-backup.trip.json"))
        #expect(loaded.document.canonicalJSON() == Array(backup))
        let references = loaded.document.attachments.values.compactMap { $0.blob?.value }.filter { $0.sealed != nil }
        let reference = try #require(references.first)
        #expect(references.count == 1 && reference.size == 70_000 && reference.type == "image/png")
        let sealed = try #require(reference.sealed)
        #expect(sealed.keyBase64 == Data(SHA256Hasher.digest(Array("tripsync-sample-blob-key:boarding-pass".utf8))).base64EncodedString())
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let blobs = root + "/shared/\(loaded.document.tripID)/blobs"
        try FileManager.default.createDirectory(atPath: blobs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackagePaths.samples + "/v7/blobs/" + sealed.sha256, toPath: blobs + "/" + sealed.sha256)
        let store = try BlobStore(home: root + "/home")
        let folder = try FolderBlobStore(folder: root + "/shared", tripID: loaded.document.tripID)
        let fetched = try store.fetchSealed(reference, tripID: loaded.document.tripID, from: folder)
        #expect(fetched.blob.hex == reference.sha256 && fetched.type == .png)
        // The same copy named for another trip does not open (the trip id is bound to it).
        let elsewhere = try BlobStore(home: root + "/home2")
        #expect(throws: BlobError.self) { _ = try elsewhere.fetchSealed(reference, tripID: TripID(high: 1, low: 1), from: folder) }
    }

    @Test func aSchema6FileWithASealedCopyIsRefusedAtItsPointer() throws {
        let loaded = TripFileReader().validate(path: PackagePaths.samples + "/v7/invalid/sealed-in-schema-6.trip.json")
        let error = try #require(loaded.errors.first)
        #expect(error.pointer.hasSuffix("/blob/value/sealed") && error.message.contains("a schema 7 key in a schema 6 file"))
    }

    @Test func migration6To7AddsNothing() throws {
        let loaded = try TripFileReader().read(path: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json")
        #expect(loaded.migration?.steps == ["6→7: no sealed attachment bytes yet"])
        #expect(loaded.document.attachments.values.allSatisfy { $0.blob?.value.sealed == nil })
        let v6 = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json"))
        let expected = String(decoding: v6, as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":6,", with: "\"schemaVersion\":7,")
        #expect(String(decoding: loaded.document.canonicalJSON(), as: UTF8.self) == expected)
    }
}
