import Foundation
import TripSyncCore
import TripSyncHome

extension TripStore {
    /// Removes the trip from this home only: a gzip copy of the replica is kept first in
    /// `trips/backups/` (`Home.keepBackup`), then the replica and its local settings are
    /// removed. Shared folders are never touched (their copies remain, and a later sync with
    /// one of them brings the trip back); this home's access record (membership, owner key) is
    /// kept and, for an owned trip, records the owner key it trusted (`TripAccess.knownOwner`),
    /// so the next sync takes the trip back with this home's seat. After this the store saves nothing more.
    package func forget() throws -> ForgottenTrip {
        try locked {
            let document = state.document
            let unpublished = DeliveryStatus(document, me: state.identity.deviceID, now: .now).unpublished
            let backup = try home.keepBackup(of: document, nowMilliseconds: FileMerger.wallClockMilliseconds())
            if let owner = document.owner?.key {
                // The seat survives the replica: the next sync trusts this owner key again.
                var access = try TripAccess.load(home, document.tripID)
                if access.knownOwner != owner {
                    access.knownOwner = owner
                    try access.save(home, document.tripID)
                }
            }
            let removed = try home.removeTripFiles(document.tripID)
            forgotten = true
            let access = TripAccess.path(home, document.tripID)
            return ForgottenTrip(
                tripID: document.tripID, name: document.trip.name.value, removed: removed, backup: backup,
                keptAccess: FileManager.default.fileExists(atPath: access) ? access : nil, unpublished: unpublished)
        }
    }
}
