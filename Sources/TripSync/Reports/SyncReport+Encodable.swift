import TripSyncSync

extension SyncReport: JSONReport {
    /// `sync --json`: `{"published", "merged", "unchanged", "skipped": [{"file", "reason"}],
    /// "joined", "removed", "conflicts" (new ones), "changes" (every trip's, `DeviceChanges`),
    /// "failed", "trips": [...], "warnings", "rekeyed"}`; every list is always a list.
    public var reportFields: [ReportField] {
        [
            .field("published", published),
            .field("merged", merged),
            .field("unchanged", unchanged),
            .field("skipped", skipped),
            .field("joined", joined.map(\.description)),
            .field("removed", removed),
            .field("conflicts", trips.map(\.newConflicts).reduce(0, +)),
            .field("changes", trips.flatMap(\.changes)),
            .field("failed", failed.map(\.tripID.description)),
            .field("trips", trips),
            .field("warnings", warnings),
            .field("rekeyed", rekeyed),
        ]
    }
}

extension SyncReport.Trip: JSONReport {
    /// One trip's outcome: `{"tripId", "name", "synced", "error", "published", "wrote",
    /// "merged", "skipped", "newConflicts", "changes": [{"device", "name", "added", "changed",
    /// "deleted"}], "sharedChanges", "forks", "notices", "waitingToJoin"}`.
    public var reportFields: [ReportField] {
        [
            .field("tripId", tripID.description),
            .field("name", name),
            .field("synced", failure == nil),
            .field("error", failure),
            .field("published", published),
            .field("wrote", wrote),
            .field("merged", merged),
            .field("skipped", skipped),
            .field("newConflicts", newConflicts),
            .field("changes", changes),
            .field("sharedChanges", sharedChanges),
            .field("forks", forks),
            .field("notices", notices),
            .field("waitingToJoin", waitingToJoin),
        ]
    }
}

extension SyncReport.Skipped: JSONReport {
    /// `{"file", "reason"}`.
    public var reportFields: [ReportField] {
        [
            .field("file", file),
            .field("reason", reason),
        ]
    }
}

extension SyncReport.Fork: JSONReport {
    /// `{"device", "file", "pointers"}`.
    public var reportFields: [ReportField] {
        [
            .field("device", device.description),
            .field("file", file),
            .field("pointers", pointers),
        ]
    }
}

extension SyncReport.Rekey: JSONReport {
    /// `{"old", "new", "reason"}`.
    public var reportFields: [ReportField] {
        [
            .field("old", old.description),
            .field("new", new.description),
            .field("reason", reason),
        ]
    }
}

extension SyncReport.DeviceChanges: JSONReport {
    /// `{"device", "name", "added", "changed", "deleted"}`.
    public var reportFields: [ReportField] {
        [
            .field("device", device.description),
            .field("name", name),
            .field("added", added),
            .field("changed", changed),
            .field("deleted", deleted),
        ]
    }
}
