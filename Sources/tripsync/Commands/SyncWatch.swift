import Foundation
import TripSync
import TripSyncSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `tripsync sync FOLDER --watch`: the library's `SyncLoop` (syncs again after every change,
/// in the shared folder or in this home, failing rounds retried with backoff), told on the
/// terminal, until SIGINT or SIGTERM (exit 0).
enum SyncWatch {
    static func run(_ sync: FolderSync, global: GlobalOptions, json: Bool) throws {
        let loop = SyncLoop(sync)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { loop.requestStop() }
            source.resume()
            return source
        }
        defer { withExtendedLifetime(sources) {} }
        // Said once the folders are watched, so whoever waits for it misses no change after it.
        loop.onWatching = { Console.err("watching \(sync.folder) (Ctrl-C to stop)") }
        loop.onEvent = { event in
            switch event {
            case .folderReplaced:
                Console.err("\(SyncCommand.timestamp()) \(sync.folder) was replaced; watching the new folder")
            case .synced(let report):
                Console.clearProgress()
                do {
                    try SyncCommand.show(report, of: sync, json: json, watching: true)
                } catch {
                    Console.warning("\(SyncCommand.timestamp()) \(error)")
                }
            case .failed(let failure, _, let delay):
                Console.clearProgress()
                Console.warning("\(SyncCommand.timestamp()) sync failed: \(describe(failure, folder: sync.folder)); trying again in \(Int(delay)) s, or on the next change")
            case .recovered(let failures):
                Console.err("\(SyncCommand.timestamp()) syncing works again (after \(failures) failed \(failures == 1 ? "round" : "rounds"))")
            }
        }
        loop.run()
        Console.err("stopped watching")
    }

    private static func describe(_ failure: SyncLoop.Failure, folder: String) -> String {
        switch failure {
        case .couldNotRun(let text, _, _): return SyncCommand.couldNotRun(text, folder: folder)
        case .tripsFailed(let failed, let all): return "\(plural(failed, "trip")) of \(all) could not be synced (named above); the others were"
        }
    }
}
