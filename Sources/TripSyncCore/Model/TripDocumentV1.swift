/// A schemaVersion 1 file, as written by the earlier, server-backed generation of the app:
/// one row per item with a whole-item server revision and the start stored as an instant.
package struct TripDocumentV1: Hashable, Sendable {
    /// One item row.
    package struct Row: Hashable, Sendable {
        /// The item id.
        package var itemID: ItemID
        /// The row's trip id (must equal the file's).
        package var tripID: TripID
        /// The title.
        package var title: String
        /// The order key.
        package var sortKey: String
        /// The start instant in epoch milliseconds, or nil when unscheduled.
        package var startInstant: Int64?
        /// The zone the start is shown in, or nil when unscheduled.
        package var startZoneID: String?
        /// Where.
        package var place: String?
        /// A note.
        package var note: String?
        /// The whole-row revision issued by the old server.
        package var serverRev: UInt64
        /// When the row was deleted (epoch milliseconds), or nil.
        package var deletedAt: Int64?
        /// Whether the row carries local edits the server had not confirmed.
        package var dirty: Bool
    }

    /// The trip id.
    package var tripID: TripID
    /// The device that wrote the file.
    package var deviceID: DeviceID
    /// The trip's name.
    package var name: String
    /// The rows, in file order.
    package var rows: [Row]
}
