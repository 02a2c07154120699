import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Syncs a home with a shared folder again after every change, until stopped: what
/// `tripsync sync --watch` runs, and what an app runs while a trip is open.
///
/// The first round runs at once. Then the loop waits for a change in the shared folder or in
/// the home's trips folder (`FolderWatcher`: inotify on Linux, polling elsewhere); our own
/// published file being rewritten by our own rounds is no change. A round that fails (the home
/// locked by another process for longer than the lock's timeout, the shared folder unmounted, a
/// trip that could not be synced) is reported and retried after 1, 2, 4 … 60 s
/// (`backoff(afterFailures:)`), or at the next change, whichever comes first. Watches are
/// re-armed after every round, so a folder replaced under the same path is still followed.
///
/// ```swift
/// let loop = SyncLoop(FolderSync(home: home, folder: folder))
/// loop.onEvent = { event in if case .synced(let report) = event { show(report) } }
/// loop.start()      // on a thread of its own
/// …
/// loop.stop()       // returns once the loop has ended
/// ```
///
/// `run()` runs the loop on the calling thread instead, until `requestStop()` (from a signal
/// handler, say). A round in progress is never cut short: stopping waits for it to end. With
/// `roundEvery`, a round also runs when that long has passed since the last one (the browser
/// app's open page syncs at least every 30 s).
package final class SyncLoop: @unchecked Sendable {
    /// What the loop tells its caller, in order, on the loop's thread.
    package enum Event: Sendable {
        /// A round ran (`FolderSync.run`); its report, which may name trips that failed.
        case synced(SyncReport)
        /// A round failed: why, how many rounds in a row have, and the seconds until the next try.
        case failed(Failure, failures: Int, retryIn: Double)
        /// A round worked after `failures` failed ones.
        case recovered(afterFailures: Int)
        /// The shared folder was found replaced (another folder at its path), now watched.
        case folderReplaced
    }

    /// Why a round failed.
    package enum Failure: TripSyncError, CustomStringConvertible {
        /// The sync could not run at all (`FolderSync.run` threw): the error, as told, and its
        /// kind and facts (issue 39: a watch's failure is an error value, not only words).
        case couldNotRun(String, kind: TripSyncErrorKind, facts: ErrorFacts)
        /// The sync ran, but `failed` of its `of` trips could not be synced (named in the report).
        case tripsFailed(failed: Int, of: Int)

        /// The kind of the error the round threw; `.syncFailed` when some trips could not sync.
        package var errorKind: TripSyncErrorKind {
            switch self {
            case .couldNotRun(_, let kind, _): return kind
            case .tripsFailed: return .syncFailed
            }
        }

        /// The facts of the error the round threw.
        package var facts: ErrorFacts {
            if case .couldNotRun(_, _, let facts) = self { return facts }
            return ErrorFacts()
        }

        /// What went wrong, in words.
        package var message: String { description }

        /// What went wrong, in words.
        package var description: String {
            switch self {
            case .couldNotRun(let error, _, _): return error
            case .tripsFailed(let failed, let all): return "\(failed) trip\(failed == 1 ? "" : "s") of \(all) could not be synced; the others were"
            }
        }
    }

    /// The longest wait between two retries of a failing round (seconds).
    package static let maxBackoff = 60.0

    /// The seconds to wait before retrying after `failures` failed rounds in a row: 1 s after
    /// the first, doubling up to `maxBackoff`.
    package static func backoff(afterFailures failures: Int) -> Double {
        min(maxBackoff, pow(2, Double(max(0, min(failures - 1, 16)))))
    }

    /// The sync each round runs.
    package let sync: FolderSync
    /// Called with each event, on the loop's thread; set it before `start()` or `run()`.
    package var onEvent: (@Sendable (Event) -> Void)?
    /// Whether the folders are polled rather than watched with inotify.
    package let polling: Bool
    /// How often the folders are listed when polling, and how often a wait looks for a stop
    /// (seconds).
    package var pollInterval = 1.0
    /// The longest time between two rounds (seconds), changes or not: a round runs when it is
    /// due even if nothing was seen to change (a change a watch may miss, such as a sync client
    /// that rewrites files in place over a network mount). Nil: rounds only on change (and
    /// retries). Set it before `start()` or `run()`.
    package var roundEvery: Double?

    /// What a round runs, when not `sync.run()` (which takes the home's lock itself): a caller
    /// that holds the lock already runs the sync under it (`TripHome.watch`). Set it before
    /// `start()` or `run()`.
    package var round: (@Sendable () throws -> SyncReport)?
    /// Called once the folders are watched (before the first round), on the loop's thread: from
    /// then on no change is missed. Set it before `start()` or `run()`.
    package var onWatching: (@Sendable () -> Void)?

    private let lock = NSLock()
    private var stopRequested = false
    private var thread: Thread?
    private let ended = DispatchSemaphore(value: 0)

    /// A loop running `sync` round after round; nothing runs until `start()` or `run()`.
    package init(_ sync: FolderSync, polling: Bool = false) {
        self.sync = sync
        self.polling = polling
    }

    /// Whether a stop was asked for.
    package var isStopping: Bool { lock.withLock { stopRequested } }

    /// Asks the loop to end after the round in progress, if any; returns at once. Safe from
    /// any thread.
    package func requestStop() { lock.withLock { stopRequested = true } }

    /// Runs the loop on a thread of its own; a second call does nothing.
    package func start() {
        let started: Bool = lock.withLock {
            guard thread == nil else { return false }
            let thread = Thread { [self] in
                run()
                ended.signal()
            }
            thread.name = "SyncLoop \(sync.folder)"
            self.thread = thread
            return true
        }
        if started { lock.withLock { thread }?.start() }
    }

    /// Stops a loop started with `start()`, returning once it has ended (after the round in
    /// progress, if any). Does nothing more than `requestStop()` for a loop not started.
    package func stop() {
        requestStop()
        let running = lock.withLock { () -> Bool in
            guard thread != nil else { return false }
            thread = nil
            return true
        }
        if running { ended.wait() }
    }

    /// Runs the loop on the calling thread until `requestStop()`: the first round at once, then
    /// a round after every change, failing rounds retried with backoff.
    package func run() {
        let watcher = FolderWatcher(folder: sync.folder, home: sync.home.tripsPath, polling: polling)
        onWatching?()
        // Our own published file, whose writes (by our own rounds) do not start a round: learned
        // from each round's report (a re-key changes it).
        var ownFile: Set<String> = []
        var failures = 0
        var replacements = watcher.sharedFolderReplacements
        var first = true
        var lastRound = 0.0
        let roundEvery = self.roundEvery
        /// Whether a round is due by `roundEvery` alone.
        func due() -> Bool { roundEvery.map { ProcessInfo.processInfo.systemUptime - lastRound >= $0 } ?? false }
        while !isStopping {
            if first {
                first = false
            } else if failures > 0 {
                // Retry after the backoff; a change meanwhile starts a round at once (a trip that
                // keeps failing must not hold back the others' changes for a minute).
                let retryAt = ProcessInfo.processInfo.systemUptime + SyncLoop.backoff(afterFailures: failures)
                _ = watcher.waitForChange(pollInterval: pollInterval, ignoring: ownFile) { isStopping || ProcessInfo.processInfo.systemUptime >= retryAt }
                if isStopping { break }
            } else {
                // A change, or a round due by `roundEvery`.
                _ = watcher.waitForChange(pollInterval: pollInterval, ignoring: ownFile) { isStopping || due() }
                if isStopping { break }
            }
            lastRound = ProcessInfo.processInfo.systemUptime
            if watcher.sharedFolderReplacements != replacements {
                replacements = watcher.sharedFolderReplacements
                onEvent?(.folderReplaced)
            }
            var failure: Failure?
            do {
                let report = try round?() ?? sync.run()
                if let published = report.published.first, let slash = published.lastIndex(of: "/") {
                    ownFile = [String(published[published.index(after: slash)...])]
                }
                onEvent?(.synced(report))
                if !report.failed.isEmpty { failure = .tripsFailed(failed: report.failed.count, of: report.trips.count) }
            } catch {
                let typed = error as? any TripSyncError
                failure = .couldNotRun("\(error)", kind: typed?.errorKind ?? .refused, facts: typed?.facts ?? ErrorFacts())
            }
            if let failure {
                failures += 1
                onEvent?(.failed(failure, failures: failures, retryIn: SyncLoop.backoff(afterFailures: failures)))
            } else {
                if failures > 0 { onEvent?(.recovered(afterFailures: failures)) }
                failures = 0
            }
            watcher.refresh()
        }
    }
}
