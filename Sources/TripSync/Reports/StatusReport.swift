import TripSyncCore
import TripSyncHome

/// What each change of this device has reached (`status --json`): `{"tripId", "device",
/// "changes", "unpublished", "conflicts", "conflictParts", "devices", "recentChanges",
/// "nearRetention", "attachmentsNearRetention" ([{"attachment", "name", "compactableFrom"}]),
/// "attachments", "folder", "metrics"}`, `folder` one of `open`, `notSealedYet`, `sealed`,
/// `leftOut` (`FolderForm`), `attachments` as `AttachmentCounts` says
/// (`{"staged", "shared", "arriving", "quarantined"}`), `metrics` as `TeamMetrics` says: `{"changes", "conflicts",
/// "conflictsPer1000Changes", "openConflictsWithMine", "openConflictsShowingMine",
/// "keepMineShare", "oldestUnpublishedChange", "oldestUnpublishedChangeSeconds", "staleDevices":
/// [{"device", "name", "lastHeard", "silentSeconds"}], "retentionSeconds"}`.
public struct StatusReport: JSONReport, Encodable, Sendable {
    /// The trip.
    public var tripID: TripID
    /// This device.
    public var device: DeviceID
    /// The status.
    public var status: DeliveryStatus
    /// The numbers a team watches.
    package var metrics: TeamMetrics
    /// How many recent changes are listed.
    package var recentLimit = 50
    /// The attachments this laptop sees, by state (all zero when it sees none).
    package var attachments = AttachmentCounts([])
    /// Why the attachments could not be counted (they are then zero); nil when they were.
    public var attachmentProblem: String?
    /// How the trip travels through the shared folder: open (readable by whoever reads the
    /// folder), owned but not sealed yet, sealed, or sealed without this laptop.
    public var folderForm: FolderForm = .open

    /// How a trip's files travel through the shared folder (docs/DESIGN.md, "Sealed files").
    public enum FolderForm: Equatable, Sendable {
        /// An open trip: plain files, readable by whoever can read the folder.
        case open
        /// An owned trip whose key this laptop does not hold yet: the owner's next sync (and
        /// then this laptop's) seals it.
        case notSealedYet
        /// Sealed with the trip's key of `epoch`, which only members hold.
        case sealed(epoch: Int)
        /// Sealed, and this laptop was left out of the newest key (`epoch`): removed.
        case leftOut(epoch: Int)

        /// The word `status --json` gives: `open`, `notSealedYet`, `sealed`, `leftOut`.
        var word: String {
            switch self {
            case .open: return "open"
            case .notSealedYet: return "notSealedYet"
            case .sealed: return "sealed"
            case .leftOut: return "leftOut"
            }
        }
    }

    /// The report of `status` and `metrics` of `tripID` for `device`.
    package init(tripID: TripID, device: DeviceID, status: DeliveryStatus, metrics: TeamMetrics) {
        self.tripID = tripID
        self.device = device
        self.status = status
        self.metrics = metrics
    }

    /// The JSON object.
    package var reportFields: [ReportField] {
        [
            .field("tripId", tripID.description),
            .field("device", device.description),
            .field("changes", status.ours),
            .field("unpublished", status.unpublished),
            .field("conflicts", status.conflicts),
            .field("conflictParts", status.conflictSummary),
            .field("devices", status.devices.map(DeviceEntry.init)),
            .field("recentChanges", status.changes.prefix(recentLimit).map(ChangeEntry.init)),
            .field("nearRetention", status.nearRetention.map { RetentionEntry(item: $0.id.description, compactableFrom: $0.from.description) }),
            .field("attachmentsNearRetention", status.attachmentsNearRetention.map { AttachmentRetentionEntry(attachment: $0.id.description, name: $0.name, compactableFrom: $0.from.description) }),
            .field("attachments", attachments),
            .field("folder", folderForm.word),
            .field("metrics", MetricsEntry(metrics: metrics)),
        ]
    }

    struct MetricsEntry: JSONReport {
        var metrics: TeamMetrics
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("changes", metrics.changes),
                .field("conflicts", metrics.conflicts.total),
                .field("conflictsPer1000Changes", metrics.conflictsPer1000Changes),
                .field("openConflictsWithMine", metrics.openConflictsWithMine),
                .field("openConflictsShowingMine", metrics.openConflictsShowingMine),
                .field("keepMineShare", metrics.keepMineShare),
                .field("oldestUnpublishedChange", metrics.oldestUnpublishedChange?.description),
                .field("oldestUnpublishedChangeSeconds", metrics.oldestUnpublishedChangeSeconds),
                .field("staleDevices", metrics.staleDevices.map(StaleEntry.init)),
                .field("retentionSeconds", metrics.retentionSeconds),
            ]
        }
    }

    struct StaleEntry: JSONReport {
        var stale: TeamMetrics.StaleDevice
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("device", stale.id.description),
                .field("name", stale.name),
                .field("lastHeard", stale.lastHeard.description),
                .field("silentSeconds", stale.silentSeconds),
            ]
        }
    }

    struct DeviceEntry: JSONReport {
        var device: DeliveryStatus.Device
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("device", device.id.description),
                .field("name", device.name),
                .field("seenOursUpTo", device.seenOursUpTo),
                .field("missingOurs", device.missingOurs),
                .field("lastPublished", device.lastPublished?.description),
            ]
        }
    }

    struct ChangeEntry: JSONReport {
        var change: DeliveryStatus.Change
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("item", change.item?.description),
                .field("field", change.field),
                .field("title", change.title),
                .field("published", change.published),
                .field("seenBy", change.seenBy.map(\.description)),
            ]
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

extension StatusReport {
    /// The status of `document` for device `me` of `home` now. When the attachments cannot be
    /// counted they stay zero and `attachmentProblem` says why; the rest is still worth seeing.
    package init(_ document: TripDocument, me: DeviceID, home: Home, now: UTCTimestamp) {
        self.init(
            tripID: document.tripID, device: me, status: DeliveryStatus(document, me: me, now: now),
            metrics: TeamMetrics(document, me: me, now: now))
        do {
            attachments = AttachmentCounts(try AttachmentEntry.list(in: document, home: home))
        } catch {
            attachmentProblem = "the attachments cannot be counted: \(error)"
        }
        folderForm = Self.folderForm(of: document, home: home)
    }
}

extension StatusReport {
    /// How `document` travels through the folder, from the home's access record (an unreadable
    /// record counts as holding no key: the trip is then said not to be sealed yet).
    static func folderForm(of document: TripDocument, home: Home) -> FolderForm {
        guard document.owner != nil else { return .open }
        let access: TripAccess
        do {
            access = try TripAccess.load(home, document.tripID)
        } catch {
            return .notSealedYet
        }
        if let leftOut = access.leftOut { return .leftOut(epoch: leftOut.epoch) }
        guard let current = KeyringPlan.current(access.epochKeys) else { return .notSealedYet }
        return .sealed(epoch: current.epoch)
    }
}

extension TripStore {
    /// The trip's status for this laptop now (the report of `tripsync status`): what each of its
    /// changes has reached, the numbers a team watches, and the attachments by state
    /// (`attachmentProblem` says when they could not be counted).
    public func status(now: UTCTimestamp = .now) -> StatusReport {
        let (document, me) = locked { (state.document, state.identity.deviceID) }
        return StatusReport(document, me: me, home: home, now: now)
    }
}
