import Foundation

extension TripStore {
    /// Removes the trip from this home only: a gzip copy of the replica is kept first in
    /// `trips/backups/` (`Home.keepBackup`), then the replica and its local settings are
    /// removed. Shared folders are never touched (their copies remain, and a later sync with
    /// one of them brings the trip back); this home's access record (membership, owner key) is
    /// kept, so the trip comes back with its roles. After this the store saves nothing more.
    public func forget() throws -> ForgottenTrip {
        try locked {
            let document = state.document
            let unpublished = DeliveryStatus(document, me: state.identity.deviceID, now: .now).unpublished
            let backup = try home.keepBackup(of: document, nowMilliseconds: FileMerger.wallClockMilliseconds())
            let removed = try home.removeTripFiles(document.tripID)
            forgotten = true
            let access = TripAccess.path(home, document.tripID)
            return ForgottenTrip(
                tripID: document.tripID, name: document.trip.name.value, removed: removed, backup: backup,
                keptAccess: FileManager.default.fileExists(atPath: access) ? access : nil, unpublished: unpublished)
        }
    }
}
