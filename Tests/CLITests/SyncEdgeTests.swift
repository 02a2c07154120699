import Foundation
import Testing
import TripSync
import TripSyncPlatform
import TripSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The shared folder's edges (docs/DESIGN.md, "The shared folder"), proven against the built
// `tripsync` binary: `FOLDER/<tripId>/<deviceId>.trip.json.gz`, one file per device, in a folder
// anyone (a cloud client, a NAS, another person) may fill with links, pipes, odd names and
// copies. Each test asserts the exact effect on disk and in the report, not only the exit status.

// MARK: - Names are bytes: raw file system helpers

/// File system calls on paths given as bytes (a name need not be UTF-8), never following a link.
private enum Raw {
    static func path(_ folder: String, _ name: [UInt8]) -> [UInt8] { Array(folder.utf8) + [0x2F] + name }
    static func path(_ folder: String, _ name: String) -> [UInt8] { path(folder, Array(name.utf8)) }

    static func withC<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        let bytes = path.map { CChar(bitPattern: $0) } + [0]
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Creates (or truncates) a regular file holding `bytes` at exactly `mode`.
    @discardableResult
    static func writeFile(_ path: [UInt8], _ bytes: [UInt8], mode: mode_t = 0o644) -> Bool {
        let fd = withC(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { buffer in buffer.isEmpty ? 0 : Glibc.write(fd, buffer.baseAddress, buffer.count) }
        return written == bytes.count && fchmod(fd, mode) == 0
    }

    /// The bytes of a regular file (nil for anything else), the link not followed.
    static func readFile(_ path: [UInt8]) -> [UInt8]? {
        let fd = withC(path) { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            out.append(contentsOf: chunk[0..<got])
        }
        return out
    }

    @discardableResult
    static func makeSymlink(_ path: [UInt8], to target: String) -> Bool {
        withC(path) { link in symlink(target, link) } == 0
    }

    @discardableResult
    static func makeHardLink(_ path: [UInt8], to target: String) -> Bool {
        withC(path) { name in link(target, name) } == 0
    }

    @discardableResult
    static func makeFifo(_ path: [UInt8]) -> Bool { withC(path) { mkfifo($0, 0o644) } == 0 }

    @discardableResult
    static func makeFolder(_ path: [UInt8]) -> Bool { withC(path) { mkdir($0, 0o755) } == 0 }

    static func lstatInfo(_ path: [UInt8]) -> stat? {
        var info = stat()
        return withC(path) { lstat($0, &info) } == 0 ? info : nil
    }

    static func lstatInfo(_ path: String) -> stat? { lstatInfo(Array(path.utf8)) }

    /// The permission bits (with setuid, setgid, sticky) of what is at `path`.
    static func mode(_ path: String) -> mode_t? { lstatInfo(path).map { $0.st_mode & 0o7777 } }

    static func isRegularFile(_ path: String) -> Bool { lstatInfo(path).map { ($0.st_mode & S_IFMT) == S_IFREG } ?? false }

    static func names(in folder: [UInt8]) -> [[UInt8]] {
        guard let stream = withC(folder, { opendir($0) }) else { return [] }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            names.append(bytes)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// One entry of a snapshot: its kind, permission bits and content (a file's bytes, a link's
    /// target).
    struct Entry: Equatable, CustomStringConvertible {
        var kind: String
        var mode: mode_t
        var content: [UInt8]
        var description: String { "\(kind) \(String(mode, radix: 8)) \(content.count) bytes" }
    }

    /// Everything under `root` (root included), by printed relative path, links not followed.
    static func snapshot(_ root: String) -> [String: Entry] {
        var result: [String: Entry] = [:]
        func walk(_ path: [UInt8], _ relative: [UInt8]) {
            guard let info = lstatInfo(path) else { return }
            let key = relative.isEmpty ? "." : PrintableText.escape(bytes: relative)
            let mode = info.st_mode & 0o7777
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                result[key] = Entry(kind: "folder", mode: mode, content: [])
                for name in names(in: path) { walk(path + [0x2F] + name, relative.isEmpty ? name : relative + [0x2F] + name) }
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: 4096)
                let count = withC(path) { readlink($0, &buffer, buffer.count) }
                result[key] = Entry(kind: "link", mode: mode, content: buffer.prefix(max(count, 0)).map { UInt8(bitPattern: $0) })
            case S_IFREG:
                result[key] = Entry(kind: "file", mode: mode, content: readFile(path) ?? [])
            case S_IFIFO:
                result[key] = Entry(kind: "fifo", mode: mode, content: [])
            default:
                result[key] = Entry(kind: "other", mode: mode, content: [])
            }
        }
        walk(Array(root.utf8), [])
        return result
    }
}

// MARK: - Processes

private enum Shell {
    /// Runs a program (found on PATH) to its end; its exit status.
    @discardableResult
    static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `tripsync ARGS`, killed after `seconds`: nil when it had to be killed (it hung).
    static func tripsync(_ arguments: [String], timeout seconds: Double) throws -> CLIResult? {
        let scratch = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        _ = FileManager.default.createFile(atPath: scratch + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch + "/err", contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/out"))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/err"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        try out.close()
        try err.close()
        func text(_ name: String) -> String { String(decoding: FileManager.default.contents(atPath: scratch + "/" + name) ?? Data(), as: UTF8.self) }
        return CLIResult(status: process.terminationStatus, stdout: text("out"), stderr: text("err"))
    }
}

/// Read-only bind mounts (root ignores permission bits, so a mount is the only read-only folder).
private enum Mounts {
    /// Whether this process may bind-mount and remount read-only (tried once, in a scratch folder).
    static let permitted: Bool = {
        let probe = CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard readOnly(probe) else { return false }
        let writable = FileManager.default.createFile(atPath: probe + "/x", contents: Data("x".utf8))
        unmount(probe)
        return !writable
    }()

    /// Makes `folder` read-only in place; false when mounting is not permitted.
    static func readOnly(_ folder: String) -> Bool {
        guard Shell.run(["mount", "--bind", folder, folder]) == 0 else { return false }
        guard Shell.run(["mount", "-o", "remount,ro,bind", folder]) == 0 else {
            unmount(folder)
            return false
        }
        return true
    }

    static func unmount(_ folder: String) { Shell.run(["umount", folder]) }
}

// MARK: - Homes and one shared folder

/// What `sync --json` printed, with its process result.
private struct SyncRun {
    var result: CLIResult
    var report: [String: Any]

