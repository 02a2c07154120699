import Foundation
import TripSync

/// `tripsync sync FOLDER --watch`: syncs again after every change until interrupted.
enum SyncWatch {
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
        let watcher = FolderWatcher(folder: sync.folder)
        Console.err("watching \(sync.folder) (Ctrl-C to stop)")
        while !stop.isSet {
            let identity = try HomeAccess.identity(global)
            let ours: Set<String> = ["\(identity.deviceID).trip.json.gz"]
            guard watcher.waitForChange(ignoring: ours, shouldStop: { stop.isSet }) else { break }
            do {
                try SyncCommand.once(sync, json: json)
            } catch let error as CLIError {
                throw error
            } catch {
                Console.warning("sync failed: \(error); will try again on the next change")
            }
        }
        withExtendedLifetime(sources) {}
        Console.err("stopped watching")
    }
}

/// A flag set from a signal handler's queue.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
