import Foundation

/// One trip as this installation keeps it: the document, the home it lives in, and this
/// device's identity and clock; `save()` makes it durable (identity first, then the trip: temp
/// file, fsync, rename, fsync the folder). Internal: apps use `TripStore`, which owns one and
/// so the only clock that stamps this device's writes (docs/DESIGN.md, "The app API").
struct ReplicaState: Sendable {
    /// The home.
    let home: Home
    /// This installation.
    private(set) var identity: DeviceIdentity
    /// The trip.
    var document: TripDocument
    /// The clock that stamps this device's writes.
    var clock: HybridLogicalClock
    /// Problems noticed when opening (a copied or restored home), for the person to read.
    private(set) var notices: [String] = []

    /// The file of this replica.
    var path: String { home.replicaPath(for: document.tripID) }

    /// Wraps a document read from the home (or just created) for editing by this installation.
    init(home: Home, identity: DeviceIdentity, document: TripDocument) {
        self.home = home
        var identity = identity
        var document = document
        var notices: [String] = []
        let ownCounter = document.clock[identity.deviceID]
        if ownCounter > identity.highWater {
            // The trip holds writes of ours the home's identity never issued: device.json was
            // copied or restored from an older state. Writing on under this id could reuse
            // counters another copy also uses, so this installation takes a new id.
            let old = identity
            identity = DeviceIdentity(deviceID: .random(), name: identity.name, highWater: 0, binding: identity.binding)
            notices.append(
                "this home's identity is older than its trip \(document.trip.name.value) (device \(old.deviceID) wrote up to \(ownCounter), the home remembers \(old.highWater)): it looks copied or restored, so this installation now writes as a new device \(identity.deviceID)")
        }
        document.deviceID = identity.deviceID
        self.identity = identity
        self.document = document
        self.notices = notices
        clock = HybridLogicalClock(highWater: max(identity.highWater, document.clock.maxCounter))
    }

    /// Makes sure the trip names this device (a device-name register write when missing or
    /// different); a name readers would refuse (`TextRule.name`) is refused.
    mutating func registerDevice(now: UInt64) throws {
        try document.nameDevice(identity.name, hlc: &clock, now: now)
    }

    /// Writes the identity (raising its high-water mark) and then the trip, durably.
    mutating func save() throws {
        identity.highWater = max(identity.highWater, clock.highWater, document.clock[identity.deviceID])
        identity.issued.formUnion(clock.issued)
        try home.save(identity)
        try FileIO.makeFolder(home.tripsPath)
        document.deviceID = identity.deviceID
        try document.write(to: path)
    }
}

