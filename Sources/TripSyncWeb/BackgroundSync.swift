import Foundation
import TripSync
import TripSyncPlatform

/// The automatic sync while a page is open (docs/DESIGN.md, "The server"): while a page has
/// polled for changes in the last few seconds, the door's watch (`TripHome.watch`, the one
/// watch loop the CLI's `sync --watch` runs too) syncs the home's trips with the folder the door
/// picks (`TripHome.syncFolder`, the rule of `tripsync sync` without a folder) whenever that
/// folder or the home changes, and at least every 30 seconds; failing rounds are retried with
/// the loop's backoff. No page open, no loop; the last folder changed (a sync with another
/// folder), a loop for the new one.
final class BackgroundSync: @unchecked Sendable {
    /// Seconds after a page's last poll that it counts as open.
    static let openFor = 5.0
    /// The longest time between two rounds while a page is open (seconds).
    static let roundEvery = 30.0

    private let lock = NSLock()
    private var lastPoll = -Double.infinity
    private var stopped = false
    private var started = false
    private let ended = DispatchSemaphore(value: 0)
    /// What the last automatic round said, shown on the trip page.
    var lastProblem: String? { lock.withLock { problem } }
    private var problem: String?

    /// A page asked for the trip's version: it is open.
    func pageIsOpen() {
        lock.withLock { lastPoll = ProcessInfo.processInfo.systemUptime }
    }

    private var isActive: Bool {
        lock.withLock { !stopped && ProcessInfo.processInfo.systemUptime - lastPoll < BackgroundSync.openFor }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Starts watching for open pages, on a thread of its own; a second call does nothing.
    func start(_ app: WebApp) {
        let door = app.door
        let first: Bool = lock.withLock {
            defer { started = true }
            return !started && !stopped
        }
        guard first else { return }
        let thread = Thread { [self] in
            supervise(door)
            ended.signal()
        }
        thread.name = "tripsync-open-sync"
        thread.start()
    }

    /// Stops the automatic sync, returning once a round in progress has ended.
    func stop() {
        let running: Bool = lock.withLock {
            defer { stopped = true }
            return started && !stopped
        }
        if running { ended.wait() }
    }

    /// Keeps one watch running with the home's last folder while a page is open, none
    /// otherwise.
    private func supervise(_ door: TripHome) {
        var watch: SyncWatch?
        while !isStopped {
            let folder = isActive ? lastFolder(door) : nil
            if watch?.folder != folder {
                // Stopping waits for a round in progress.
                watch?.stop()
                watch = folder.flatMap { startWatch(door, folder: $0) }
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        watch?.stop()
    }

    /// The folder the door's one rule picks (`TripHome.syncFolder`: the one folder the home's
    /// trips last synced with, as `tripsync sync` without a folder); nil when there is none yet,
    /// or when the trips used several or the records cannot be read, which the trip page then
    /// says (no automatic sync: the person picks the folder with Sync now).
    private func lastFolder(_ door: TripHome) -> String? {
        do {
            return try door.syncFolder()
        } catch {
            let kind = (error as? any TripSyncError)?.errorKind
            let text = kind == .notFound ? nil : "no automatic sync: " + ((error as? any TripSyncError)?.message ?? "\(error)")
            lock.withLock { problem = text }
            return nil
        }
    }

    /// The door's watch of `folder`, its rounds' problems kept for the trip page.
    private func startWatch(_ door: TripHome, folder: String) -> SyncWatch? {
        do {
            return try door.watch(folder, every: BackgroundSync.roundEvery) { [weak self] event in
                guard let self else { return }
                switch event {
                case .synced(let report):
                    // The sync recorded the folder as each trip's last one; what it could not record.
                    self.lock.withLock { self.problem = report.lastFolderProblems.first }
                case .failed(let failure, _, _):
                    let text = failure.message
                    self.lock.withLock { self.problem = text.hasPrefix(folder + ":") ? text : "\(folder): \(text)" }
                case .recovered, .folderReplaced:
                    break
                }
            }
        } catch {
            let text = "\(error)"
            lock.withLock { problem = text }
            return nil
        }
    }
}
