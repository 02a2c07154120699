import Foundation
import TripSync
import TripSyncCore

/// After a join from the page, the trip is not in the home yet, so no sync knows the folder:
/// while the trips page is open (it polls `/version`), this syncs the home with the join's folder
/// every few seconds, one round at a time, until the trip has arrived; from then on the trip
/// has a last folder and the page's automatic sync (`BackgroundSync`) takes over.
final class JoinWatch: @unchecked Sendable {
    /// The least time between two rounds.
    static let every: Duration = .seconds(3)
    private let lock = NSLock()
    private var pending: (folder: String, trip: TripID)?
    private var running = false
    private var last: ContinuousClock.Instant?
    private var problem: String?

    /// Starts watching for `trip` through `folder` (a later join replaces an earlier one).
    func start(folder: String, trip: TripID) {
        lock.withLock {
            pending = (folder, trip)
            last = nil
            problem = nil
        }
    }

    /// What the last round could not do, while a join waits.
    var lastProblem: String? { lock.withLock { pending == nil ? nil : problem } }

    /// Called by each poll of the trips page: starts a round in the background when one is due.
    func tick(_ door: TripHome) {
        let job: (folder: String, trip: TripID)? = lock.withLock {
            guard let pending, !running else { return nil }
            if let last, ContinuousClock.now - last < Self.every { return nil }
            running = true
            last = .now
            return pending
        }
        guard let job else { return }
        DispatchQueue.global().async { [self] in
            var failure: String?
            do {
                _ = try door.sync(with: job.folder)
            } catch {
                failure = WebApp.words(error)
            }
            let arrived = door.version(of: job.trip) != "none"
            lock.withLock {
                running = false
                problem = failure
                if arrived, pending?.trip == job.trip { pending = nil }
            }
        }
    }
}
