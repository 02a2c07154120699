import Foundation
import Synchronization
import TripSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync sync FOLDER --watch`: the door's watch (`TripHome.watch`, the library's one watch
/// loop: syncs again after every change, in the shared folder or in this home, failing rounds
/// retried with backoff), told on the terminal, until SIGINT or SIGTERM (exit 0).
enum SyncWatch {
    static func run(_ door: TripHome, folder: String, progress: (@Sendable (SyncProgress) -> Void)?, json: Bool) throws {
        // The signals are taken before the watch starts, so none is lost in between.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let interrupted = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { interrupted.signal() }
            source.resume()
            return source
        }
        defer { withExtendedLifetime(sources) {} }
        // The last round's report: a round whose trips failed is worded from it.
        let lastReport = Mutex<SyncReport?>(nil)
        let watch = try Failure.during(.syncing(folder: folder)) {
            try door.watch(
                folder, progress: progress,
                // Said once the folders are watched, so whoever waits for it misses no change after it.
                onWatching: { Console.err("watching \(folder) (Ctrl-C to stop)") }
            ) { event in
                switch event {
                case .folderReplaced:
                    Console.err("\(SyncCommand.timestamp()) \(folder) was replaced; watching the new folder")
                case .synced(let report):
                    Console.clearProgress()
                    lastReport.withLock { $0 = report }
                    do {
                        try SyncCommand.show(report, of: door, folder: folder, json: json, watching: true)
                    } catch {
                        Console.warning("\(SyncCommand.timestamp()) \(error)")
                    }
                case .failed(let failure, _, let delay):
                    Console.clearProgress()
                    let words = Failure.watchRound(failure, folder: folder, report: lastReport.withLock { $0 })
                    Console.warning("\(SyncCommand.timestamp()) sync failed: \(words); trying again in \(Int(delay)) s, or on the next change")
                case .recovered(let failures):
                    Console.err("\(SyncCommand.timestamp()) syncing works again (after \(failures) failed \(failures == 1 ? "round" : "rounds"))")
                }
            }
        }
        interrupted.wait()
        // Returns once a round in progress has ended.
        watch.stop()
        Console.err("stopped watching")
    }
}
