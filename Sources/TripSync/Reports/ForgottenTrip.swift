import TripSyncCore

/// What `TripStore.forget()` removed from the home, and what it kept.
public struct ForgottenTrip: Sendable {
    /// The trip.
    public var tripID: TripID
    /// Its name.
    public var name: String
    /// The files removed from the home (the replica, its local settings).
    public var removed: [String]
    /// A gzip copy of the replica as it was, in `trips/backups/` ('tripsync import' brings it back).
    public var backup: String
    /// This home's membership record of the trip (and owner key, when it holds one), kept so
    /// that the trip can come back whole from a shared folder; nil when the home has none.
    public var keptAccess: String?
    /// This device's changes that were in no published file: they are only in `backup` now.
    public var unpublished: Int
}
