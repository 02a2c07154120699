/// How many attachments a laptop sees in each state (`status`): what is still to travel, and
/// which way, at a glance.
package struct AttachmentCounts: Hashable, Sendable {
    /// Attached here, not yet shared.
    package var staged = 0
    /// In the trip, bytes here.
    package var shared = 0
    /// In the trip, bytes not here yet (a later sync fetches them).
    package var arriving = 0
    /// Bytes arrived that do not match their hash (never used, fetched again).
    package var quarantined = 0

    /// The counts of `entries` (`AttachmentEntry.list`; detached ones are not counted).
    package init(_ entries: [AttachmentEntry]) {
        for entry in entries where !entry.isDetached {
            switch entry.state {
            case .staged: staged += 1
            case .shared: shared += 1
            case .arriving: arriving += 1
            case .quarantined: quarantined += 1
            }
        }
    }

    /// Every attachment counted.
    package var total: Int { staged + shared + arriving + quarantined }
}

extension AttachmentCounts: JSONReport, Encodable {
    /// `{"staged", "shared", "arriving", "quarantined"}`.
    package var reportFields: [ReportField] {
        [
            .field("staged", staged),
            .field("shared", shared),
            .field("arriving", arriving),
            .field("quarantined", quarantined),
        ]
    }
}
