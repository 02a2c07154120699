/// A schemaVersion 1 file, as written by the earlier, server-backed generation of the app:
/// one row per item with a whole-item server revision and the start stored as an instant.
public struct TripDocumentV1: Hashable, Sendable {
    /// One item row.
    public struct Row: Hashable, Sendable {
        /// The item id.
        public var itemID: ItemID
        /// The row's trip id (must equal the file's).
        public var tripID: TripID
        /// The title.
        public var title: String
        /// The order key.
        public var sortKey: String
        /// The start instant in epoch milliseconds, or nil when unscheduled.
        public var startInstant: Int64?
        /// The zone the start is shown in, or nil when unscheduled.
        public var startZoneID: String?
        /// Where.
        public var place: String?
        /// A note.
        public var note: String?
        /// The whole-row revision issued by the old server.
        public var serverRev: UInt64
        /// When the row was deleted (epoch milliseconds), or nil.
        public var deletedAt: Int64?
        /// Whether the row carries local edits the server had not confirmed.
        public var dirty: Bool
    }

    /// The trip id.
    public var tripID: TripID
    /// The device that wrote the file.
    public var deviceID: DeviceID
    /// The trip's name.
    public var name: String
    /// The rows, in file order.
    public var rows: [Row]
}
