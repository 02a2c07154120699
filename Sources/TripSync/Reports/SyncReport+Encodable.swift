import TripSyncSync

extension SyncReport: Encodable {
    /// `sync --json`: `{"published", "merged", "unchanged", "skipped": [{"file", "reason"}],
    /// "joined", "removed", "conflicts" (new ones), "changes" (every trip's, `DeviceChanges`),
    /// "failed", "trips": [...], "warnings", "rekeyed"}`; every list is always a list.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(published, "published")
        try container.put(merged, "merged")
        try container.put(unchanged, "unchanged")
        try container.put(skipped, "skipped")
        try container.put(joined.map(\.description), "joined")
        try container.put(removed, "removed")
        try container.put(trips.map(\.newConflicts).reduce(0, +), "conflicts")
        try container.put(trips.flatMap(\.changes), "changes")
        try container.put(failed.map(\.tripID.description), "failed")
        try container.put(trips, "trips")
        try container.put(warnings, "warnings")
        try container.put(rekeyed, "rekeyed")
    }
}

extension SyncReport.Trip: Encodable {
    /// One trip's outcome: `{"tripId", "name", "synced", "error", "published", "wrote",
    /// "merged", "skipped", "newConflicts", "changes": [{"device", "name", "added", "changed",
    /// "deleted"}], "sharedChanges", "forks", "notices", "waitingToJoin"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(tripID.description, "tripId")
        try container.put(name, "name")
        try container.put(failure == nil, "synced")
        try container.put(failure, "error")
        try container.put(published, "published")
        try container.put(wrote, "wrote")
        try container.put(merged, "merged")
        try container.put(skipped, "skipped")
        try container.put(newConflicts, "newConflicts")
        try container.put(changes, "changes")
        try container.put(sharedChanges, "sharedChanges")
        try container.put(forks, "forks")
        try container.put(notices, "notices")
        try container.put(waitingToJoin, "waitingToJoin")
    }
}

extension SyncReport.Skipped: Encodable {
    /// `{"file", "reason"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(file, "file")
        try container.put(reason, "reason")
    }
}

extension SyncReport.Fork: Encodable {
    /// `{"device", "file", "pointers"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(device.description, "device")
        try container.put(file, "file")
        try container.put(pointers, "pointers")
    }
}

extension SyncReport.Rekey: Encodable {
    /// `{"old", "new", "reason"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(old.description, "old")
        try container.put(new.description, "new")
        try container.put(reason, "reason")
    }
}

extension SyncReport.DeviceChanges: Encodable {
    /// `{"device", "name", "added", "changed", "deleted"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(device.description, "device")
        try container.put(name, "name")
        try container.put(added, "added")
        try container.put(changed, "changed")
        try container.put(deleted, "deleted")
    }
}
