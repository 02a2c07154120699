import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The home blob store and the resumable, verified copy both ways: what is stored is named by
/// its hash, a partial file resumes from its verified length, bytes that do not match their name
/// are quarantined, a source that changes is never taken.
@Suite struct BlobStoreTests {
    static let trip = Identifier(high: 0x6f1c_0d2e_8a4b_4c1e, low: 0x9b7a_2d3e_4f5a_6b7c)

    /// A scratch root with a home, a shared folder and a file to attach of `size` random bytes.
    struct Scene {
        let root = temporaryFolder()
        var home: String { root + "/home" }
        var folder: String { root + "/shared" }
        var blobFolder: String { folder + "/\(BlobStoreTests.trip)/blobs" }
        let content: [UInt8]
        let id: BlobID

        init(size: Int = 300_000) throws {
            content = Sodium.random(size)
            id = BlobID(of: content)
            try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
            try FileIO.writeAtomically(content, to: root + "/photo.jpg")
        }

        func store(limit: Int64 = BlobStore.defaultLimit) throws -> BlobStore { try BlobStore(home: home, limit: limit) }
        func shared() throws -> FolderBlobStore { try FolderBlobStore(folder: folder, tripID: BlobStoreTests.trip) }
        func read(_ path: String) throws -> [UInt8] { try FileIO.readFile(path, maxBytes: 1 << 30) }
        func names(_ path: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func addedFileIsStoredOnceUnderItsHash() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        var reported: [Int64] = []
        let added = try store.add(file: scene.root + "/photo.jpg") { done, total in
            #expect(total == 300_000)
            reported.append(done)
        }
        #expect(added.blob == scene.id && added.size == 300_000 && added.resumedFrom == 0 && !added.alreadyThere)
        #expect(reported.last == 300_000)
        #expect(try scene.read(scene.home + "/blobs/" + scene.id.hex) == scene.content)
        #expect(store.contains(scene.id) && store.contains(scene.id, size: 300_000) && !store.contains(scene.id, size: 1))
        #expect(try store.bytes(of: scene.id) == scene.content)
        try store.verify(scene.id)
        // The same file again: still one blob, no partial left behind.
        _ = try store.add(file: scene.root + "/photo.jpg")
        #expect(try store.list() == [scene.id])
        #expect(scene.names(scene.home + "/blobs/partial").isEmpty)
        #expect(try store.remove(scene.id) && !store.contains(scene.id) && !(try store.remove(scene.id)))
    }

    @Test func addedBytesAndTypeFromMagicBytes() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + scene.content
        let added = try store.add(bytes: png)
        #expect(added.type == .png && added.blob == BlobID(of: png))
        #expect(try store.add(file: scene.root + "/photo.jpg").type == .octetStream)  // named .jpg, not a JPEG
    }

