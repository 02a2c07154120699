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
        /// A round failed: why (an error value: kind, facts, message), how many rounds in a row
        /// have, and the seconds until the next try.
        case failed(Failure, failures: Int, retryIn: Double)
        /// A round worked after `afterFailures` failed ones.
        case recovered(afterFailures: Int)
        /// The shared folder was found replaced (another folder at its path), and is watched now.
        case folderReplaced
    }

    /// Why a round failed: the kind of the error the sync threw (`.syncFailed` when it ran but
    /// some trips could not sync), its facts, and its message.
    public struct Failure: TripSyncError, Hashable {
        /// What went wrong, to switch on.
        public var errorKind: TripSyncErrorKind
        /// The facts a face words it with.
        public var facts: ErrorFacts
        /// What went wrong, in words.
        public var message: String
        /// The message.
        public var description: String { message }
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
    /// Keeps the home in sync with the shared `folder` (nil: the folder its trips last synced
    /// with) until `stop()`: the library's one watch loop, for every face. Each round is
    /// `sync(with:)`, so the
    /// stores it opened show what each round brought. `onEvent` hears every round, on the
    /// watch's thread. Throws when `folder` is nil and the trips have no one last folder (none
    /// yet, or several: the error names them).
    ///
    /// `every`: a round also when that many seconds passed without one, changes or not (the
    /// browser app's open page). Each round holds the home's lock for that round only.
    public func watch(_ folder: String? = nil, every: Double? = nil, onEvent: @escaping @Sendable (SyncWatch.Event) -> Void) throws -> SyncWatch {
        let sync = try folder.map { FolderSync(home: home, folder: $0) } ?? FolderSync(lastFolderOf: home)
        let loop = SyncLoop(sync)
        if let every { loop.roundEvery = every }
        let shared = sync.folder
        // The watch keeps the handle until it stops; the lock only for each round.
        loop.round = { try self.sync(with: shared) }
        loop.onEvent = { event in
            switch event {
            case .synced(let report): onEvent(.synced(report))
            case .failed(let failure, let failures, let retryIn):
                let value = SyncWatch.Failure(errorKind: failure.errorKind, facts: failure.facts, message: failure.message)
                onEvent(.failed(value, failures: failures, retryIn: retryIn))
            case .recovered(let failures): onEvent(.recovered(afterFailures: failures))
            case .folderReplaced: onEvent(.folderReplaced)
            }
        }
        loop.start()
        return SyncWatch(loop)
    }
}
