/// A whole trip as one versioned document: the unit that is stored, backed up, merged and synced.
///
/// Value type; see `DESIGN.md` section 1 and `docs/FORMAT.md` for the file form.
public struct TripDocument: Hashable, Sendable {
    /// The schema version this build writes and the newest it reads.
    public static let currentSchemaVersion = 2

    /// The trip's id.
    public var tripID: TripID
    /// The replica that wrote this document (writer metadata, never taken from an imported file).
    public var deviceID: DeviceID
    /// The version vector: per device, the largest counter of its writes this document includes.
    public var clock: VersionVector
    /// Trip-level registers.
    public var trip: TripInfo
    /// Devices known to the trip, by id.
    public var devices: [DeviceID: DeviceInfo]
    /// Live items, by id.
    public var items: [ItemID: ItemFields]
    /// Deleted items, by id. An id is in `items` or in `tombstones`, never both.
    public var tombstones: [ItemID: Tombstone]
    /// Per device, its clock when it last published its own file.
    public var acks: [DeviceID: VersionVector]

    /// Creates a document.
    public init(
        tripID: TripID, deviceID: DeviceID, clock: VersionVector, trip: TripInfo,
        devices: [DeviceID: DeviceInfo] = [:], items: [ItemID: ItemFields] = [:],
        tombstones: [ItemID: Tombstone] = [:], acks: [DeviceID: VersionVector] = [:]
    ) {
        self.tripID = tripID
        self.deviceID = deviceID
        self.clock = clock
        self.trip = trip
        self.devices = devices
        self.items = items
        self.tombstones = tombstones
        self.acks = acks
    }
}
