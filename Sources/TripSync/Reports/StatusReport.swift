import TripSyncCore

/// What each change of this device has reached (`status --json`): `{"tripId", "device",
/// "changes", "unpublished", "conflicts", "conflictParts", "devices", "recentChanges",
/// "nearRetention", "attachmentsNearRetention" ([{"attachment", "name", "compactableFrom"}]),
/// "attachments", "metrics"}`, `attachments` as `AttachmentCounts` says
/// (`{"staged", "shared", "arriving", "quarantined"}`), `metrics` as `TeamMetrics` says: `{"changes", "conflicts",
/// "conflictsPer1000Changes", "openConflictsWithMine", "openConflictsShowingMine",
/// "keepMineShare", "oldestUnpublishedChange", "oldestUnpublishedChangeSeconds", "staleDevices":
/// [{"device", "name", "lastHeard", "silentSeconds"}], "retentionSeconds"}`.
public struct StatusReport: Encodable, Sendable {
    /// The trip.
    public var tripID: TripID
    /// This device.
    public var device: DeviceID
    /// The status.
    public var status: DeliveryStatus
    /// The numbers a team watches.
    public var metrics: TeamMetrics
    /// How many recent changes are listed.
    public var recentLimit = 50
    /// The attachments this laptop sees, by state (all zero when it sees none).
    public var attachments = AttachmentCounts([])

    /// The report of `status` and `metrics` of `tripID` for `device`.
    public init(tripID: TripID, device: DeviceID, status: DeliveryStatus, metrics: TeamMetrics) {
        self.tripID = tripID
        self.device = device
        self.status = status
        self.metrics = metrics
    }

    /// The JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReportKey.self)
        try container.put(tripID.description, "tripId")
        try container.put(device.description, "device")
        try container.put(status.ours, "changes")
        try container.put(status.unpublished, "unpublished")
        try container.put(status.conflicts, "conflicts")
        try container.put(status.conflictSummary, "conflictParts")
        try container.put(status.devices.map(DeviceEntry.init), "devices")
        try container.put(status.changes.prefix(recentLimit).map(ChangeEntry.init), "recentChanges")
        try container.put(status.nearRetention.map { RetentionEntry(item: $0.id.description, compactableFrom: $0.from.description) }, "nearRetention")
        try container.put(
            status.attachmentsNearRetention.map { AttachmentRetentionEntry(attachment: $0.id.description, name: $0.name, compactableFrom: $0.from.description) },
            "attachmentsNearRetention")
        try container.put(attachments, "attachments")
        try container.put(MetricsEntry(metrics: metrics), "metrics")
    }

    struct MetricsEntry: Encodable {
        var metrics: TeamMetrics
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(metrics.changes, "changes")
            try container.put(metrics.conflicts.total, "conflicts")
            try container.put(metrics.conflictsPer1000Changes, "conflictsPer1000Changes")
            try container.put(metrics.openConflictsWithMine, "openConflictsWithMine")
            try container.put(metrics.openConflictsShowingMine, "openConflictsShowingMine")
            try container.put(metrics.keepMineShare, "keepMineShare")
            try container.put(metrics.oldestUnpublishedChange?.description, "oldestUnpublishedChange")
            try container.put(metrics.oldestUnpublishedChangeSeconds, "oldestUnpublishedChangeSeconds")
            try container.put(metrics.staleDevices.map(StaleEntry.init), "staleDevices")
            try container.put(metrics.retentionSeconds, "retentionSeconds")
        }
    }

    struct StaleEntry: Encodable {
        var stale: TeamMetrics.StaleDevice
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(stale.id.description, "device")
            try container.put(stale.name, "name")
            try container.put(stale.lastHeard.description, "lastHeard")
            try container.put(stale.silentSeconds, "silentSeconds")
        }
    }

    struct DeviceEntry: Encodable {
        var device: DeliveryStatus.Device
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(device.id.description, "device")
            try container.put(device.name, "name")
            try container.put(device.seenOursUpTo, "seenOursUpTo")
            try container.put(device.missingOurs, "missingOurs")
            try container.put(device.lastPublished?.description, "lastPublished")
        }
    }

    struct ChangeEntry: Encodable {
        var change: DeliveryStatus.Change
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(change.item?.description, "item")
            try container.put(change.field, "field")
            try container.put(change.title, "title")
            try container.put(change.published, "published")
            try container.put(change.seenBy.map(\.description), "seenBy")
        }
    }

    struct RetentionEntry: Encodable {
        var item: String
        var compactableFrom: String
    }

    struct AttachmentRetentionEntry: Encodable {
        var attachment: String
        var name: String
        var compactableFrom: String
    }
}