    @Test func fileOverTheLimitIsRefusedBeforeCopying() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store(limit: 1000)
        #expect(store.limit == 1000)
        #expect {
            _ = try store.add(file: scene.root + "/photo.jpg")
        } throws: { ($0 as? BlobError)?.reason == .tooLarge(size: 300_000, limit: 1000) }
        #expect(throws: BlobError.self) { _ = try store.add(bytes: scene.content) }
        #expect(try store.list().isEmpty && scene.names(scene.home + "/blobs/partial").isEmpty)
    }

    @Test func sharedThenFetchedByAnotherHome() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        let folder = try scene.shared()
        #expect(try folder.presence(of: scene.id, size: 300_000) == .absent)
        let shared = try store.share(scene.id, to: folder)
        #expect(!shared.alreadyThere && shared.resumedFrom == 0)
        #expect(try scene.read(scene.blobFolder + "/" + scene.id.hex) == scene.content)
        #expect(scene.names(scene.blobFolder) == [scene.id.hex])  // no partial left
        #expect(try folder.presence(of: scene.id, size: 300_000) == .present)
        #expect(try folder.presence(of: scene.id, size: 5) == .otherSize(300_000))
        #expect(try store.share(scene.id, to: folder).alreadyThere)

        let other = try BlobStore(home: scene.root + "/home2")
        let fetched = try other.fetch(scene.id, size: 300_000, from: folder)
        #expect(!fetched.alreadyThere && fetched.blob == scene.id)
        #expect(try other.bytes(of: scene.id) == scene.content)
        #expect(try other.fetch(scene.id, size: 300_000, from: folder).alreadyThere)
        #expect(try folder.list() == [scene.id])
        #expect(try folder.remove(scene.id) && folder.list().isEmpty)
    }

    /// Shares with a partial file already in the folder holding `partial`'s bytes.
    private func share(_ scene: Scene, partial: [UInt8]) throws -> BlobCopyResult {
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        try FileIO.writeAtomically(partial, to: scene.blobFolder + "/\(scene.id.hex).partial")
        let result = try store.share(scene.id, to: try scene.shared())
        #expect(try scene.read(scene.blobFolder + "/" + scene.id.hex) == scene.content)
        #expect(scene.names(scene.blobFolder) == [scene.id.hex])
        return result
    }

    @Test func copyResumesFromACutPartial() throws {
        let scene = try Scene()
        defer { scene.remove() }
        #expect(try share(scene, partial: Array(scene.content[0..<123_457])).resumedFrom == 123_457)
    }

    @Test func copyResumesFromTheFirstWrongByteOfAPartial() throws {
        let scene = try Scene()
        defer { scene.remove() }
        var partial = Array(scene.content[0..<200_000])
        partial[150_001] ^= 0xFF
        #expect(try share(scene, partial: partial).resumedFrom == 150_001)
    }

    @Test func partialLongerThanTheSourceIsCut() throws {
        let scene = try Scene()
        defer { scene.remove() }
        #expect(try share(scene, partial: scene.content + [1, 2, 3]).resumedFrom == 300_000)
    }

    @Test func folderBytesThatMismatchTheirNameAreQuarantined() throws {
        let scene = try Scene()
        defer { scene.remove() }
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        var wrong = scene.content
        wrong[7] ^= 1
        try FileIO.writeAtomically(wrong, to: scene.blobFolder + "/" + scene.id.hex)
        let store = try scene.store()
        #expect {
            _ = try store.fetch(scene.id, size: 300_000, from: try scene.shared())
        } throws: { error in
            guard let error = error as? BlobError, case .mismatch(let actual, let moved) = error.reason else { return false }
            return actual == BlobID(of: wrong) && moved?.contains("/blobs/quarantine/\(scene.id.hex).") == true
                && error.path.hasSuffix("/blobs/" + scene.id.hex) && error.description.contains("never used")
        }
        #expect(!store.contains(scene.id))
        #expect(scene.names(scene.home + "/blobs/partial").isEmpty)
        let quarantined = try store.quarantined()
        #expect(quarantined.count == 1)
        #expect(try quarantined.first.map { try scene.read($0) } == wrong)
    }

    @Test func shareThatPublishesHashesAFolderCopyOfTheRightSizeAndReplacesWrongBytes() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        var wrong = scene.content
        wrong[150_000] ^= 0x80
        let target = scene.blobFolder + "/" + scene.id.hex
        try FileIO.writeAtomically(wrong, to: target)
        // A plain share trusts the size (a stat: what a sync of live attachments pays) ...
        #expect(try store.share(scene.id, to: try scene.shared()).alreadyThere)
        #expect(try scene.read(target) == wrong)
        // ... the share before a first publish reads the bytes, and replaces wrong ones.
        let verified = try store.share(scene.id, to: try scene.shared(), verifyPresent: true)
        #expect(!verified.alreadyThere)
        #expect(try scene.read(target) == scene.content)
        #expect(scene.names(scene.blobFolder) == [scene.id.hex])
        #expect(try store.share(scene.id, to: try scene.shared(), verifyPresent: true).alreadyThere)
    }

    @Test func homeBytesThatMismatchTheirNameAreQuarantinedAndNotShared() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        var wrong = scene.content
        wrong[299_999] ^= 1
        try FileIO.writeAtomically(wrong, to: scene.home + "/blobs/" + scene.id.hex)
        #expect {
            _ = try store.share(scene.id, to: try scene.shared())
        } throws: { error in
            guard let error = error as? BlobError, case .mismatch(_, let moved) = error.reason else { return false }
            return moved != nil
        }
        #expect(!store.contains(scene.id))
        #expect(try store.quarantined().count == 1)
        #expect(scene.names(scene.blobFolder).isEmpty)  // neither the blob nor a partial
        // Reading a mismatching home blob quarantines it too.
        try FileIO.writeAtomically(wrong, to: scene.home + "/blobs/" + scene.id.hex)
        #expect(throws: BlobError.self) { _ = try store.bytes(of: scene.id) }
        #expect(!store.contains(scene.id))
    }

    @Test func truncatedOrLargerSourceIsNotTakenAsComplete() throws {
        let scene = try Scene()
        defer { scene.remove() }
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        try FileIO.writeAtomically(Array(scene.content[0..<1000]), to: scene.blobFolder + "/" + scene.id.hex)
        let store = try scene.store()
        let folder = try scene.shared()
        #expect(try folder.presence(of: scene.id, size: 300_000) == .otherSize(1000))
        #expect {
            _ = try store.fetch(scene.id, size: 300_000, from: folder)
        } throws: { ($0 as? BlobError)?.reason == .incomplete(size: 1000, expected: 300_000) }
        #expect {
            _ = try store.fetch(scene.id, size: 999, from: folder)
        } throws: { ($0 as? BlobError)?.reason == .wrongSize(size: 1000, expected: 999) }
        #expect(!store.contains(scene.id))
        #expect {
            _ = try store.fetch(BlobID(of: [1]), size: 1, from: folder)
        } throws: { ($0 as? BlobError)?.reason == .missing }
    }

    @Test func sourceGrowingWhileReadIsRefused() throws {
        let scene = try Scene(size: 3 << 20)
        defer { scene.remove() }
        let store = try scene.store()
        var appended = false
        #expect {
            _ = try store.add(file: scene.root + "/photo.jpg") { done, _ in
                guard !appended, done >= 1 << 20, let handle = FileHandle(forWritingAtPath: scene.root + "/photo.jpg") else { return }
                handle.seekToEndOfFile()
                handle.write(Data([1, 2, 3]))
                handle.closeFile()
                appended = true
            }
        } throws: { ($0 as? BlobError)?.reason == .changedWhileRead }
        #expect(appended)
        #expect(try store.list().isEmpty && scene.names(scene.home + "/blobs/partial").isEmpty)
    }

    @Test func sourceReplacedWhileReadIsRefused() throws {
        let scene = try Scene(size: 3 << 20)
        defer { scene.remove() }
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        let folder = try scene.shared()
        var replaced = false
        #expect {
            _ = try store.share(scene.id, to: folder) { done, _ in
                guard !replaced, done >= 1 << 20 else { return }
                // Another file of the same bytes renamed over the name: not the file being read.
                try? FileIO.writeAtomically(scene.content, to: scene.home + "/blobs/" + scene.id.hex)
                replaced = true
            }
        } throws: { ($0 as? BlobError)?.reason == .changedWhileRead }
        #expect(try folder.presence(of: scene.id, size: Int64(scene.content.count)) == .absent)
        // The next run resumes from the partial it left and completes.
        let again = try store.share(scene.id, to: folder)
        #expect(again.resumedFrom > 0)
        #expect(try scene.read(scene.blobFolder + "/" + scene.id.hex) == scene.content)
    }

    /// The path entry (`tripsync-bench blob-copy`, Tests/killcopy): the name must be a SHA-256,
    /// bytes that do not match it are removed, a copy already there is not read.
    @Test func copyBetweenBlobFoldersByPath() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let source = scene.root + "/src"
        let target = scene.root + "/dest"
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try FileIO.writeAtomically(scene.content, to: source + "/photo.jpg")
        #expect(throws: BlobError.self) { _ = try BlobCopy.copy(blob: source + "/photo.jpg", into: target) }
        try FileIO.writeAtomically(scene.content, to: source + "/" + scene.id.hex)
        let first = try BlobCopy.copy(blob: source + "/" + scene.id.hex, into: target)
        #expect(!first.alreadyThere && first.size == 300_000)
        #expect(try scene.read(target + "/" + scene.id.hex) == scene.content)
        #expect(try BlobCopy.copy(blob: source + "/" + scene.id.hex, into: target).alreadyThere)
        let other = BlobID(of: bytes("other"))
        try FileIO.writeAtomically(scene.content, to: source + "/" + other.hex)
        #expect {
            _ = try BlobCopy.copy(blob: source + "/" + other.hex, into: target)
        } throws: { error in
            guard let error = error as? BlobError, case .mismatch(let actual, nil) = error.reason else { return false }
            return actual == scene.id
        }
        #expect(scene.names(target) == [scene.id.hex])  // no partial, nothing under the wrong name
    }

    @Test func secondCopyOfTheSameBlobIsBusy() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        let held = try BlobFile.openPartial(scene.id.partialName, in: store.partial, blob: scene.id)
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        try FileIO.writeAtomically(scene.content, to: scene.blobFolder + "/" + scene.id.hex)
        #expect {
            _ = try store.fetch(scene.id, size: 300_000, from: try scene.shared())
        } throws: { ($0 as? BlobError)?.reason == .busy }
        #expect(held.path.hasSuffix("/blobs/partial/\(scene.id.hex).partial"))
    }
}
