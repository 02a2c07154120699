import TripSyncCore

/// The deleted items as `show --deleted --json` prints them: `[{"id", "title", "deletedAt",
/// "deletes": [{"at", "device", "deviceName"}], "editedWhileDeleted", "compacted"}]`, newest
/// delete first; each is restorable (`tripsync restore ID`).
package struct DeletedItemsReport: Encodable, Sendable {
    /// The list.
    package var list: DeletedItemList

    /// The report of `list`.
    package init(_ list: DeletedItemList) {
        self.list = list
    }

    /// A JSON array.
    package func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        for entry in list.entries { try array.encode(Entry(entry: entry)) }
    }

    struct Entry: JSONReport {
        var entry: DeletedItemList.Entry
        /// The report's fields in the order its JSON and text give them (`ReportEncoding`).
        package var reportFields: [ReportField] {
            [
                .field("id", entry.detail.id.description),
                .field("title", entry.title),
                .field("deletedAt", entry.deletedAt.description),
                .field("deletes", entry.detail.deletes.map(ItemDetailReport.Delete.init)),
                .field("editedWhileDeleted", entry.detail.editsWhileDeleted.count),
                .field("compacted", entry.detail.isCompacted),
            ]
        }
    }
}
