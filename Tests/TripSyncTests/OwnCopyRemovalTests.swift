import Foundation
import Testing
@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Our own cloud conflicted copy is deleted only when it still holds the bytes that were merged
/// (docs/DESIGN.md, "The shared folder"): a newer version that landed during the sync stays.
@Suite struct OwnCopyRemovalTests {
    static let me = "a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d"

    @Test(arguments: [false, true])
    func onlyTheMergedBytesAreRemoved(replacedMeanwhile: Bool) throws {
        let folder = NSTemporaryDirectory() + "tripsync-own-copy-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = "\(Self.me).trip.json (Alex's conflicted copy 2026-12-01).gz"
        let merged = Array("the bytes that were merged".utf8)
        let newer = Array("a newer version, not merged yet".utf8)
        try Data(merged).write(to: URL(fileURLWithPath: folder + "/" + name))
        if replacedMeanwhile { try Data(newer).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let handle = try FolderHandle.open(path: folder)
        let sync = FolderSync(home: Home(path: folder + "/home"), folder: folder)
        let removed = sync.removeIfUnchanged(EntryName(name), digest: SHA256.digest(merged), in: handle)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        if replacedMeanwhile {
            #expect(!removed)
            #expect(left == [name], "put back under its own name, nothing else left: \(left)")
            #expect(FileManager.default.contents(atPath: folder + "/" + name) == Data(newer))
        } else {
            #expect(removed)
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test func aCopyWhoseNameWasTakenAgainStaysAsAnotherCopyOfOurs() throws {
        let folder = NSTemporaryDirectory() + "tripsync-own-copy-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = EntryName("\(Self.me).trip.json.sync-conflict-20261201-101010-ABCDEFG.gz")
        let handle = try FolderHandle.open(path: folder)
        try handle.writeAtomically(Array("changed".utf8), to: name)
        // The name is taken again as soon as the copy is moved aside: it can never be put back.
        let aside = EntryName("\(Self.me).aside-1.trip.json.gz")
        #expect(handle.rename(name, to: aside))
        try handle.writeAtomically(Array("landed meanwhile".utf8), to: name)
        #expect(!handle.renameWithoutReplacing(aside, to: name), "a file that appeared meanwhile is never replaced")
        #expect(FolderSync.classify(aside, me: try #require(Identifier(Self.me))) == .ownCopy, "merged next time")
        #expect(try handle.readFile(name, maxBytes: 100).bytes == Array("landed meanwhile".utf8))
    }
}
