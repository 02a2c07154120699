import TripSyncCore
import TripSyncSync

extension SyncReport: JSONReport, Encodable {
    /// `sync --json`: `{"published", "merged", "unchanged", "skipped": [{"file", "reason"}],
    /// "joined", "removed", "conflicts" (new ones), "changes" (every trip's, `DeviceChanges`),
    /// "failed", "trips": [...], "warnings", "rekeyed"}`; every list is always a list.
    package var reportFields: [ReportField] {
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

extension SyncReport.Trip: JSONReport, Encodable {
    /// One trip's outcome: `{"tripId", "name", "synced", "error", "published", "wrote",
    /// "merged", "skipped", "newConflicts", "changes": [{"device", "name", "added", "changed",
    /// "deleted"}], "sharedChanges", "forks", "notices" (each in the library's words),
    /// "remedies": [{"notice" (its index in "notices"), "kind", "device", "folder"}] (what would
    /// fix a notice; only on a trip with a notice that has a remedy, so other reports read as
    /// before), "waitingToJoin"}`.
    package var reportFields: [ReportField] {
        let remedies = notices.enumerated().compactMap { index, notice in notice.remedy.map { NoticeRemedy(notice: index, remedy: $0) } }
        return [
            .field("tripId", tripID.description),
            .field("name", name),
            .field("synced", failure == nil),
            .field("error", failure?.message),
            .field("published", published),
            .field("wrote", wrote),
            .field("merged", merged),
            .field("skipped", skipped),
            .field("newConflicts", newConflicts),
            .field("changes", changes),
            .field("sharedChanges", sharedChanges),
            .field("forks", forks),
            .field("notices", notices.map(\.description)),
            .optional("remedies", remedies.isEmpty ? nil : remedies),
            .field("waitingToJoin", waitingToJoin),
        ]
    }
}

extension SyncReport.Skipped: JSONReport, Encodable {
    /// `{"file", "reason" (with the remedy in words)}`, and `"remedy": {"kind", "device",
    /// "folder"}` when something would let the file in (left out otherwise, so an entry without
    /// one stays an object of strings).
    package var reportFields: [ReportField] {
        [
            .field("file", file),
            .field("reason", message),
            .optional("remedy", remedy),
        ]
    }
}

extension MembershipRemedy: JSONReport, Encodable {
    /// `{"kind", "device" (the full id, or null), "folder" (or null)}`.
    package var reportFields: [ReportField] {
        [
            .field("kind", kind),
            .field("device", device?.description),
            .field("folder", folder),
        ]
    }
}

/// A notice's remedy in a trip's JSON report, with the index of its notice.
struct NoticeRemedy: JSONReport {
    /// The index of the notice in the trip's `notices`.
    let notice: Int
    /// What would fix it.
    let remedy: MembershipRemedy

    /// `{"notice", "kind", "device", "folder"}`.
    var reportFields: [ReportField] { [.field("notice", notice)] + remedy.reportFields }
}

extension SyncReport.Fork: JSONReport, Encodable {
    /// `{"device", "file", "pointers"}`.
    package var reportFields: [ReportField] {
        [
            .field("device", device.description),
            .field("file", file),
            .field("pointers", pointers),
        ]
    }
}

extension SyncReport.Rekey: JSONReport, Encodable {
    /// `{"old", "new", "reason"}`.
    package var reportFields: [ReportField] {
        [
            .field("old", old.description),
            .field("new", new.description),
            .field("reason", reason),
        ]
    }
}

extension SyncReport.DeviceChanges: JSONReport, Encodable {
    /// `{"device", "name", "added", "changed", "deleted"}`.
    package var reportFields: [ReportField] {
        [
            .field("device", device.description),
            .field("name", name),
            .field("added", added),
            .field("changed", changed),
            .field("deleted", deleted),
        ]
    }
}
