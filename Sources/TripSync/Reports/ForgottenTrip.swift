import TripSyncCore

/// What `TripStore.forget()` removed from the home, and what it kept.
package struct ForgottenTrip: Sendable {
    /// The trip.
    package var tripID: TripID
    /// Its name.
    package var name: String
    /// The files removed from the home (the replica, its local settings).
    package var removed: [String]
    /// A gzip copy of the replica as it was, in `trips/backups/` ('tripsync import' brings it back).
    package var backup: String
    /// This home's membership record of the trip (and owner key, when it holds one), kept so
    /// that the trip can come back whole from a shared folder; nil when the home has none.
    package var keptAccess: String?
    /// This device's changes that were in no published file: they are only in `backup` now.
    package var unpublished: Int
}
