import Foundation
import TripSync
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// The automatic sync while a page is open (docs/DESIGN.md, "The server"): while a page has
/// polled for changes in the last few seconds, the home's trips are synced with their last
/// folder whenever that folder or the home changes (the library's `FolderWatcher`), and at
/// least every 30 seconds.
final class BackgroundSync: @unchecked Sendable {
    private let lock = NSLock()
    private var lastPoll = 0.0
    private var stopped = false
    private var thread: Thread?
    /// What the last automatic round said, shown on the trip page.
    var lastProblem: String? { lock.withLock { problem } }
    private var problem: String?

    /// A page asked for the trip's version: it is open.
    func pageIsOpen() {
        lock.withLock { lastPoll = ProcessInfo.processInfo.systemUptime }
    }

    private var isActive: Bool {
        lock.withLock { !stopped && ProcessInfo.processInfo.systemUptime - lastPoll < 5 }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    func start(_ app: WebApp) {
        let home = app.home
        let thread = Thread { [weak self] in self?.loop(home) }
        thread.name = "tripsync-open-sync"
        lock.withLock { self.thread = thread }
        thread.start()
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    private func loop(_ home: Home) {
        var watcher: FolderWatcher?
        var lastRound = 0.0
        var ownFile: Set<String> = []
        while !isStopped {
            guard isActive else {
                Thread.sleep(forTimeInterval: 0.5)
                continue
            }
            let folders: [(folder: String, trips: [TripID])]
            do {
                folders = try home.lastFolders()
            } catch {
                Thread.sleep(forTimeInterval: 2)
                continue
            }
            guard let folder = folders.first?.folder else {
                Thread.sleep(forTimeInterval: 1)
                continue
            }
            if watcher?.folder != folder { watcher = FolderWatcher(folder: folder, home: home.tripsPath) }
            guard let watcher else { continue }
            let changed = watcher.waitForChange(pollInterval: 1, ignoring: ownFile) {
                self.isStopped || !self.isActive || ProcessInfo.processInfo.systemUptime - lastRound > 30
            }
            guard !isStopped, isActive, changed || ProcessInfo.processInfo.systemUptime - lastRound > 30 else { continue }
            lastRound = ProcessInfo.processInfo.systemUptime
            do {
                let report = try FolderSync(home: home, folder: folder).run()
                let problems = home.recordLastFolder(folder, of: report)
                // Our own published file: its writes by our rounds start no round.
                if let published = report.published.first, let slash = published.lastIndex(of: "/") {
                    ownFile = [String(published[published.index(after: slash)...])]
                }
                lock.withLock { problem = problems.first }
            } catch {
                lock.withLock { problem = "\(folder): \(error)" }
            }
            _ = watcher.refresh()
        }
    }
}
