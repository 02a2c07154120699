import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The trip folder's blobs are hostile input: links, pipes, folders where files belong and
/// names with odd bytes are refused with their reason, never followed, read or written through.
@Suite struct BlobFolderTests {
    typealias Scene = BlobStoreTests.Scene

    /// A scene whose home holds the blob and whose folder has its blob folder.
    private static func prepared() throws -> (Scene, BlobStore, FolderBlobStore) {
        let scene = try Scene()
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        try FileManager.default.createDirectory(atPath: scene.blobFolder, withIntermediateDirectories: true)
        return (scene, store, try scene.shared())
    }

    private static func refusal(_ error: any Error, _ what: String) -> Bool {
        guard let error = error as? BlobError, case .notAFile(let said) = error.reason else { return false }
        return said.contains(what)
    }

    @Test func symbolicLinkWhereTheBlobBelongsIsNotFollowed() throws {
        let (scene, store, folder) = try Self.prepared()
        defer { scene.remove() }
        // A link in the folder to the home's good copy: fetching must not follow it.
        #expect(symlink(store.path(of: scene.id), scene.blobFolder + "/" + scene.id.hex) == 0)
        #expect(try folder.presence(of: scene.id, size: 300_000) == .notAFile)
        let other = try BlobStore(home: scene.root + "/home2")
        #expect {
            _ = try other.fetch(scene.id, size: 300_000, from: folder)
        } throws: { Self.refusal($0, "symbolic link") }
        #expect(!other.contains(scene.id))
        #expect(try folder.list().isEmpty)
    }

    @Test func namedPipeIsRefusedWithoutWaiting() throws {
        let (scene, _, folder) = try Self.prepared()
        defer { scene.remove() }
        #expect(mkfifo(scene.blobFolder + "/" + scene.id.hex, 0o644) == 0)
        let other = try BlobStore(home: scene.root + "/home2")
        let start = Date()
        #expect {
            _ = try other.fetch(scene.id, size: 300_000, from: folder)
        } throws: { Self.refusal($0, "pipe") }
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func folderWhereTheBlobBelongsIsRefused() throws {
        let (scene, store, folder) = try Self.prepared()
        defer { scene.remove() }
        try FileManager.default.createDirectory(atPath: scene.blobFolder + "/" + scene.id.hex, withIntermediateDirectories: false)
        #expect(throws: BlobError.self) { _ = try store.share(scene.id, to: folder) }
        let other = try BlobStore(home: scene.root + "/home2")
        #expect {
            _ = try other.fetch(scene.id, size: 300_000, from: folder)
        } throws: { Self.refusal($0, "folder") }
    }

    /// A link at the partial's name (to a file outside) is never written through.
    @Test func linkAtThePartialNameIsNotWrittenThrough() throws {
        let (scene, store, folder) = try Self.prepared()
        defer { scene.remove() }
        let outside = scene.root + "/outside.txt"
        try FileIO.writeAtomically(bytes("keep me"), to: outside)
        #expect(symlink(outside, scene.blobFolder + "/\(scene.id.hex).partial") == 0)
        #expect {
            _ = try store.share(scene.id, to: folder)
        } throws: { Self.refusal($0, "symbolic link") }
        #expect(try scene.read(outside) == bytes("keep me"))
        #expect(try folder.presence(of: scene.id, size: nil) == .absent)
    }

    @Test func blobFolderThatIsALinkIsRefused() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let store = try scene.store()
        _ = try store.add(file: scene.root + "/photo.jpg")
        try FileManager.default.createDirectory(atPath: scene.folder + "/\(BlobStoreTests.trip)", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scene.root + "/elsewhere", withIntermediateDirectories: true)
        #expect(symlink(scene.root + "/elsewhere", scene.blobFolder) == 0)
        let folder = try scene.shared()
        #expect {
            _ = try store.share(scene.id, to: folder)
        } throws: { Self.refusal($0, "symbolic link") }
        #expect(scene.names(scene.root + "/elsewhere").isEmpty)
    }

    /// Names that are not exactly 64 lowercase hex digits (odd bytes, upper case, a partial, a
    /// temp) are never listed as blobs, so gc and sync never take them for one.
    @Test func oddNamesAreNotBlobs() throws {
        let (scene, store, folder) = try Self.prepared()
        defer { scene.remove() }
        _ = try store.share(scene.id, to: folder)
        let dir = try FolderHandle.open(path: scene.blobFolder)
        for name in [Array(scene.id.hex.utf8.dropLast()) + [0xFF], Array(scene.id.hex.uppercased().utf8), Array("\(scene.id.hex).partial".utf8),
            Array(".\(scene.id.hex).tmp".utf8), Array(scene.id.hex.utf8.dropLast()) + [0x0A]]
        {
            try dir.writeAtomically(bytes("x"), to: EntryName(name))
        }
        #expect(try folder.list() == [scene.id])
        // A link named like a blob is not listed either.
        let other = BlobID(of: bytes("other"))
        #expect(symlink(store.path(of: scene.id), scene.blobFolder + "/" + other.hex) == 0)
        #expect(try folder.list() == [scene.id])
    }
}
