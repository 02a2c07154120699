import Foundation
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// A home kept in sync with a shared folder while it runs (`TripHome.watch`): a round at once,
/// then a round after every change in the folder or the home, a failed round retried after 1,
/// 2, 4 … 60 seconds or at the next change. `stop()` ends it.
public final class SyncWatch: Sendable {
    /// What the watch tells its caller, in order, on the watch's own thread.
    public enum Event: Sendable {
        /// A round ran; its report, which may name trips that could not sync.
        case synced(SyncReport)
        /// A round failed: why (an error value: kind, facts, message; `.syncFailed` when the
        /// sync ran but some trips could not sync), how many rounds in a row have, and the
        /// seconds until the next try.
        case failed(TripError, failures: Int, retryIn: Double)
        /// A round worked after `afterFailures` failed ones.
        case recovered(afterFailures: Int)
        /// The shared folder was found replaced (another folder at its path), and is watched now.
        case folderReplaced
    }

    private let loop: SyncLoop

    init(_ loop: SyncLoop) {
        self.loop = loop
    }

    /// The shared folder watched.
    public var folder: String { loop.sync.folder }

    /// Stops the watch, returning once a round in progress has ended.
    public func stop() {
        loop.stop()
    }

    deinit {
        // A watch nobody holds any more ends after its round in progress.
        loop.requestStop()
    }
}

extension TripHome {
    /// Keeps the home in sync with the shared `folder` (nil: `syncFolder(_:)`, the one folder its
    /// trips last synced with) until `stop()`: the library's one watch loop, for every face, on a
    /// thread of its own. Each round is `sync(with:)`, holding the home's lock for that round
    /// only, so the stores this handle opened show what each round brought. `onWatching` is
    /// called once the folders are watched (from then on no change is missed), `onEvent` after
    /// every round and `progress` during each, all on the watch's thread. Throws when `folder`
    /// is nil and the trips have no one last folder (a `TripError`, as `syncFolder` says).
    ///
    /// `every`: a round also when that many seconds passed without one, changes or not (the
    /// browser app's open page).
    public func watch(
        _ folder: String? = nil, every: Double? = nil, progress: (@Sendable (SyncProgress) -> Void)? = nil, onWatching: (@Sendable () -> Void)? = nil,
        onEvent: @escaping @Sendable (SyncWatch.Event) -> Void
    ) throws -> SyncWatch {
        let sync = try folderSync(folder, progress: progress)
        let loop = SyncLoop(sync)
        if let every { loop.roundEvery = every }
        // The watch keeps the handle until it stops; the lock only for each round.
        loop.round = { try TripError.door { try self.run(sync) } }
        loop.onWatching = onWatching
        loop.onEvent = { event in
            switch event {
            case .synced(let report): onEvent(.synced(report))
            case .failed(let failure, let failures, let retryIn):
                onEvent(.failed(TripError(failure.errorKind, facts: failure.facts, message: failure.message), failures: failures, retryIn: retryIn))
            case .recovered(let failures): onEvent(.recovered(afterFailures: failures))
            case .folderReplaced: onEvent(.folderReplaced)
            }
        }
        loop.start()
        return SyncWatch(loop)
    }
}
