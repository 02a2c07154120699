/// A whole trip as one versioned document: the unit that is stored, backed up, merged and synced.
///
/// Value type; see `docs/DESIGN.md` ("The model") and `docs/FORMAT.md` for the file form. Apps
/// read it through its views (`name`, `zone`, `item(_:)`, `itemsInOrder`, `deletedItems`, and
/// `ConflictList`) and change it only through `TripStore.edit` (its setters are `package`).
public struct TripDocument: Hashable, Sendable {
    /// The schema version this build writes and the newest it reads.
    public static let currentSchemaVersion = 7

    /// The trip's id.
    public package(set) var tripID: TripID
    /// The replica that wrote this document (writer metadata, never taken from an imported file).
    public package(set) var deviceID: DeviceID
    /// The version vector: per device, the largest counter of its writes this document includes.
    package var clock: VersionVector
    /// Trip-level registers.
    package var trip: TripInfo
    /// Devices known to the trip, by id.
    package var devices: [DeviceID: DeviceInfo]
    /// Live items, by id.
    package var items: [ItemID: ItemFields]
    /// Deleted items, by id. An id is in `items` or in `tombstones`, never both.
    package var tombstones: [ItemID: Tombstone]
    /// Per device, its clock when it last published its own file.
    package var acks: [DeviceID: VersionVector]
    /// The trip's owner key and claim; nil for an open trip (docs/DESIGN.md, "Members and roles").
    package var owner: TripOwner?
    /// Each member device's grant (key and role, signed by the owner key); empty when open.
    package var members: [DeviceID: MemberGrant]
    /// Photos, tickets and PDFs, live and detached, by id (docs/DESIGN.md, "Attachments").
    package var attachments: [AttachmentID: Attachment]
    /// Hand-overs to new device ids, by the NEW id (schema 5; docs/FORMAT.md, "Schema 5").
    package var successions: [DeviceID: Succession]

    /// Creates a document.
    package init(
        tripID: TripID, deviceID: DeviceID, clock: VersionVector, trip: TripInfo,
        devices: [DeviceID: DeviceInfo] = [:], items: [ItemID: ItemFields] = [:],
        tombstones: [ItemID: Tombstone] = [:], acks: [DeviceID: VersionVector] = [:],
        owner: TripOwner? = nil, members: [DeviceID: MemberGrant] = [:],
        attachments: [AttachmentID: Attachment] = [:], successions: [DeviceID: Succession] = [:]
    ) {
        self.tripID = tripID
        self.deviceID = deviceID
        self.clock = clock
        self.trip = trip
        self.devices = devices
        self.items = items
        self.tombstones = tombstones
        self.acks = acks
        self.owner = owner
        self.members = members
        self.attachments = attachments
        self.successions = successions
    }
}
