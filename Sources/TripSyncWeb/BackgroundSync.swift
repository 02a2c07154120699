import Foundation
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// The automatic sync while a page is open (docs/DESIGN.md, "The server"): while a page has
/// polled for changes in the last few seconds, the library's `SyncLoop` syncs the home's trips
/// with their last folder whenever that folder or the home changes, and at least every 30
/// seconds; failing rounds are retried with the loop's backoff. No page open, no loop; the last
/// folder changed (a sync with another folder), a loop for the new one.
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
        let home = app.home
        let first: Bool = lock.withLock {
            defer { started = true }
            return !started && !stopped
        }
        guard first else { return }
        let thread = Thread { [self] in
            supervise(home)
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

    /// Keeps one `SyncLoop` running with the home's last folder while a page is open, none
    /// otherwise.
    private func supervise(_ home: Home) {
        var loop: SyncLoop?
        while !isStopped {
            let folder = isActive ? lastFolder(home) : nil
            if loop?.sync.folder != folder {
                // Stopping waits for a round in progress.
                loop?.stop()
                loop = folder.map { makeLoop(home, folder: $0) }
                loop?.start()
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        loop?.stop()
    }

    /// The folder the home's trips last synced with (the first, when they used several); nil
    /// when none is recorded or the records cannot be read (no automatic sync then).
    private func lastFolder(_ home: Home) -> String? {
        do {
            return try home.lastFolders().first?.folder
        } catch {
            return nil
        }
    }

    /// A loop syncing `home` with `folder`, its rounds' problems kept for the trip page.
    private func makeLoop(_ home: Home, folder: String) -> SyncLoop {
        let loop = SyncLoop(FolderSync(home: home, folder: folder))
        loop.roundEvery = BackgroundSync.roundEvery
        loop.onEvent = { [weak self] event in
            guard let self else { return }
            switch event {
            case .synced(let report):
                // The sync recorded the folder as each trip's last one; what it could not record.
                self.lock.withLock { self.problem = report.lastFolderProblems.first }
            case .failed(let failure, _, _):
                let text = "\(failure)"
                self.lock.withLock { self.problem = text.hasPrefix(folder + ":") ? text : "\(folder): \(text)" }
            case .recovered, .folderReplaced:
                break
            }
        }
        return loop
    }
}
