import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared folder's C layer (`FolderHandle`, `FolderSync.classify`) on its own: what the
/// binary-level tests in CLITests/SyncEdgeTests.swift cannot reach (a pipe that is opened at
/// all, a name classified without a sync around it).
@Suite struct SyncEdgeFolderHandleTests {
    private static func scratch() -> String {
        let path = NSTemporaryDirectory() + "tripsync-folderhandle-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Opens `path` read-write after `seconds` (a pipe opened read-write never blocks), which
    /// frees a reader stuck waiting for a writer: a hang becomes a slow, failed test.
    private static func unblock(_ path: String, after seconds: UInt32) {
        Thread.detachNewThread {
            sleep(seconds)
            let fd = open(path, O_RDWR | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
    }

    @Test func aNamedPipeIsRefusedWithoutWaiting() throws {
        let folder = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = folder + "/p.trip.json.gz"
        #expect(mkfifo(pipe, 0o644) == 0)
        Self.unblock(pipe, after: 3)
        let handle = try FolderHandle.open(path: folder)
        let start = Date()
        #expect(throws: FileSystemError.self) { _ = try handle.readFile(EntryName("p.trip.json.gz"), maxBytes: 1 << 20) }
        do {
            _ = try FileIO.readFile(pipe, maxBytes: 1 << 20)
            Issue.record("a named pipe was read")
        } catch let error as FileSystemError {
            #expect(error.message.contains("named pipe"), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 2, "a read waited on the pipe")
    }

    struct Named: Sendable, CustomTestStringConvertible {
        var name: [UInt8]
        var kind: FolderSync.FileKind
        var testDescription: String { PrintableText.escape(bytes: name) + " → \(kind)" }
        init(_ name: String, _ kind: FolderSync.FileKind) { (self.name, self.kind) = (Array(name.utf8), kind) }
        init(_ name: [UInt8], _ kind: FolderSync.FileKind) { (self.name, self.kind) = (name, kind) }
    }

    static let me = "a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d"
    static let sam = "5b2d8c4e-1f3a-4b6c-8d9e-0a1b2c3d4e5f"

    @Test(arguments: [
        Named("\(me).trip.json.gz", .own),
        Named("\(me).trip.json (conflicted copy).gz", .ownCopy),
        Named(Array("\(me).trip.json (conflicted copy ".utf8) + [0xFF] + Array(").gz".utf8), .ownCopy),
        Named(".\(me).trip.json.gz.tmp-4242-0-123456", .ownTemporary),
        Named("\(sam).trip.json.gz", .other),
        Named(Array("\(sam).trip.json (conflicted copy ".utf8) + [0xFF] + Array(").gz".utf8), .other),
        Named("\(sam).trip.json (SFConflict sam@x.tmp.org 2026-11-29-10-10-10).gz", .other),
        Named("evil\u{1b}[31m.trip.json", .other),
        Named(".syncthing.x.trip.json.gz.tmp", .temporary),
        Named("x.trip.json.gz.part", .temporary),
        Named("~syncthing~x.trip.json.gz.tmp", .temporary),
        Named("x.trip.json.gz.crdownload", .temporary),
        Named("notes.txt", .notTrip),
        // Latin-1 (é is 0xE9) and Synology Drive's form: copies, never temporary.
        Named(Array("\(sam) (copie en conflit ".utf8) + [0xE9] + Array("t".utf8) + [0xE9] + Array(").trip.json.gz".utf8), .other),
        Named(Array("\(me) (copie en conflit ".utf8) + [0xE9] + Array("t".utf8) + [0xE9] + Array(").trip.json.gz".utf8), .ownCopy),
        Named("\(sam) (SFConflict user@host.tmp.org 2026-11-29-10-10-10).trip.json.gz", .other),
        Named("\(me) (SFConflict user@host.tmp.org 2026-11-29-10-10-10).trip.json.gz", .ownCopy),
        // Temporary only by a client's exact form; any other hidden name is no trip file.
        Named(".\(sam).trip.json.gz.tmp-77-0-991", .temporary),
        Named(".\(sam).trip.json.gz.a1B2c3", .temporary),
        Named(".\(sam).trip.json.gz.~1f2e", .temporary),
        Named("~$x.trip.json.gz", .temporary),
        Named(".DS_Store", .notTrip),
        Named("._\(sam).trip.json.gz", .notTrip),
        Named(".\(sam).trip.json.gz.tmp-note", .notTrip),
    ])
    func namesAreClassifiedByExactPatterns(_ named: Named) throws {
        let me = try #require(Identifier(Self.me))
        #expect(FolderSync.classify(EntryName(named.name), me: me) == named.kind)
    }

    @Test func printedNamesCannotDriveATerminal() {
        #expect(EntryName(Array("evil".utf8) + [0x1B] + Array("[31m".utf8) + [0xFF, 0x5C]).display == "evil\\x1b[31m\\xff\\\\")
    }

    @Test func aLinkIsNeverFollowedNorWrittenThrough() throws {
        let root = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/shared"
        let outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let target = outside + "/target"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("outside".utf8)))
        #expect(chmod(target, 0o777) == 0)
        #expect(symlink(outside, folder + "/linked") == 0)
        #expect(symlink(target, folder + "/own.trip.json.gz") == 0)
        #expect(FileManager.default.createFile(atPath: folder + "/setuid.trip.json.gz", contents: Data("x".utf8)))
        #expect(chmod(folder + "/setuid.trip.json.gz", 0o4755) == 0)
        let handle = try FolderHandle.open(path: folder)

        do {
            _ = try handle.openFolder(EntryName("linked"))
            Issue.record("a linked folder was opened")
        } catch {
            // Linux gives ENOTDIR, not ELOOP, for O_DIRECTORY | O_NOFOLLOW on a link.
            #expect(error.message.contains("symbolic link, not followed") || error.message.contains("is not a folder"), "\(error)")
        }
        #expect(handle.kind(of: EntryName("linked"))?.kind == .link)
        do {
            _ = try handle.readFile(EntryName("own.trip.json.gz"), maxBytes: 1 << 20)
            Issue.record("a link was read")
        } catch {
            #expect(error.message.contains("symbolic link"), "\(error)")
        }
        let previous = umask(0o077)
        defer { umask(previous) }
        for name in ["own.trip.json.gz", "setuid.trip.json.gz"] {
            try handle.writeAtomically(Array("ours".utf8), to: EntryName(name), mode: 0o644)
            var info = stat()
            #expect(lstat(folder + "/" + name, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFREG, "\(name) is a regular file")
            #expect(info.st_mode & 0o7777 == 0o644, "\(name): mode \(String(info.st_mode & 0o7777, radix: 8))")
        }
        #expect(FileManager.default.contents(atPath: target) == Data("outside".utf8))
        var info = stat()
        #expect(lstat(target, &info) == 0 && info.st_mode & 0o7777 == 0o777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["target"])
    }
}
