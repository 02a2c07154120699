import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Sync's policy as library API an app calls: the last folder, and the loop that syncs on
/// change with backoff, started and stopped.
@Suite struct SyncLoopTests {
    func homeAndFolder() throws -> (Home, shared: String, cleanUp: () -> Void) {
        let (homes, shared, cleanUp) = try temporaryLaptops("loop", count: 1)
        return (homes[0], shared, cleanUp)
    }

    @Test func aSyncWithoutAFolderUsesTheLastOneAndASyncRecordsIt() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        let tripID = try TripStore.create(name: "Lisbon", owned: false, in: home).tripID
        // Nothing recorded yet: a typed error, no folder guessed.
        #expect {
            try FolderSync.lastFolder(of: home)
        } throws: { error in
            guard case FolderSync.LastFolderError.none = error else { return false }
            return true
        }
        // A sync records its folder for every trip it synced, with no step of the caller's.
        let report = try FolderSync(home: home, folder: shared + "/./").run()
        #expect(report.lastFolderProblems.isEmpty)
        #expect(try home.lastFolder(for: tripID) == shared)
        let again = try FolderSync(lastFolderOf: home)
        #expect(again.folder == shared)
        #expect(try again.run().failed.isEmpty)
    }

    @Test func tripsThatLastSyncedWithDifferentFoldersAreAmbiguous() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        let other = shared + "-other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: other) }
        do { _ = try TripStore.create(name: "Lisbon", owned: false, in: home).sync(with: shared) }
        do { _ = try TripStore.create(name: "Porto", owned: false, in: home).sync(with: other) }
        #expect {
            try FolderSync.lastFolder(of: home)
        } throws: { error in
            guard case FolderSync.LastFolderError.ambiguous(let folders) = error else { return false }
            return folders.map(\.folder) == [shared, other].sorted() && folders.allSatisfy { $0.trips.count == 1 }
        }
    }

    @Test func theBackoffDoublesUpToAMinute() {
        #expect((1...8).map(SyncLoop.backoff(afterFailures:)) == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(SyncLoop.backoff(afterFailures: 1000) == SyncLoop.maxBackoff)
    }

    /// Started on a thread of its own, the loop syncs at once, syncs again when another
    /// device's file lands, and `stop()` ends it cleanly (it returns once the loop has ended).
    @Test func theLoopSyncsOnChangeAndStops() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        let tripID = try TripStore.create(name: "Lisbon", owned: false, in: home).tripID
        let events = EventLog()
        let loop = SyncLoop(FolderSync(home: home, folder: shared), polling: true)
        loop.pollInterval = 0.2
        loop.onEvent = { events.append($0) }
        loop.start()
        #expect(events.eventually { $0.syncedCount >= 1 }, "the first round runs at once")
        // Another home joins the trip through the folder and adds an item: the loop merges it.
        let (other, cleanOther) = temporaryHome("loop")
        defer { cleanOther() }
        _ = try FolderSync(home: other, folder: shared).run()
        do {
            let store = try TripStore.open(tripID.description, in: other)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Tram 28", sortKey: ""), at: .last) }
            _ = try store.sync(with: shared)
        }
        // Joining published the other home's file, and its edit rewrote it: the loop merges both.
        func titles() -> [String] {
            do {
                return try TripFileReader().read(path: home.replicaPath(for: tripID)).document.items.values.compactMap { $0.title?.value }
            } catch {
                return []
            }
        }
        #expect(events.eventually(30) { _ in titles().contains("Tram 28") }, "a change in the folder starts a round")
        #expect(events.eventually { log in log.reports.contains { !$0.merged.isEmpty } })
        loop.stop()
        let count = events.count
        Thread.sleep(forTimeInterval: 0.5)
        #expect(events.count == count, "nothing runs after stop()")
    }

    /// A round that cannot run is reported with the wait before the next try, growing with
    /// each failure; the loop goes on until stopped, and says when syncing works again.
    /// With `roundEvery`, rounds run without any change once that long has passed (the browser
    /// app's open page syncs at least every 30 s); without it, nothing changed means no round.
    @Test func roundEveryRunsARoundWithoutAChange() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        _ = try TripStore.create(name: "Lisbon", owned: false, in: home)
        let every = EventLog()
        let loop = SyncLoop(FolderSync(home: home, folder: shared), polling: true)
        loop.pollInterval = 0.2
        loop.roundEvery = 0.5
        loop.onEvent = { every.append($0) }
        loop.start()
        #expect(every.eventually(10) { $0.syncedCount >= 3 }, "rounds every 0.5 s without a change")
        loop.stop()
        let quiet = EventLog()
        let still = SyncLoop(FolderSync(home: home, folder: shared), polling: true)
        still.pollInterval = 0.2
        still.onEvent = { quiet.append($0) }
        still.start()
        #expect(quiet.eventually { $0.syncedCount >= 1 })
        Thread.sleep(forTimeInterval: 1.5)
        still.stop()
        #expect(quiet.syncedCount == 1, "no change, no round: \(quiet.syncedCount)")
    }

    @Test func failingRoundsAreRetriedWithBackoffAndRecover() throws {
        let (home, shared, cleanUp) = try homeAndFolder()
        defer { cleanUp() }
        _ = try TripStore.create(name: "Lisbon", owned: false, in: home)
        let missing = shared + "/not-yet"
        let events = EventLog()
        let loop = SyncLoop(FolderSync(home: home, folder: missing), polling: true)
        loop.pollInterval = 0.2
        loop.onEvent = { events.append($0) }
        loop.start()
        #expect(events.eventually(10) { $0.failures.count >= 2 })
        let failures = events.failures
        #expect(failures.prefix(2).map(\.retryIn) == [1, 2])
        #expect(failures.prefix(2).map(\.failures) == [1, 2])
        if case .couldNotRun(let text, let kind, _)? = failures.first?.failure {
            #expect(text.contains(missing))
            #expect(kind == .fileSystem)
        } else {
            Issue.record("expected a round that could not run: \(failures)")
        }
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: true)
        #expect(events.eventually(10) { $0.recovered.first != nil })
        #expect((events.recovered.first ?? 0) >= 2)
        loop.stop()
    }
}

/// The events a loop told, from its thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncLoop.Event] = []

    func append(_ event: SyncLoop.Event) { lock.withLock { events.append(event) } }
    var count: Int { lock.withLock { events.count } }
    var syncedCount: Int { reports.count }
    var reports: [SyncReport] {
        lock.withLock { events.compactMap { if case .synced(let report) = $0 { return report } else { return nil } } }
    }
    var failures: [(failure: SyncLoop.Failure, failures: Int, retryIn: Double)] {
        lock.withLock {
            events.compactMap { if case .failed(let failure, let failures, let retryIn) = $0 { return (failure, failures, retryIn) } else { return nil } }
        }
    }
    var recovered: [Int] {
        lock.withLock { events.compactMap { if case .recovered(let failures) = $0 { return failures } else { return nil } } }
    }

    /// Waits up to `seconds` for `condition` to hold.
    func eventually(_ seconds: Double = 15, _ condition: (EventLog) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition(self)
    }
}
