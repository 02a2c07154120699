import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The home's folders as a person meets them after a crash or a wrong permission: crash
/// leftovers go, a sync that saved but could not publish says so, and an unreadable folder is
/// named with what is wrong and what to do (never a Foundation error code).
@Suite struct HomeFolderTests {
    /// A pid no process has: one that just ended.
    static func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    static func touch(_ path: String, secondsAgo: Int = 0) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data("half".utf8)))
        if secondsAgo > 0 {
            let when = Date().addingTimeInterval(-Double(secondsAgo))
            #expect((try? FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: path)) != nil)
        }
    }

    /// A kill between a temp file's creation and its rename leaves `.<name>.tmp-<pid>-…`; the next
    /// command that takes the home's lock removes this home's own such files, and only those.
    @Test func crashLeftoversOfThisHomeAreRemovedByTheNextCommand() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, item) = try laptops.lunchTripSynced()
        let home = laptops.home("alex")
        let dead = try Self.deadPID()
        let alive = getpid()  // this test process: it runs, so its temp looks in progress
        let leftovers = [
            home + "/trips/.\(trip).trip.json.gz.tmp-\(dead)-0-3225591253",
            home + "/trips/.\(trip).settings.json.tmp-\(dead)-1-42",
            home + "/.device.json.tmp-\(dead)-0-7",
            home + "/access/.\(trip).json.tmp-\(dead)-0-9",
            home + "/trips/.\(trip).trip.json.gz.tmp-\(alive)-0-11",  // old: its writer is not writing it any more
        ]
        let kept = [
            home + "/trips/.\(trip).trip.json.gz.tmp-\(alive)-0-12",  // fresh, of a running process
            home + "/trips/.notes.tmp-draft",  // not our form
            home + "/trips/notes.tmp-\(dead)-0-1",  // not hidden: not ours
        ]
        try FileManager.default.createDirectory(atPath: home + "/access", withIntermediateDirectories: true)
        for path in leftovers { Self.touch(path, secondsAgo: path.contains("-\(alive)-") ? 3600 : 0) }
        for path in kept { Self.touch(path) }

        try laptops.ok("alex", ["edit", item, "--title", "Lunch by the river"])

        for path in leftovers { #expect(!FileManager.default.fileExists(atPath: path), "left: \(path)") }
        for path in kept { #expect(FileManager.default.fileExists(atPath: path), "removed: \(path)") }
        #expect(try laptops.ok("alex", ["show"]).line.contains("Lunch by the river"))
    }

    /// A sync that merged and saved in the home, then could not publish, says what changed:
    /// merged and saved here, not published, why; exit 1.
    @Test func aSyncThatCannotPublishSaysWhatItSaved() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, item) = try laptops.lunchTripSynced()
        try laptops.ok("sam", ["edit", item, "--title", "Lunch at Sam's place"])
        try laptops.ok("sam", ["sync", laptops.shared])
        // Where alex's file belongs, a folder: alex can read sam's file but not publish.
        let own = laptops.shared + "/\(trip)/\(try laptops.deviceID("alex")).trip.json.gz"
        try FileManager.default.removeItem(atPath: own)
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: false)

        let sync = try laptops.run("alex", ["sync", laptops.shared])

        #expect(sync.status == 1)
        #expect(sync.stderr.contains("merged 1 file and saved in this home, but this laptop's file was not published"), "\(sync.stderr)")
        #expect(sync.stderr.contains(own), "\(sync.stderr)")
        #expect(!sync.stderr.contains("nothing was changed"), "\(sync.stderr)")
        #expect(try laptops.ok("alex", ["show"]).line.contains("Lunch at Sam's place"), "what was merged is kept")
    }

    /// Runs the binary as user `nobody` when this is root (root reads any folder), else as is.
    static func runUnprivileged(_ arguments: [String]) throws -> CLIResult? {
        guard getuid() == 0 else { return try CLI.run(arguments) }
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let (status, out, err) = try CLI.spawn(setpriv, ["--reuid", "65534", "--regid", "65534", "--clear-groups", CLI.binary] + arguments, cwd: "/")
        return CLIResult(status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    enum Unreadable: String, CaseIterable, Sendable {
        /// `HOME/trips` at mode 000.
        case tripsFolderUnreadable
        /// The home at mode 600: nothing inside can be reached.
        case homeNotSearchable
        /// A file where `HOME/trips` belongs.
        case tripsIsAFile
    }

    /// An unreadable folder of the home is named, with what is wrong and what to do; never a
    /// Foundation error code, never "this home holds no trip yet".
    @Test(arguments: Unreadable.allCases)
    func anUnreadableHomeFolderIsNamedWithWhatToDo(_ problem: Unreadable) throws {
        let laptops = Laptops()
        defer {
            _ = chmod(laptops.home("alex"), 0o700)
            _ = chmod(laptops.home("alex") + "/trips", 0o700)
            laptops.cleanUp()
        }
        _ = try laptops.lunchTripSynced()
        let home = laptops.home("alex")
        let trips = home + "/trips"
        if getuid() == 0 {
            for path in [laptops.root, home] { #expect(chmod(path, 0o755) == 0) }
            #expect(chown(home, 65534, 65534) == 0)
            for path in try FileManager.default.subpathsOfDirectory(atPath: home) { #expect(lchown(home + "/" + path, 65534, 65534) == 0) }
        }
        let expected: String
        switch problem {
        case .tripsFolderUnreadable:
            #expect(chmod(trips, 0o000) == 0)
            expected = "\(trips): permission denied"
        case .homeNotSearchable:
            #expect(chmod(home, 0o600) == 0)
            expected = "permission denied"
        case .tripsIsAFile:
            try FileManager.default.removeItem(atPath: trips)
            #expect(FileManager.default.createFile(atPath: trips, contents: Data("x".utf8)))
            if getuid() == 0 { #expect(chown(trips, 65534, 65534) == 0) }
            expected = "\(trips): is not a folder"
        }
        for command in [["trips"], ["show"], ["status"]] {
            guard let result = try Self.runUnprivileged(["--home", home] + command) else {
                Issue.record("runs as root and setpriv is missing: cannot check a permission")
                return
            }
            #expect(result.status == 1, "\(command): \(result.status) \(result.stdout) \(result.stderr)")
            #expect(result.stderr.lowercased().contains(expected.lowercased()), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("holds no trip yet"), "\(command): \(result.stderr)")
        }
    }
}

extension Laptops {
    /// Alex's open trip with one item, synced by alex then sam; the trip id and the item id.
    func lunchTripSynced() throws -> (trip: String, item: String) {
        try ok("alex", ["init", "--device-name", "Alex's laptop"])
        try ok("sam", ["init", "--device-name", "Sam's laptop"])
        let trip = try ok("alex", ["new", "Lisbon", "--zone", "Europe/Lisbon", "--open"]).line
        let item = try ok("alex", ["add", "Lunch", "--day", "2027-06-08"]).line
        try ok("alex", ["sync", shared])
        try ok("sam", ["sync", shared])
        return (trip, item)
    }
}