    var status: Int32 { result.status }
    var stderr: String { result.stderr }
    var merged: [String] { report["merged"] as? [String] ?? [] }
    var skipped: [(file: String, reason: String)] {
        (report["skipped"] as? [[String: Any]] ?? []).map { ($0["file"] as? String ?? "", $0["reason"] as? String ?? "") }
    }
    var trips: [[String: Any]] { report["trips"] as? [[String: Any]] ?? [] }
    func trip(_ id: String) -> [String: Any]? { trips.first { $0["tripId"] as? String == id } }
    /// The reason given for the skipped entry whose printed path ends with `/name`; nil if none.
    func reason(_ name: String) -> String? { skipped.first { $0.file.hasSuffix("/" + name) }?.reason }
}

/// Several homes, one shared folder, and an "outside" folder next to it that no sync may touch.
private struct Desk {
    let root = CLI.temporaryFolder()
    var shared: String { root + "/shared" }
    var outside: String { root + "/outside" }

    init() {
        try? FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
    }

    func home(_ who: String) -> String { root + "/" + who }
    func tripFolder(_ trip: String) -> String { shared + "/" + trip }
    func replica(_ who: String, _ trip: String) -> String { home(who) + "/trips/" + trip + ".trip.json.gz" }

    func run(_ who: String, _ arguments: [String]) throws -> CLIResult {
        try CLI.run(["--home", home(who)] + arguments)
    }

    /// Runs a command that must succeed; its standard output, trimmed.
    @discardableResult
    func ok(_ who: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(who, arguments)
        #expect(result.status == 0, "\(who) \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `sync FOLDER --json`; the status is the caller's to check.
    func sync(_ who: String, folder: String? = nil) throws -> SyncRun {
        let result = try run(who, ["sync", folder ?? shared, "--json"])
        let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
        return SyncRun(result: result, report: report)
    }

    /// A sync that must succeed.
    @discardableResult
    func synced(_ who: String, folder: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> SyncRun {
        let run = try sync(who, folder: folder)
        #expect(run.status == 0, "\(who) sync: \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// A new trip in `who`'s home with one item; (trip id, item id).
    func newTrip(_ who: String, _ name: String, item: String = "Lunch") throws -> (trip: String, item: String) {
        let trip = try ok(who, ["new", name, "--zone", "Europe/Lisbon", "--open"])
        let item = try ok(who, ["add", item, "--day", "2027-06-08", "--at", "12:30", "--trip", trip])
        return (trip, item)
    }

    func deviceID(_ who: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: home(who) + "/device.json"))
        return ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["deviceId"] as? String) ?? ""
    }

    /// Everything a person sees of a trip in a home: `show --json` and `conflicts --json`.
    func seen(_ who: String, _ trip: String) throws -> String {
        try run(who, ["show", "--json", "--trip", trip]).stdout + (try run(who, ["conflicts", "--json", "--trip", trip]).stdout)
    }

    func fingerprint(_ who: String, _ trip: String) throws -> String {
        try ok(who, ["fingerprint", "--trip", trip])
    }

    /// Removes everything (names that are not UTF-8 included).
    func cleanUp() { Shell.run(["rm", "-rf", root]) }
}

/// Every string value of every item of a trip file (winners and conflicts), read in process.
private func itemValues(_ path: String) -> Set<String> {
    guard let document = try? TripFileReader().read(path: path).document else { return [] }
    var values: Set<String> = []
    for item in document.items.values {
        if let title = item.title { values.insert(title.value); values.formUnion(title.conflicts.map(\.value)) }
        if let place = item.place { values.formUnion(([place.value] + place.conflicts.map(\.value)).compactMap { $0 }) }
        if let note = item.note { values.formUnion(([note.value] + note.conflicts.map(\.value)).compactMap { $0 }) }
    }
    return values
}

private func hasEscapeByte(_ text: String) -> Bool { text.utf8.contains(0x1B) }

// MARK: - The tests

@Suite struct SyncEdgeTests {
    // Rule 1: a trip folder that is a symbolic link is never followed.
    @Test(arguments: [true, false])
    func aSymlinkedTripFolderIsNeverFollowed(heldByThisHome: Bool) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        try desk.ok("sam", ["init", "--device-name", "Sam's laptop"])
        let (own, ownItem) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        let alexID = try desk.deviceID("alex")
        let samID = try desk.deviceID("sam")
        let elsewhere = desk.outside + "/a trip folder elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let linked: String
        if heldByThisHome {
            // Sam's file with a title Alex never saw, and one of Alex's own conflicted copies
            // (which a sync that followed the link would merge, then delete).
            try desk.synced("sam")
            try desk.ok("sam", ["edit", ownItem, "--title", "Title only outside"])
            try desk.ok("sam", ["backup", "-o", elsewhere + "/\(samID).trip.json.gz"])
            try desk.ok("alex", ["edit", ownItem, "--note", "Alex's note"])
            try desk.ok("alex", ["backup", "-o", elsewhere + "/\(alexID).trip.json (conflicted copy).gz"])
            try FileManager.default.removeItem(atPath: desk.tripFolder(own))
            linked = own
        } else {
            // A trip Alex does not hold, reachable only through the link.
            let (foreign, _) = try desk.newTrip("sam", "Sam's own trip", item: "Title only outside")
            try desk.ok("sam", ["backup", "-o", elsewhere + "/\(samID).trip.json.gz", "--trip", foreign])
            try desk.ok("sam", ["backup", "-o", elsewhere + "/\(alexID).trip.json (conflicted copy).gz", "--trip", foreign])
            try desk.ok("alex", ["edit", ownItem, "--note", "Alex's note"])
            linked = foreign
        }
        #expect(Raw.makeSymlink(Raw.path(desk.shared, linked), to: elsewhere))
        let before = Raw.snapshot(desk.outside)

        let sync = try desk.sync("alex")

        #expect(Raw.snapshot(desk.outside) == before, "nothing outside the shared folder was written or deleted")
        #expect(Raw.lstatInfo(desk.tripFolder(linked)).map { ($0.st_mode & S_IFMT) == S_IFLNK } == true, "the link itself is left alone")
        #expect(!(try desk.run("alex", ["show", "--trip", own]).stdout.contains("Title only outside")), "nothing behind the link was merged")
        #expect(!FileManager.default.fileExists(atPath: desk.replica("alex", linked)) || heldByThisHome, "no trip joined through a link")
        if heldByThisHome {
            #expect(sync.status == 1, "a trip of this home was not synced")
            #expect(sync.stderr.contains("symbolic link, not followed"), "\(sync.stderr)")
            #expect(sync.stderr.contains("trip \(own) not synced") || sync.stderr.contains("trip \"Lisbon\" not synced"), "\(sync.stderr)")
            let trip = try #require(sync.trip(own))
            #expect(trip["synced"] as? Bool == false)
            #expect((trip["error"] as? String)?.contains("symbolic link, not followed") == true, "\(trip)")
            #expect(trip["published"] is NSNull)
        } else {
            #expect(sync.status == 0, "a link for a trip this home lacks is only reported: \(sync.stderr)")
            #expect(sync.reason(linked)?.contains("symbolic link, not followed") == true, "\(sync.skipped)")
            #expect(sync.trip(own)?["synced"] as? Bool == true)
            #expect(sync.report["joined"] as? [String] == [])
        }
    }

