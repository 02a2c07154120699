import TripSyncCore

/// The deleted items as `show --deleted --json` prints them: `[{"id", "title", "deletedAt",
/// "deletes": [{"at", "device", "deviceName"}], "editedWhileDeleted", "compacted"}]`, newest
/// delete first; each is restorable (`tripsync restore ID`).
public struct DeletedItemsReport: Encodable, Sendable {
    /// The list.
    public var list: DeletedItemList

    /// The report of `list`.
    public init(_ list: DeletedItemList) {
        self.list = list
    }

    /// A JSON array.
    public func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        for entry in list.entries { try array.encode(Entry(entry: entry)) }
    }

    struct Entry: Encodable {
        var entry: DeletedItemList.Entry
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReportKey.self)
            try container.put(entry.detail.id.description, "id")
            try container.put(entry.title, "title")
            try container.put(entry.deletedAt.description, "deletedAt")
            try container.put(entry.detail.deletes.map(ItemDetailReport.Delete.init), "deletes")
            try container.put(entry.detail.editsWhileDeleted.count, "editedWhileDeleted")
            try container.put(entry.detail.isCompacted, "compacted")
        }
    }
}
