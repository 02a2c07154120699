import Foundation

/// One trip as this installation keeps it: the document, the home it lives in, and this
/// device's identity and clock. Edits stamp revs from the hybrid logical clock; `save()` makes
/// them durable (identity first, then the trip: temp file, fsync, rename, fsync the folder).
public struct LocalReplica: Sendable {
    /// The home.
    public let home: Home
    /// This installation.
    public private(set) var identity: DeviceIdentity
    /// The trip.
    public var document: TripDocument
    /// The clock that stamps this device's writes.
    public var clock: HybridLogicalClock
    /// Problems noticed when opening (a copied or restored home), for the person to read.
    public private(set) var notices: [String] = []

    /// Where a trip's replica lives in a home.
    public static func path(in home: Home, tripID: TripID) -> String {
        home.tripsPath + "/\(tripID).trip.json.gz"
    }

    /// The file of this replica.
    public var path: String { LocalReplica.path(in: home, tripID: document.tripID) }

    /// Wraps a document read from the home (or just created) for editing by this installation.
    public init(home: Home, identity: DeviceIdentity, document: TripDocument) {
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
            identity = DeviceIdentity(deviceID: .random(), name: identity.name, highWater: 0)
            notices.append(
                "this home's identity is older than its trip \(document.trip.name.value) (device \(old.deviceID) wrote up to \(ownCounter), the home remembers \(old.highWater)): it looks copied or restored, so this installation now writes as a new device \(identity.deviceID)")
        }
        document.deviceID = identity.deviceID
        self.identity = identity
        self.document = document
        self.notices = notices
        clock = HybridLogicalClock(highWater: max(identity.highWater, document.clock.maxCounter))
    }

    /// Milliseconds since 1970 now.
    public static func nowMilliseconds() -> UInt64 { FileMerger.wallClockMilliseconds() }

    /// Makes sure the trip names this device (a device-name register write when missing or
    /// different); a name readers would refuse (`TextRule.name`) is refused.
    public mutating func registerDevice(now: UInt64 = LocalReplica.nowMilliseconds()) throws {
        if document.devices[identity.deviceID]?.name.value == identity.name { return }
        if let violation = TextRule.name.violation(in: identity.name) {
            throw EditError("device name: " + TextRule.name.message(for: violation, what: "a device name"))
        }
        let rev = try document.stamp(&clock, now: now)
        var info = document.devices[identity.deviceID] ?? DeviceInfo(name: Register(value: identity.name, rev: rev))
        info.name.write(identity.name, rev: rev)
        document.devices[identity.deviceID] = info
    }

    /// Writes the identity (raising its high-water mark) and then the trip, durably.
    public mutating func save() throws {
        identity.highWater = max(identity.highWater, clock.highWater, document.clock[identity.deviceID])
        try home.save(identity)
        try FileIO.makeFolder(home.tripsPath)
        document.deviceID = identity.deviceID
        try document.write(to: path)
    }
}

extension Home {
    /// The trips in this home, read and validated (each file as untrusted input).
    public func trips(reader: TripFileReader = TripFileReader()) throws -> [LoadedTrip] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: tripsPath)) ?? [])
            .filter { $0.hasSuffix(".trip.json.gz") }.sorted()
        return try names.map { name in try reader.read(path: tripsPath + "/" + name) }
    }

    /// A free-form local setting for a trip (the default zone of `new --zone`): never replicated.
    public func defaultZone(for trip: TripID) -> String? {
        guard let bytes = try? FileIO.readFile(tripsPath + "/\(trip).settings.json", maxBytes: 1 << 16),
            let json = try? JSONValue.parse(bytes)
        else { return nil }
        return json["defaultZone"]?.stringValue
    }

    /// Saves the trip's default zone.
    public func setDefaultZone(_ zone: String, for trip: TripID) throws {
        try FileIO.makeFolder(tripsPath)
        let json: JSONValue = ["defaultZone": .string(zone)]
        try FileIO.writeAtomically(Array((json.text + "\n").utf8), to: tripsPath + "/\(trip).settings.json")
    }
}