    // Rule 2: a device file that is a symbolic link is skipped, its target never merged.
    @Test func aSymlinkedDeviceFileIsSkippedAndNotMerged() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, item) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        try desk.synced("sam")
        let samID = try desk.deviceID("sam")
        try desk.ok("sam", ["edit", item, "--title", "Title behind a link"])
        let target = desk.outside + "/sam.trip.json.gz"
        try desk.ok("sam", ["backup", "-o", target])
        // Sam's real file replaced by a link to a valid, newer file outside; and a second link.
        let samFile = desk.tripFolder(trip) + "/\(samID).trip.json.gz"
        try FileManager.default.removeItem(atPath: samFile)
        #expect(Raw.makeSymlink(Array(samFile.utf8), to: target))
        let otherName = "\(Identifier.random()).trip.json.gz"
        #expect(Raw.makeSymlink(Raw.path(desk.tripFolder(trip), otherName), to: target))
        let before = Raw.snapshot(desk.outside)

        let sync = try desk.synced("alex")

        #expect(sync.reason("\(samID).trip.json.gz")?.contains("symbolic link") == true, "\(sync.skipped)")
        #expect(sync.reason(otherName)?.contains("symbolic link") == true, "\(sync.skipped)")
        #expect(!sync.merged.contains { $0.hasSuffix(samID + ".trip.json.gz") || $0.hasSuffix(otherName) }, "\(sync.merged)")
        #expect(!(try desk.seen("alex", trip)).contains("Title behind a link"), "the link's target was merged")
        #expect(Raw.snapshot(desk.outside) == before)
        #expect(Raw.lstatInfo(samFile).map { ($0.st_mode & S_IFMT) == S_IFLNK } == true, "another device's entry is never replaced")
    }

    // Rule 3: an entry that blocks one trip fails only that trip.
    enum Blocker: String, CaseIterable, Sendable {
        case fileNamedLikeTheTripFolder, folderNamedLikeOurDeviceFile, readOnlyTripFolder

        /// What the blocked trip's error must say.
        var reason: String {
            switch self {
            case .fileNamedLikeTheTripFolder: "not a folder"
            case .folderNamedLikeOurDeviceFile: "is a folder where this device's file belongs"
            case .readOnlyTripFolder: "Read-only file system"
            }
        }
    }

    @Test(arguments: [Blocker.fileNamedLikeTheTripFolder, .folderNamedLikeOurDeviceFile])
    func anEntryThatBlocksOneTripFailsOnlyThatTrip(blocker: Blocker) throws {
        try blockedTrip(blocker)
    }

    @Test(.enabled(if: Mounts.permitted, "mount --bind is not permitted here: the read-only trip folder case is skipped"))
    func aReadOnlyTripFolderFailsOnlyThatTrip() throws {
        try blockedTrip(.readOnlyTripFolder)
    }

    private func blockedTrip(_ blocker: Blocker) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        let (blocked, blockedItem) = try desk.newTrip("alex", "Blocked trip")
        let (open, openItem) = try desk.newTrip("alex", "Open trip")
        try desk.synced("alex")
        try desk.synced("sam")
        let alexID = try desk.deviceID("alex")
        let samID = try desk.deviceID("sam")
        try desk.ok("sam", ["edit", openItem, "--title", "Sam's title in the open trip", "--trip", open])
        try desk.synced("sam")
        // Both trips have something to publish.
        try desk.ok("alex", ["edit", blockedItem, "--note", "Alex's unsent note", "--trip", blocked])
        try desk.ok("alex", ["edit", openItem, "--note", "Alex's note in the open trip", "--trip", open])
        let blockedPath = desk.tripFolder(blocked)
        let ownFile = blockedPath + "/\(alexID).trip.json.gz"
        switch blocker {
        case .fileNamedLikeTheTripFolder:
            try FileManager.default.removeItem(atPath: blockedPath)
            #expect(Raw.writeFile(Array(blockedPath.utf8), Array("someone's notes, not a folder".utf8)))
        case .folderNamedLikeOurDeviceFile:
            try FileManager.default.removeItem(atPath: ownFile)
            try FileManager.default.createDirectory(atPath: ownFile, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: ownFile + "/keep.txt", contents: Data("kept".utf8)))
        case .readOnlyTripFolder:
            #expect(Mounts.readOnly(blockedPath), "the read-only mount was refused")
        }
        var mounted = blocker == .readOnlyTripFolder
        defer { if mounted { Mounts.unmount(blockedPath) } }
        let before = Raw.snapshot(blockedPath)

        let sync = try desk.sync("alex")

        #expect(sync.status == 1, "a trip was not synced: \(sync.stderr)")
        #expect(sync.stderr.contains("trip \(blocked) not synced") || sync.stderr.contains("trip \"Blocked trip\" not synced"), "\(sync.stderr)")
        #expect(sync.stderr.contains("1 trip of 2 could not be synced"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("trip \(open) not synced") && !sync.stderr.contains("trip \"Open trip\" not synced"), "\(sync.stderr)")
        let failed = try #require(sync.trip(blocked), "\(sync.report)")
        #expect(failed["synced"] as? Bool == false)
        #expect((failed["error"] as? String)?.contains(blocker.reason) == true, "\(failed)")
        #expect(sync.report["failed"] as? [String] == [blocked])
        let good = try #require(sync.trip(open), "\(sync.report)")
        let published = desk.tripFolder(open) + "/\(alexID).trip.json.gz"
        #expect(good["synced"] as? Bool == true)
        #expect(good["error"] is NSNull)
        #expect(good["published"] as? String == published)
        #expect(good["wrote"] as? Bool == true)
        #expect((good["merged"] as? [String])?.contains(desk.tripFolder(open) + "/\(samID).trip.json.gz") == true, "\(good)")
        // The open trip is merged here and published there.
        #expect(try desk.seen("alex", open).contains("Sam's title in the open trip"))
        let values = itemValues(published)
        #expect(values.contains("Sam's title in the open trip") && values.contains("Alex's note in the open trip"), "\(values)")
        #expect(Raw.mode(published) == 0o644)
        // The blocking entry is left as it was; the blocked trip's edit is still in the home.
        #expect(Raw.snapshot(blockedPath) == before)
        #expect(try desk.seen("alex", blocked).contains("Alex's unsent note"))

        // Once the entry is moved away, the trip syncs.
        switch blocker {
        case .fileNamedLikeTheTripFolder: try FileManager.default.removeItem(atPath: blockedPath)
        case .folderNamedLikeOurDeviceFile: try FileManager.default.removeItem(atPath: ownFile)
        case .readOnlyTripFolder:
            Mounts.unmount(blockedPath)
            mounted = false
        }
        let again = try desk.synced("alex")
        #expect(again.trip(blocked)?["synced"] as? Bool == true)
        #expect(itemValues(ownFile).contains("Alex's unsent note"))
    }

    // Rule 4: a named pipe is never waited on.
    @Test(arguments: [[], ["--json"]])
    func validatingANamedPipeReturnsPromptly(options: [String]) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let pipe = desk.outside + "/pipe.trip.json.gz"
        #expect(Raw.makeFifo(Array(pipe.utf8)))
        let arguments = ["validate"] + options + [pipe]
        let result = try #require(try Shell.tripsync(arguments, timeout: 5), "tripsync \(arguments) hung on a named pipe")
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect((result.stdout + result.stderr).contains("named pipe"), "\(result.stdout) \(result.stderr)")
    }

    @Test func aNamedPipeInATripFolderIsSkippedAndSyncFinishes() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, _) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        let alexID = try desk.deviceID("alex")
        let folder = desk.tripFolder(trip)
        let other = "\(Identifier.random()).trip.json.gz"
        let ownCopy = "\(alexID).trip.json (conflicted copy).gz"
        let ownFile = "\(alexID).trip.json.gz"
        try FileManager.default.removeItem(atPath: folder + "/" + ownFile)
        for name in [other, ownCopy, ownFile] { #expect(Raw.makeFifo(Raw.path(folder, name))) }
        try desk.ok("alex", ["edit", try desk.ok("alex", ["add", "Museum", "--day", "2027-06-09"]), "--note", "after the pipes"])

        let result = try #require(
            try Shell.tripsync(["--home", desk.home("alex"), "sync", desk.shared, "--json"], timeout: 10), "sync hung on a named pipe")

        #expect(result.status == 0, "\(result.stderr)")
        let sync = SyncRun(result: result, report: (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:])
        #expect(sync.reason(other)?.contains("not a regular file") == true, "\(sync.skipped)")
        #expect(sync.reason(ownCopy)?.contains("not a regular file") == true, "\(sync.skipped)")
        #expect(Raw.lstatInfo(folder + "/" + other).map { ($0.st_mode & S_IFMT) == S_IFIFO } == true, "another device's entry is left")
        #expect(Raw.isRegularFile(folder + "/" + ownFile) && Raw.mode(folder + "/" + ownFile) == 0o644, "our file replaced the pipe")
        #expect(itemValues(folder + "/" + ownFile).contains("after the pipes"))
    }

    // Rule 5: our published file is a regular file at exactly 0644.
    enum OwnPathBefore: String, CaseIterable, Sendable {
        case symlinkToOutsideFile0777, hardLinkToOutsideFile0777, regularFileSetuid04755, ourPublishedFileChmoddedSetuid04755
    }

    @Test(arguments: OwnPathBefore.allCases)
    func ourPublishedFileIsRegularAt0644WhateverWasThere(before: OwnPathBefore) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, _) = try desk.newTrip("alex", "Lisbon")
        let alexID = try desk.deviceID("alex")
        let folder = desk.tripFolder(trip)
        let own = folder + "/\(alexID).trip.json.gz"
        let target = desk.outside + "/outside file"
        #expect(Raw.writeFile(Array(target.utf8), Array("outside: never to be written".utf8), mode: 0o777))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        switch before {
        case .symlinkToOutsideFile0777: #expect(Raw.makeSymlink(Array(own.utf8), to: target))
        case .hardLinkToOutsideFile0777: #expect(Raw.makeHardLink(Array(own.utf8), to: target))
        case .regularFileSetuid04755: #expect(Raw.writeFile(Array(own.utf8), Array("#!/bin/sh\necho owned\n".utf8), mode: 0o4755))
        case .ourPublishedFileChmoddedSetuid04755:
            // The path already holds exactly the bytes this sync publishes, at a setuid mode.
            try desk.synced("alex")
            #expect(chmod(own, 0o4755) == 0)
        }
        #expect(Raw.lstatInfo(own) != nil)
        let outsideBefore = Raw.snapshot(desk.outside)

        try desk.synced("alex")

        #expect(Raw.isRegularFile(own), "a regular file, not a link")
        #expect(Raw.mode(own) == 0o644, "mode \(Raw.mode(own).map { String($0, radix: 8) } ?? "none"), expected 644")
        #expect(Raw.lstatInfo(own)?.st_nlink == 1, "not linked to anything else")
        #expect(Raw.snapshot(desk.outside) == outsideBefore, "the outside file is unchanged (bytes and mode)")
        #expect(try desk.ok("alex", ["fingerprint", own]) == desk.fingerprint("alex", trip), "our file holds the trip")
    }

    // Rule 6: names are bytes; copies are merged by their exact patterns, temporary files never.
    enum CopiedName: String, CaseIterable, Sendable {
        case conflictedCopyWithNonUTF8Byte, seafileConflict, dropboxConflictedCopy
        /// A French client's copy, its name in Latin-1 (é is the single byte 0xE9, not UTF-8).
        case latin1ConflictedCopy
        /// Synology Drive's copy: the host name holds ".tmp." and the suffix is ".trip.json.gz".
        case synologyDriveConflict
        case syncthingTemporary, partialDownload, syncthingTildeTemporary, chromeDownload

        func bytes(sam: String) -> [UInt8] {
            switch self {
            case .conflictedCopyWithNonUTF8Byte: Array("\(sam).trip.json (conflicted copy ".utf8) + [0xFF] + Array(").gz".utf8)
            case .seafileConflict: Array("\(sam).trip.json (SFConflict sam@x.tmp.org 2026-11-29-10-10-10).gz".utf8)
            case .dropboxConflictedCopy: Array("\(sam) (Sam's conflicted copy 2026-11-29).trip.json.gz".utf8)
            case .latin1ConflictedCopy: Array("\(sam) (copie en conflit ".utf8) + [0xE9] + Array("t".utf8) + [0xE9] + Array(").trip.json.gz".utf8)
            case .synologyDriveConflict: Array("\(sam) (SFConflict user@host.tmp.org 2026-11-29-10-10-10).trip.json.gz".utf8)
            case .syncthingTemporary: Array(".syncthing.x.trip.json.gz.tmp".utf8)
            case .partialDownload: Array("x.trip.json.gz.part".utf8)
            case .syncthingTildeTemporary: Array("~syncthing~x.trip.json.gz.tmp".utf8)
            case .chromeDownload: Array("x.trip.json.gz.crdownload".utf8)
            }
        }

        var merged: Bool {
            [.conflictedCopyWithNonUTF8Byte, .seafileConflict, .dropboxConflictedCopy, .latin1ConflictedCopy, .synologyDriveConflict].contains(self)
        }
    }

    @Test(arguments: CopiedName.allCases)
    func namesAreBytesAndTemporaryFilesStaySkipped(name: CopiedName) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, item) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        try desk.synced("sam")
        let samID = try desk.deviceID("sam")
        // Sam's edit reaches the folder only under the tested name.
        let edit = "Seen only via \(name.rawValue)"
        try desk.ok("sam", ["edit", item, "--title", edit])
        let backup = desk.root + "/sam-backup.trip.json.gz"
        try desk.ok("sam", ["backup", "-o", backup])
        let bytes = try #require(Raw.readFile(Array(backup.utf8)))
        let entry = Raw.path(desk.tripFolder(trip), name.bytes(sam: samID))
        #expect(Raw.writeFile(entry, bytes))
        let printed = PrintableText.escape(bytes: name.bytes(sam: samID))

        let sync = try desk.synced("alex")

        for output in [sync.result.stdout, sync.stderr] { #expect(!output.contains("\u{FFFD}"), "a name was printed as invalid UTF-8: \(output)") }
        let shown = try desk.seen("alex", trip)
        if name.merged {
            #expect(sync.merged.contains(desk.tripFolder(trip) + "/" + printed), "\(sync.merged) \(sync.skipped)")
            #expect(shown.contains(edit), "the copy's edit was merged")
            #expect(Raw.readFile(entry) == bytes, "another device's copy is never removed or changed")
        } else {
            #expect(sync.reason(printed)?.contains("temporary") == true, "\(sync.skipped)")
            #expect(!sync.merged.contains { $0.hasSuffix(printed) })
            #expect(!shown.contains(edit), "a temporary file was merged")
        }
        if name == .conflictedCopyWithNonUTF8Byte { #expect(printed.hasSuffix("(conflicted copy \\xff).gz")) }
    }

    @Test func anEscapeSequenceInANameIsPrintedEscaped() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, _) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        let name = "evil\u{1b}[31m.trip.json"
        #expect(Raw.writeFile(Raw.path(desk.tripFolder(trip), name), Array("{\"schemaVersion\": \u{1b}[2J".utf8)))
        let printed = "evil\\x1b[31m.trip.json"

        let json = try desk.synced("alex")
        #expect(json.reason(printed)?.isEmpty == false, "\(json.skipped)")
        #expect(json.skipped.allSatisfy { !hasEscapeByte($0.file) && !hasEscapeByte($0.reason) })
        let human = try desk.run("alex", ["sync", desk.shared])
        #expect(human.status == 0)
        #expect(human.stderr.contains(printed + ": skipped: "), "\(human.stderr)")
        for output in [json.result.stdout, json.stderr, human.stdout, human.stderr] {
            #expect(!hasEscapeByte(output), "a raw ESC byte was printed: \(output.debugDescription)")
        }
    }

    // Rule 7: a crash after publishing, or a state that cannot be saved, is not a copied home.
    @Test func aRestoredSyncStateIsNotTakenForACopiedHome() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, item) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        try desk.synced("sam")
        try desk.synced("alex")
        let id = try desk.deviceID("alex")
        let state = desk.home("alex") + "/sync-state.json"
        let saved = try #require(FileManager.default.contents(atPath: state))
        try desk.ok("alex", ["edit", item, "--title", "Edited before the crash"])
        try desk.synced("alex")
        // The crash: the published file is newer than the state the home remembers.
        try saved.write(to: URL(fileURLWithPath: state))

        let sync = try desk.synced("alex")

        #expect(try desk.deviceID("alex") == id, "the device id changed")
        #expect(sync.report["rekeyed"] is NSNull, "\(sync.report["rekeyed"] ?? "")")
        #expect(!sync.stderr.contains("new device") && !sync.stderr.contains("copied"), "\(sync.stderr)")
        try desk.synced("sam")
        #expect(try desk.fingerprint("alex", trip) == desk.fingerprint("sam", trip))
        #expect(try desk.seen("sam", trip).contains("Edited before the crash"))
        let files = try FileManager.default.contentsOfDirectory(atPath: desk.tripFolder(trip)).sorted()
        #expect(files == [id, try desk.deviceID("sam")].sorted().map { $0 + ".trip.json.gz" }, "one file per device: \(files)")
    }

    @Test func aSyncStateThatCannotBeWrittenOnlyWarns() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        let (trip, item) = try desk.newTrip("alex", "Lisbon")
        let state = desk.home("alex") + "/sync-state.json"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        let id = try desk.deviceID("alex")
        var stderr = ""
        for round in 0..<3 {
            try desk.ok("alex", ["edit", item, "--note", "Round \(round)"])
            let sync = try desk.synced("alex")
            #expect(sync.stderr.contains("cannot save the sync state"), "round \(round): \(sync.stderr)")
            #expect(sync.report["rekeyed"] is NSNull)
            #expect(sync.trip(trip)?["synced"] as? Bool == true)
            try desk.synced("sam")
            stderr += sync.stderr
        }
        #expect(try desk.deviceID("alex") == id, "the home re-keyed")
        #expect(!stderr.contains("new device"), "\(stderr)")
        #expect(try desk.fingerprint("alex", trip) == desk.fingerprint("sam", trip))
        #expect(try desk.seen("sam", trip).contains("Round 2"))
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state, isDirectory: &isFolder) && isFolder.boolValue, "the folder is left as it was")
    }

    // Rule 8: a copied or restored home takes a new device id before its first write.
    @Test func aCopiedHomeTakesANewIdBeforeItsFirstWrite() throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        let (trip, lunch) = try desk.newTrip("alex", "Lisbon")
        let museum = try desk.ok("alex", ["add", "Museum", "--day", "2027-06-09"])
        try desk.synced("alex")
        let id = try desk.deviceID("alex")
        #expect(Shell.run(["cp", "-a", desk.home("alex"), desk.home("copy")]) == 0)

        try desk.ok("copy", ["edit", museum, "--note", "Typed in the copy"])

        let copyID = try desk.deviceID("copy")
        #expect(copyID != id, "the copy wrote under the original's device id")
        #expect(try desk.deviceID("alex") == id, "the original keeps its id")
        // The copy's first write is already under its new id.
        let note = try TripFileReader().read(path: desk.replica("copy", trip)).document.items[#require(Identifier(museum))]?.note
        #expect(note?.rev.device.description == copyID, "\(String(describing: note))")
        try desk.ok("copy", ["edit", lunch, "--place", "Copy's place"])
        try desk.ok("alex", ["edit", lunch, "--title", "Alex's title after the copy"])
        for _ in 0..<3 {
            try desk.synced("alex")
            try desk.synced("copy")
        }
        #expect(try desk.fingerprint("alex", trip) == desk.fingerprint("copy", trip))
        for who in ["alex", "copy"] {
            let shown = try desk.run(who, ["show", "--json"]).stdout
            for value in ["Typed in the copy", "Copy's place", "Alex's title after the copy"] { #expect(shown.contains(value), "\(who) lost \(value)") }
        }
        #expect(try desk.deviceID("alex") == id && desk.deviceID("copy") == copyID, "no further re-key")
    }

    enum Restore: String, CaseIterable, Sendable {
        /// `rm -rf HOME; cp -a SNAPSHOT HOME`: the new folder may get the freed inode back.
        case deletedThenCopiedBack
        /// The old home moved aside first: the restored folder cannot have its inode.
        case movedAsideThenCopiedBack
    }

    @Test(.serialized, arguments: Restore.allCases)
    func aHomeRestoredInPlaceTakesANewIdAndLosesNothing(restore: Restore) throws {
        // Deleted and copied back, the home often gets its old inode again; its birth time
        // differs, and the folder's evidence (writes of ours this home never made) is the net.
        try restoredInPlace(restore)
    }

    func restoredInPlace(_ restore: Restore) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        let (trip, lunch) = try desk.newTrip("alex", "Lisbon")
        try desk.synced("alex")
        try desk.synced("sam")
        let id = try desk.deviceID("alex")
        let snapshot = desk.root + "/alex-snapshot"
        #expect(Shell.run(["cp", "-a", desk.home("alex"), snapshot]) == 0)
        try desk.ok("alex", ["edit", lunch, "--title", "Typed after the snapshot"])
        try desk.synced("alex")
        try desk.synced("sam")
        #expect(try desk.seen("sam", trip).contains("Typed after the snapshot"))
        let inodeBefore = Raw.lstatInfo(desk.home("alex"))?.st_ino
        switch restore {
        case .deletedThenCopiedBack:
            // On ext4 the restored folder usually gets the freed inode back (the same path, file
            // system, inode and machine as recorded). That is the case tried here: repeated a
            // few times until it happens, when the file system does it at all.
            let script = #"for i in $(seq 200); do rm -rf "$1" && cp -a "$2" "$1" || exit 2; [ "$(stat -c %i "$1")" = "$3" ] && exit 0; done; exit 1"#
            let status = Shell.run(["sh", "-c", script, "restore", desk.home("alex"), snapshot, inodeBefore.map(String.init) ?? ""])
            #expect(status != 2, "the restore failed")
        case .movedAsideThenCopiedBack:
            #expect(Shell.run(["mv", desk.home("alex"), desk.root + "/alex-trash"]) == 0)
            #expect(Shell.run(["cp", "-a", snapshot, desk.home("alex")]) == 0)
        }
        let inodeAfter = Raw.lstatInfo(desk.home("alex"))?.st_ino

        // The restored home's first write: the same field, another value.
        try desk.ok("alex", ["edit", lunch, "--title", "Typed in the restored home"])

        #expect(
            try desk.deviceID("alex") != id,
            "the restored home wrote under its old device id (home folder inode \(inodeBefore.map(String.init) ?? "?") before, \(inodeAfter.map(String.init) ?? "?") after the restore)")
        for _ in 0..<3 {
            try desk.synced("alex")
            try desk.synced("sam")
        }
        #expect(try desk.fingerprint("alex", trip) == desk.fingerprint("sam", trip))
        for who in ["sam", "alex"] {
            let seen = try desk.seen(who, trip)
            #expect(seen.contains("Typed after the snapshot"), "\(who) lost the edit made after the snapshot")
            #expect(seen.contains("Typed in the restored home"), "\(who) lost the restored home's edit")
        }
    }

    // Rule 9: the old permanent split, two homes under one device id, heals without loss.
    enum SplitOrder: String, CaseIterable, Sendable { case originalEditsFirst, copyEditsFirst }

    @Test(arguments: SplitOrder.allCases)
    func twoHomesUnderOneDeviceIdConvergeWithoutLoss(order: SplitOrder) throws {
        // Two homes under one id from before bindings existed: each finds the other's writes
        // under its id, re-keys, and keeps every value typed after the split.
        try oneIdSplit(order)
    }

    func oneIdSplit(_ order: SplitOrder) throws {
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        let (trip, lunch) = try desk.newTrip("alex", "Lisbon")
        let museum = try desk.ok("alex", ["add", "Museum", "--day", "2027-06-09", "--trip", trip])
        try desk.synced("alex")
        try desk.synced("sam")
        // A copy made before bindings existed: neither device.json has "boundTo", one id in both.
        #expect(Shell.run(["cp", "-a", desk.home("alex"), desk.home("copy")]) == 0)
        let id = try desk.deviceID("alex")
        for who in ["alex", "copy"] {
            let path = desk.home(who) + "/device.json"
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            json["boundTo"] = nil
            json["deviceId"] = id
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        }
        func originalEdits() throws {
            try desk.ok("alex", ["edit", lunch, "--title", "Original's title"])
            try desk.ok("alex", ["edit", museum, "--note", "Original's note"])
        }
        func copyEdits() throws {
            try desk.ok("copy", ["edit", lunch, "--title", "Copy's title"])
            try desk.ok("copy", ["edit", lunch, "--place", "Copy's place"])
        }
        switch order {
        case .originalEditsFirst:
            try originalEdits()
            usleep(5_000)
            try copyEdits()
        case .copyEditsFirst:
            try copyEdits()
            usleep(5_000)
            try originalEdits()
        }
        #expect(try desk.deviceID("alex") == id && desk.deviceID("copy") == id, "the split: two homes, one id")
        // Both publish `<id>.trip.json.gz` before either sees the other's; the cloud keeps the
        // original's under the name and the copy's as a conflicted copy.
        let cloudOfTheCopy = desk.root + "/shared-as-the-copy-saw-it"
        #expect(Shell.run(["cp", "-a", desk.shared, cloudOfTheCopy]) == 0)
        try desk.synced("alex")
        try desk.synced("copy", folder: cloudOfTheCopy)
        try FileManager.default.copyItem(
            atPath: cloudOfTheCopy + "/\(trip)/\(id).trip.json.gz", toPath: desk.tripFolder(trip) + "/\(id).trip.json (conflicted copy).gz")
        let typed = ["Original's title", "Original's note", "Copy's title", "Copy's place"]

        var stderr = ""
        for _ in 0..<4 {
            for who in ["alex", "copy", "sam"] { stderr += try desk.synced(who).stderr }
        }

        #expect(
            stderr.contains("now writes as a new device") || stderr.contains("wrote two different values under one rev"),
            "no sync reported the fork or a re-key: \(stderr)")
        let prints = try ["alex", "copy", "sam"].map { try desk.fingerprint($0, trip) }
        #expect(Set(prints).count == 1, "converged: \(prints)")
        for who in ["alex", "copy", "sam"] {
            let seen = try desk.seen(who, trip)
            for value in typed { #expect(seen.contains(value), "\(who) lost \"\(value)\" typed after the split") }
        }

        // A value retyped in one home afterwards.
        try desk.ok("copy", ["edit", lunch, "--title", "Retyped title"])
        for _ in 0..<3 {
            for who in ["alex", "copy", "sam"] { try desk.synced(who) }
        }
        let after = try ["alex", "copy", "sam"].map { try desk.fingerprint($0, trip) }
        #expect(Set(after).count == 1, "converged after the retype: \(after)")
        for who in ["alex", "copy", "sam"] {
            let shown = try desk.run(who, ["show", "--json", "--trip", trip]).stdout
            for value in ["Retyped title", "Original's note", "Copy's place"] {
                #expect(shown.contains(value), "\(who) lost \"\(value)\" after the retype")
            }
        }
    }
}

