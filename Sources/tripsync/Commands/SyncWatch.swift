import Foundation
import TripSync
import TripSyncSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync sync FOLDER --watch`: syncs again after every change, in the shared folder or in
/// this home (`add`, `edit` in another terminal), until SIGINT or SIGTERM (exit 0).
///
/// A round that fails (the home locked by another command for more than 10 s, the shared
/// folder unmounted, a trip that could not be synced) prints a timestamped warning and is
/// retried after 1, 2, 4 … 60 s, or at the next change; only a usage error ends the loop.
/// Watches are re-armed after every round, so a trip folder or the shared folder replaced
/// under the same path is still followed.
enum SyncWatch {
    /// The longest wait between two retries of a failing round (seconds).
    static let maxBackoff = 60.0

    static func run(_ sync: FolderSync, global: GlobalOptions, json: Bool) throws {
        let stop = StopFlag()
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        defer { withExtendedLifetime(sources) {} }
        let watcher = FolderWatcher(folder: sync.folder, home: sync.home.tripsPath)
        Console.err("watching \(sync.folder) (Ctrl-C to stop)")
        // Our own published file, whose writes (by our own rounds) do not start a round. Learned
        // from each round's report (a re-key changes it) rather than by opening the identity
        // again here, outside the home's lock.
        var ownFile: Set<String> = []
        do {
            ownFile = ["\(try HomeAccess.identity(global).deviceID).trip.json.gz"]
        } catch {
            // Only a filter for our own writes: the next round reports the home's error.
        }
        var failures = 0
        var replacements = watcher.sharedFolderReplacements
        var first = true  // the first round runs at once, under the signal handlers and the retries
        while !stop.isSet {
            if first {
                first = false
            } else if failures > 0 {
                // Retry after the backoff; a change meanwhile starts a round at once (a trip that
                // keeps failing must not hold back the others' changes for a minute).
                let retryAt = ProcessInfo.processInfo.systemUptime + backoff(afterFailures: failures)
                _ = watcher.waitForChange(pollInterval: 1, ignoring: ownFile) { stop.isSet || ProcessInfo.processInfo.systemUptime >= retryAt }
                if stop.isSet { break }
            } else {
                guard watcher.waitForChange(pollInterval: 1, ignoring: ownFile, shouldStop: { stop.isSet }) else { break }
            }
            if watcher.sharedFolderReplacements != replacements {
                replacements = watcher.sharedFolderReplacements
                Console.err("\(SyncCommand.timestamp()) \(sync.folder) was replaced; watching the new folder")
            }
            do {
                let report = try SyncCommand.once(sync, json: json, watching: true)
                if let published = report.published.first, let slash = published.lastIndex(of: "/") {
                    ownFile = [String(published[published.index(after: slash)...])]
                }
                if failures > 0 {
                    Console.err("\(SyncCommand.timestamp()) syncing works again (after \(failures) failed \(failures == 1 ? "round" : "rounds"))")
                }
                failures = 0
            } catch CLIError.usage(let message, let command) {
                throw CLIError.usage(message, command: command)
            } catch {
                failures += 1
                let delay = backoff(afterFailures: failures)
                Console.warning("\(SyncCommand.timestamp()) sync failed: \(describe(error)); trying again in \(Int(delay)) s, or on the next change")
            }
            watcher.refresh()
        }
        Console.err("stopped watching")
    }

    /// 1 s after the first failure, doubling up to `maxBackoff`.
    static func backoff(afterFailures failures: Int) -> Double {
        min(maxBackoff, pow(2, Double(max(0, min(failures - 1, 16)))))
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case CLIError.refused(let lines): return lines.joined(separator: "; ")
        case CLIError.silentFailure: return "the round reported a failure"
        default: return "\(error)"
        }
    }
}

/// A flag set from a signal handler's queue.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
