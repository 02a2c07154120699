import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync sync FOLDER --watch` run as the built binary in the background, driven from here,
/// and `FolderWatcher` on its own. Every wait polls with a deadline; every watcher ends by SIGTERM.
@Suite struct SyncWatchTests {
    /// A background `tripsync --home HOME sync FOLDER --watch`, stdout and stderr in files.
    final class Watching {
        let process = Process()
        let outPath: String
        let errPath: String

        init(home: String, folder: String, root: String) throws {
            outPath = root + "/watch-\(UUID().uuidString).out"
            errPath = root + "/watch-\(UUID().uuidString).err"
            _ = FileManager.default.createFile(atPath: outPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["--home", home, "sync", folder, "--watch"]
            process.standardOutput = FileHandle(forWritingAtPath: outPath)
            process.standardError = FileHandle(forWritingAtPath: errPath)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            #expect(SyncWatchTests.eventually { self.stderr.contains("watching \(folder)") }, "started: \(stderr)")
        }

        var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
        var isRunning: Bool { process.isRunning }

        /// Sends SIGTERM and waits for the exit; the exit status (nil when it did not exit in 15 s, or died by a signal).
        func terminate() -> Int32? {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            guard SyncWatchTests.eventually(15, { !self.process.isRunning }) else {
                kill(process.processIdentifier, SIGKILL)
                return nil
            }
            return process.terminationReason == .exit ? process.terminationStatus : nil
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    /// Polls `condition` every 100 ms until it holds or `seconds` pass.
    static func eventually(_ seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    /// The JSON text of a gzip trip file ("" when it cannot be read yet).
    static func contents(ofGzip path: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : ""
    }

    /// Whether `line` starts with a local time `HH:MM:SS `.
    static func startsWithTime(_ line: Substring) -> Bool {
        let bytes = Array(line.utf8.prefix(9))
        guard bytes.count == 9 else { return false }
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 2, 5: if byte != UInt8(ascii: ":") { return false }
            case 8: if byte != UInt8(ascii: " ") { return false }
            default: if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { return false }
            }
        }
        return true
    }

    // MARK: - The watch loop, as the binary

    /// Fault 1: the loop watched only the shared folder, so an `add` on this laptop waited for
    /// someone else's change before it was published.
    @Test func anAddOnThisLaptopIsPublishedWhileWatching() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.syncedTrip(["alex"])
        let watching = try Watching(home: laptops.home("alex"), folder: laptops.folder, root: laptops.root)
        let ours = try laptops.published("alex", trip: trip)
        #expect(!SyncWatchTests.contents(ofGzip: ours).contains("Dinner at Ramiro"))
        let start = Date()
        try laptops.ok("alex", ["add", "Dinner at Ramiro", "--day", "2027-06-08", "--at", "20:00"])
        let published = SyncWatchTests.eventually { SyncWatchTests.contents(ofGzip: ours).contains("Dinner at Ramiro") }
        #expect(published, "our file in the folder holds the new item (\(watching.stderr))")
        #expect(Date().timeIntervalSince(start) < 8, "published within a few seconds, not on someone else's change")
        #expect(watching.terminate() == 0)
    }

    /// Fault 2: a round that failed (the home locked by another command for more than 10 s)
    /// ended the loop; now it warns, retries with backoff and publishes once the lock is free.
    @Test func aRoundThatFailsOnALockedHomeIsRetried() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, items) = try laptops.syncedTrip(["alex", "sam"])
        let watching = try Watching(home: laptops.home("alex"), folder: laptops.folder, root: laptops.root)
        // Hold Alex's home lock as another tripsync process would (flock is per open file).
        let lock = open(laptops.home("alex") + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(lock >= 0)
        // The watcher's first round may hold it for a moment (long on a loaded machine): wait for it.
        #expect(SyncWatchTests.eventually(30) { flock(lock, LOCK_EX | LOCK_NB) == 0 }, "the lock was never free")
        var locked = true
        defer { if locked { close(lock) } }
        try laptops.ok("sam", ["edit", items[0], "--title", "Lunch while Alex was busy"])
        try laptops.ok("sam", ["sync", laptops.folder])
        let warned = SyncWatchTests.eventually(20) { watching.stderr.contains(" sync failed: ") }
        #expect(warned, "a failed round warns: \(watching.stderr)")
        let warning = watching.stderr.split(separator: "\n").first { $0.contains(" sync failed: ") } ?? ""
        #expect(warning.hasPrefix("tripsync: warning: ") && SyncWatchTests.startsWithTime(warning.dropFirst(19)), "timestamped: \(warning)")
        #expect(warning.contains("trying again in"), "\(warning)")
        #expect(watching.isRunning, "a failed round does not end the loop: \(watching.stderr)")
        flock(lock, LOCK_UN)
        close(lock)
        locked = false
        let ours = try laptops.published("alex", trip: trip)
        let merged = SyncWatchTests.eventually { SyncWatchTests.contents(ofGzip: ours).contains("Lunch while Alex was busy") }
        #expect(merged, "retried once the lock was free: \(watching.stderr)")
        #expect(watching.isRunning)
        #expect(watching.terminate() == 0)
    }

    /// Fault 3: a trip folder replaced under the same path kept its watch on the old inode, so
    /// changes in the new folder went unnoticed.
    @Test func aReplacedTripFolderIsWatchedAgain() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, items) = try laptops.syncedTrip(["alex", "sam"])
        let watching = try Watching(home: laptops.home("alex"), folder: laptops.folder, root: laptops.root)
        let manager = FileManager.default
        let tripFolder = laptops.folder + "/" + trip
        let samFile = "\(try laptops.deviceID("sam")).trip.json.gz"
        // The trip folder is replaced: renamed away, a new one made with Sam's file copied in.
        try manager.moveItem(atPath: tripFolder, toPath: laptops.folder + "/replaced-" + trip)
        try manager.createDirectory(atPath: tripFolder, withIntermediateDirectories: false)
        try manager.copyItem(atPath: laptops.folder + "/replaced-\(trip)/" + samFile, toPath: tripFolder + "/" + samFile)
        // The round after the replacement publishes ours into the new folder.
        let ours = try laptops.published("alex", trip: trip)
        #expect(SyncWatchTests.eventually { manager.fileExists(atPath: ours) }, "\(watching.stderr)")
        // The next change inside the new folder is merged.
        try laptops.ok("sam", ["edit", items[1], "--note", "Noted in the new folder"])
        try laptops.ok("sam", ["sync", laptops.folder])
        let merged = SyncWatchTests.eventually { SyncWatchTests.contents(ofGzip: ours).contains("Noted in the new folder") }
        #expect(merged, "a change in the new trip folder is merged: \(watching.stderr)")
        #expect(watching.terminate() == 0)
    }

    /// Fault 3, the shared folder itself: renamed away and made again, it is watched again.
    @Test func aReplacedSharedFolderIsWatchedAgain() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, items) = try laptops.syncedTrip(["alex", "sam"])
        let watching = try Watching(home: laptops.home("alex"), folder: laptops.folder, root: laptops.root)
        let manager = FileManager.default
        try manager.moveItem(atPath: laptops.folder, toPath: laptops.root + "/shared-old")
        try manager.createDirectory(atPath: laptops.folder, withIntermediateDirectories: false)
        let ours = try laptops.published("alex", trip: trip)
        #expect(SyncWatchTests.eventually { manager.fileExists(atPath: ours) }, "ours published again: \(watching.stderr)")
        #expect(watching.stderr.contains("was replaced; watching the new folder"), "\(watching.stderr)")
        try laptops.ok("sam", ["edit", items[0], "--place", "Rua da Madalena"])
        try laptops.ok("sam", ["sync", laptops.folder])
        let merged = SyncWatchTests.eventually { SyncWatchTests.contents(ofGzip: ours).contains("Rua da Madalena") }
        #expect(merged, "a change in the new shared folder is merged: \(watching.stderr)")
        #expect(watching.isRunning)
        #expect(watching.terminate() == 0)
    }

    /// Fault 4: an idle round prints nothing; a round that merged prints one line starting with
    /// the local time.
    @Test func onlyARoundThatDidSomethingPrintsATimestampedLine() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, items) = try laptops.syncedTrip(["alex", "sam"])
        let watching = try Watching(home: laptops.home("alex"), folder: laptops.folder, root: laptops.root)
        let before = watching.stdout
        // Idle rounds: a file that is no trip folder in the shared folder, a dot-file in the trip folder.
        #expect(FileManager.default.createFile(atPath: laptops.folder + "/README.txt", contents: Data("hello".utf8)))
        #expect(FileManager.default.createFile(atPath: laptops.folder + "/\(trip)/.partial.trip.json.gz", contents: Data("x".utf8)))
        usleep(1_500_000)
        #expect(watching.stdout == before, "an idle round prints nothing")
        try laptops.ok("sam", ["edit", items[0], "--title", "Lunch at Time Out"])
        try laptops.ok("sam", ["sync", laptops.folder])
        #expect(SyncWatchTests.eventually { watching.stdout.count > before.count }, "\(watching.stderr)")
        usleep(1_500_000)  // the round our own write of the replica triggers is idle
        let lines = watching.stdout.dropFirst(before.count).split(separator: "\n")
        #expect(lines.count == 1, "one line for the one round that merged: \(lines)")
        #expect(lines.allSatisfy(SyncWatchTests.startsWithTime), "\(lines)")
        #expect(lines.first?.contains("changed 1 item") == true && lines.first?.contains("merged 1,") == true, "\(lines)")
        #expect(watching.terminate() == 0)
        #expect(watching.stderr.hasSuffix("stopped watching\n"), "\(watching.stderr)")
    }

    // MARK: - FolderWatcher on its own

    /// A writer that changes a file every 200 ms until stopped.
    final class Writer: @unchecked Sendable {
        private let lock = NSLock()
        private var stopped = false
        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }

        func start(_ path: String) {
            Thread.detachNewThread {
                var count = 0
                while !self.isStopped {
                    count += 1
                    try? Data("\(count)".utf8).write(to: URL(fileURLWithPath: path))
                    usleep(200_000)
                }
            }
        }
    }

    @Test func aSteadyStreamOfChangesStillSyncsWithinMaxDelay() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let trip = root + "/" + Identifier.random().description
        try FileManager.default.createDirectory(atPath: trip, withIntermediateDirectories: true)
        let watcher = FolderWatcher(folder: root)
        let writer = Writer()
        defer { writer.stop() }
        writer.start(trip + "/other.trip.json")
        let start = Date()
        let changed = watcher.waitForChange(debounce: 0.5, maxDelay: 2, ignoring: []) { Date().timeIntervalSince(start) > 8 }
        let elapsed = Date().timeIntervalSince(start)
        #expect(changed)
        #expect(elapsed >= 1.5 && elapsed < 4, "returned after \(elapsed) s while changes kept coming every 200 ms")
    }

    @Test func aTripFolderThatIsALinkIsNotWatched() throws {
        let root = CLI.temporaryFolder()
        let elsewhere = CLI.temporaryFolder()
        defer { for path in [root, elsewhere] { try? FileManager.default.removeItem(atPath: path) } }
        try FileManager.default.createSymbolicLink(atPath: root + "/" + Identifier.random().description, withDestinationPath: elsewhere)
        let watcher = FolderWatcher(folder: root)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: elsewhere + "/x.trip.json"))
        let start = Date()
        #expect(!watcher.waitForChange(ignoring: []) { Date().timeIntervalSince(start) > 1.5 }, "a write behind a link is not watched")
    }

    @Test func pollingNoticesAChangeInTheHomeAndIgnoresOurOwnFile() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shared = root + "/shared"
        let home = root + "/home/trips"
        let trip = shared + "/" + Identifier.random().description
        for path in [trip, home] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let watcher = FolderWatcher(folder: shared, home: home, polling: true)
        #expect(!watcher.usesInotify)
        func wait(_ seconds: Double) -> Bool {
            let start = Date()
            return watcher.waitForChange(pollInterval: 0.2, ignoring: ["ours.trip.json.gz"]) { Date().timeIntervalSince(start) > seconds }
        }
        #expect(!wait(0.6), "nothing changed")
        try Data("1".utf8).write(to: URL(fileURLWithPath: trip + "/ours.trip.json.gz"))
        try Data("1".utf8).write(to: URL(fileURLWithPath: home + "/.x.trip.json.gz.tmp-1"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/home/sync-state.json"))
        #expect(!wait(0.6), "our own file and temp files do not count")
        try Data("1".utf8).write(to: URL(fileURLWithPath: home + "/x.trip.json.gz"))
        #expect(wait(3), "an edit in the home counts")
    }

    /// Names are bytes: a conflicted copy whose name is Latin-1 (not UTF-8) arriving in a trip
    /// folder is a change when polling too (the listing once dropped such names).
    @Test func pollingNoticesANameThatIsNotUTF8() throws {
        let root = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shared = root + "/shared"
        let trip = shared + "/" + Identifier.random().description
        try FileManager.default.createDirectory(atPath: trip, withIntermediateDirectories: true)
        let watcher = FolderWatcher(folder: shared, polling: true)
        func wait(_ seconds: Double) -> Bool {
            let start = Date()
            return watcher.waitForChange(pollInterval: 0.2, ignoring: []) { Date().timeIntervalSince(start) > seconds }
        }
        #expect(!wait(0.6), "nothing changed")
        let name = Array("\(trip)/sam (copie en conflit ".utf8) + [0xE9] + Array("t".utf8) + [0xE9] + Array(").trip.json.gz".utf8)
        let fd = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        #expect(fd >= 0)
        close(fd)
        #expect(wait(3), "a copy named in Latin-1 counts as a change")
    }

    @Test func inotifyEventsAreParsedFromBytesEvenWhenSplit() {
        func event(_ descriptor: Int32, _ mask: UInt32, _ name: [UInt8]) -> [UInt8] {
            let padded = name.isEmpty ? 0 : (name.count / 16 + 1) * 16
            var bytes: [UInt8] = []
            for value in [UInt32(bitPattern: descriptor), mask, 0, UInt32(padded)] { withUnsafeBytes(of: value) { bytes += $0 } }
            return bytes + name + [UInt8](repeating: 0, count: padded - name.count)
        }
        let notUTF8: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".trip.json".utf8)
        let stream = event(3, 0x80, notUTF8) + event(1, 0x400, []) + event(4, 0x100, Array("0123456789abcdef".utf8))
        let (all, consumed) = FolderWatcher.parseEvents(stream)
        #expect(consumed == stream.count)
        #expect(all.map(\.name) == [notUTF8, [], Array("0123456789abcdef".utf8)], "names kept as bytes, NUL padding dropped")
        #expect(all.map(\.descriptor) == [3, 1, 4] && all.map(\.mask) == [0x80, 0x400, 0x100])
        // Fed in arbitrary pieces, the same events come out, nothing lost or doubled.
        for cut in [1, 7, 16, 17, 31, 32, 33, 47, 48, 60] {
            var carry: [UInt8] = []
            var events: [FolderWatcher.Event] = []
            for piece in [Array(stream.prefix(cut)), Array(stream.dropFirst(cut))] {
                carry += piece
                let (parsed, used) = FolderWatcher.parseEvents(carry)
                events += parsed
                carry.removeFirst(used)
            }
            #expect(events == all && carry.isEmpty, "cut at \(cut)")
        }
    }
}

extension Laptops {
    /// The file laptop `who` publishes for `trip` in the shared folder.
    func published(_ who: String, trip: String) throws -> String { folder + "/\(trip)/\(try deviceID(who)).trip.json.gz" }

    /// An open trip made on the first laptop with two items, every laptop initialised and synced once.
    func syncedTrip(_ names: [String]) throws -> (trip: String, items: [String]) {
        for name in names { try ok(name, ["init", "--device-name", "\(name)'s laptop"]) }
        let trip = try ok(names[0], ["new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--open"]).line
        let a = try ok(names[0], ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30"]).line
        let b = try ok(names[0], ["add", "Museum", "--day", "2027-06-09"]).line
        for name in names + names.prefix(1) { try ok(name, ["sync", folder]) }
        return (trip, [a, b])
    }
}