// MARK: - Seeded property: hostile layouts

private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SyncEdgeTests {
    /// How a trip this home holds is blocked.
    private enum TripBlock: CaseIterable { case symlinkToOutside, regularFile, folderAtOurFile }

    /// For each seed: good trip folders full of hostile entries, blocked trips, and entries at the
    /// top for trips this home lacks. Every good trip is published and merged, every blocked one
    /// is reported with a reason, nothing outside the shared folder changes, and a second sync
    /// changes nothing.
    @Test(arguments: Array(UInt64(1)...12))
    func hostileLayoutsNeverStopAGoodTripNorTouchAnythingOutside(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        let desk = Desk()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex's laptop"])
        try desk.ok("sam", ["init", "--device-name", "Sam's laptop"])
        let alexID = try desk.deviceID("alex")
        let samID = try desk.deviceID("sam")
        let goodCount = Int.random(in: 1...3, using: &random)
        let blockedCount = Int.random(in: 0...2, using: &random)
        var trips: [(id: String, item: String, name: String, index: Int)] = []
        for index in 0..<(goodCount + blockedCount) {
            let name = "Trip \(index)"
            let (id, item) = try desk.newTrip("alex", name)
            trips.append((id, item, name, index))
        }
        let good = Array(trips.prefix(goodCount))
        let blocked = Array(trips.dropFirst(goodCount))
        try desk.synced("alex")
        try desk.synced("sam")
        for (index, trip) in good.enumerated() { try desk.ok("sam", ["edit", trip.item, "--title", "Sam \(seed)-\(index)", "--trip", trip.id]) }
        try desk.synced("sam")
        // Valid files that exist only outside the shared folder: nothing of them may be merged.
        var poison: [String: String] = [:]
        for (index, trip) in trips.enumerated() {
            try desk.ok("sam", ["edit", trip.item, "--place", "Poison \(seed)-\(index)", "--trip", trip.id])
            poison[trip.id] = desk.outside + "/poison-\(index).trip.json.gz"
            try desk.ok("sam", ["backup", "-o", poison[trip.id]!, "--trip", trip.id])
        }
        let foreign = try desk.newTrip("sam", "Foreign trip", item: "Poison foreign").trip
        let foreignFolder = desk.outside + "/foreign trip folder"
        try FileManager.default.createDirectory(atPath: foreignFolder, withIntermediateDirectories: true)
        try desk.ok("sam", ["backup", "-o", foreignFolder + "/\(samID).trip.json.gz", "--trip", foreign])
        let junk0777 = desk.outside + "/junk-0777"
        let junkSetuid = desk.outside + "/junk-setuid"
        #expect(Raw.writeFile(Array(junk0777.utf8), Array("junk".utf8), mode: 0o777))
        #expect(Raw.writeFile(Array(junkSetuid.utf8), Array("#!/bin/sh\n".utf8), mode: 0o4755))
        for (index, trip) in trips.enumerated() { try desk.ok("alex", ["edit", trip.item, "--note", "Alex \(seed)-\(index)", "--trip", trip.id]) }

        // Hostile entries inside the good trip folders.
        var layout: [String] = []
        for trip in good {
            let folder = desk.tripFolder(trip.id)
            let own = Raw.path(folder, "\(alexID).trip.json.gz")
            func maybe(_ what: String, _ make: () -> Bool) {
                guard Bool.random(using: &random) else { return }
                layout.append("\(trip.name): \(what)")
                #expect(make(), "could not make \(what)")
            }
            maybe("fifo") { Raw.makeFifo(Raw.path(folder, "pipe.trip.json.gz")) }
            maybe("link to a valid file outside") { Raw.makeSymlink(Raw.path(folder, "\(Identifier.random()).trip.json.gz"), to: poison[trip.id]!) }
            maybe("our conflicted copy, a link outside") {
                Raw.makeSymlink(Raw.path(folder, "\(alexID).trip.json (conflicted copy).gz"), to: poison[trip.id]!)
            }
            maybe("invalid file with a non-UTF-8 name") { Raw.writeFile(Raw.path(folder, Array("bad".utf8) + [0xFF, 0x1B] + Array(".trip.json".utf8)), Array("junk".utf8)) }
            maybe("Sam's file copied under a non-UTF-8 name") {
                guard let bytes = Raw.readFile(Raw.path(folder, "\(samID).trip.json.gz")) else { return false }
                return Raw.writeFile(Raw.path(folder, Array("\(samID).trip.json (conflicted copy ".utf8) + [0xFE] + Array(").gz".utf8)), bytes)
            }
            maybe("folder named like a device file") { Raw.makeFolder(Raw.path(folder, "\(Identifier.random()).trip.json.gz")) }
            maybe("link to a folder outside") { Raw.makeSymlink(Raw.path(folder, "linked.trip.json.gz"), to: foreignFolder) }
            switch Int.random(in: 0..<3, using: &random) {
            case 1:
                layout.append("\(trip.name): our file is a link outside")
                _ = Raw.withC(own) { unlink($0) }
                #expect(Raw.makeSymlink(own, to: junk0777))
            case 2:
                layout.append("\(trip.name): our file is a hard link to a file outside")
                _ = Raw.withC(own) { unlink($0) }
                #expect(Raw.makeHardLink(own, to: junkSetuid))
            default: break
            }
        }
        // Blocked trips of this home.
        var blockReason: [String: String] = [:]
        for (index, trip) in blocked.enumerated() {
            let folder = desk.tripFolder(trip.id)
            let block = TripBlock.allCases.randomElement(using: &random)!
            layout.append("\(trip.name): blocked by \(block)")
            switch block {
            case .symlinkToOutside:
                // The real folder moved outside with one of our own conflicted copies in it
                // (which a sync following the link would merge, then delete).
                let moved = desk.outside + "/moved-\(index)"
                try FileManager.default.moveItem(atPath: folder, toPath: moved)
                try FileManager.default.copyItem(atPath: poison[trip.id]!, toPath: moved + "/\(alexID).trip.json (conflicted copy).gz")
                #expect(Raw.makeSymlink(Array(folder.utf8), to: moved))
                blockReason[trip.id] = "symbolic link, not followed"
            case .regularFile:
                try FileManager.default.removeItem(atPath: folder)
                #expect(Raw.writeFile(Array(folder.utf8), Array("a file".utf8)))
                blockReason[trip.id] = "not a folder"
            case .folderAtOurFile:
                try FileManager.default.removeItem(atPath: folder + "/\(alexID).trip.json.gz")
                try FileManager.default.createDirectory(atPath: folder + "/\(alexID).trip.json.gz", withIntermediateDirectories: false)
                blockReason[trip.id] = "is a folder"
            }
        }
        // Entries at the top for trips this home lacks, and names that are no trip at all.
        var foreignEntries: [String] = []
        func top(_ what: String, _ name: String, reported: Bool, _ make: () -> Bool) {
            guard Bool.random(using: &random) else { return }
            layout.append("top: \(what)")
            if reported { foreignEntries.append(name) }
            #expect(make(), "could not make \(what)")
        }
        top("link to a trip folder outside", foreign, reported: true) { Raw.makeSymlink(Raw.path(desk.shared, foreign), to: foreignFolder) }
        let fileName = Identifier.random().description
        top("file named like a trip folder", fileName, reported: true) { Raw.writeFile(Raw.path(desk.shared, fileName), Array("x".utf8)) }
        let pipeName = Identifier.random().description
        top("fifo named like a trip folder", pipeName, reported: true) { Raw.makeFifo(Raw.path(desk.shared, pipeName)) }
        let danglingName = Identifier.random().description
        top("dangling link named like a trip folder", danglingName, reported: true) {
            Raw.makeSymlink(Raw.path(desk.shared, danglingName), to: desk.outside + "/does-not-exist")
        }
        top("folder with a non-UTF-8 name", "", reported: false) { Raw.makeFolder(Raw.path(desk.shared, [0xFF] + Array("not-a-trip".utf8))) }
        top("link to a folder outside, not a trip id", "", reported: false) { Raw.makeSymlink(Raw.path(desk.shared, "photos"), to: desk.outside) }

        let layoutText = "seed \(seed): \(good.count) good, \(blocked.count) blocked; " + layout.joined(separator: "; ")
        func context(_ text: String = "") -> Comment { Comment(rawValue: text + " [" + layoutText + "]") }
        let outsideBefore = Raw.snapshot(desk.outside)
        var samFiles: [String: [UInt8]] = [:]
        for trip in good { samFiles[trip.id] = Raw.readFile(Raw.path(desk.tripFolder(trip.id), "\(samID).trip.json.gz")) }

        let first = try desk.sync("alex")

        #expect(first.status == (blocked.isEmpty ? 0 : 1), context("\(first.stderr)"))
        #expect(Raw.snapshot(desk.outside) == outsideBefore, context("something outside the shared folder changed"))
        for (index, trip) in good.enumerated() {
            let report = first.trip(trip.id)
            let own = desk.tripFolder(trip.id) + "/\(alexID).trip.json.gz"
            #expect(report?["synced"] as? Bool == true, context("\(trip.name): \(String(describing: report))"))
            #expect(report?["published"] as? String == own, context())
            #expect(report?["wrote"] as? Bool == true, context())
            #expect((report?["merged"] as? [String])?.contains(desk.tripFolder(trip.id) + "/\(samID).trip.json.gz") == true, context("\(trip.name) did not merge Sam's file"))
            #expect(Raw.isRegularFile(own) && Raw.mode(own) == 0o644 && Raw.lstatInfo(own)?.st_nlink == 1, context("\(trip.name): our file"))
            let values = itemValues(own)
            #expect(values.contains("Sam \(seed)-\(index)") && values.contains("Alex \(seed)-\(index)"), context("\(trip.name): published \(values)"))
            #expect(!values.contains { $0.hasPrefix("Poison") }, context("\(trip.name): something outside was merged"))
            #expect(Raw.readFile(Raw.path(desk.tripFolder(trip.id), "\(samID).trip.json.gz")) == samFiles[trip.id], context("Sam's file changed"))
        }
        for trip in blocked {
            let report = first.trip(trip.id)
            #expect(report?["synced"] as? Bool == false, context("\(trip.name): \(String(describing: report))"))
            #expect((report?["error"] as? String)?.contains(blockReason[trip.id]!) == true, context("\(trip.name): \(String(describing: report?["error"]))"))
            #expect(first.stderr.contains("trip \(trip.id) not synced") || first.stderr.contains("trip \"\(trip.name)\" not synced"), context("\(first.stderr)"))
            #expect(itemValues(desk.replica("alex", trip.id)).contains("Alex \(seed)-\(trip.index)"), context("the blocked trip kept its edit"))
        }
        for name in foreignEntries {
            #expect(first.reason(name)?.isEmpty == false, context("\(name) not reported: \(first.skipped)"))
        }
        let held = try FileManager.default.contentsOfDirectory(atPath: desk.home("alex") + "/trips").filter { $0.hasSuffix(".trip.json.gz") }
        #expect(Set(held) == Set(trips.map { $0.id + ".trip.json.gz" }), context("no trip joined through a hostile entry: \(held)"))
        let shownAll = try trips.map { try desk.seen("alex", $0.id) }.joined()
        #expect(!first.result.stdout.contains("Poison") && !shownAll.contains("Poison"), context("something outside was merged"))
        for output in [first.result.stdout, first.stderr] { #expect(!hasEscapeByte(output) && !output.contains("\u{FFFD}"), context()) }

        // A second sync changes nothing.
        let prints = try trips.map { try desk.fingerprint("alex", $0.id) }
        let second = try desk.sync("alex")
        #expect(second.status == first.status, context("\(second.stderr)"))
        #expect(try trips.map { try desk.fingerprint("alex", $0.id) } == prints, context("not idempotent"))
        #expect(second.trips.allSatisfy { $0["wrote"] as? Bool != true }, context("the second sync wrote: \(second.trips)"))
        #expect(Set(second.trips.filter { $0["synced"] as? Bool == false }.compactMap { $0["tripId"] as? String }) == Set(blocked.map(\.id)), context())
        #expect(Raw.snapshot(desk.outside) == outsideBefore, context())
    }
}
