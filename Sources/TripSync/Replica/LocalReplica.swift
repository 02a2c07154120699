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
        identity.issued.formUnion(clock.issued)
        try home.save(identity)
        try FileIO.makeFolder(home.tripsPath)
        document.deviceID = identity.deviceID
        try document.write(to: path)
    }
}

extension Home {
    /// The trips in this home, read and validated (each file as untrusted input); throws the
    /// first unreadable file's error (`TripFileError`) or `FileSystemError`. Commands use
    /// `listTrips()`, which keeps the readable trips when one file is broken.
    public func trips(reader: TripFileReader = TripFileReader()) throws -> [LoadedTrip] {
        let listing = try listTrips(reader: reader)
        if let first = listing.unreadable.first {
            switch first.failure {
            case .file(let error): throw error
            case .fileSystem(let error): throw error
            }
        }
        return listing.trips
    }

    /// The file of a trip's local settings (`trips/<tripId>.settings.json`): never replicated.
    public func settingsPath(for trip: TripID) -> String {
        tripsPath + "/\(trip).settings.json"
    }

    /// A free-form local setting for a trip (the default zone of `new --zone`): never replicated.
    /// Nil when the trip has no settings file or the file sets no zone; a file that cannot be
    /// read throws `FileSystemError`, one that is not JSON or whose `defaultZone` is not a zone
    /// id throws `TripFileError`, so a broken setting is told, never taken for "no setting".
    public func defaultZone(for trip: TripID) throws -> String? {
        let path = settingsPath(for: trip)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(path, maxBytes: 1 << 16)
        } catch let error as FileSystemError where error.code == ENOENT {
            return nil
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch let error as TripFileError {
            throw TripFileError(.notJSON, file: path, issues: error.issues)
        }
        guard case .object(let object) = json else {
            throw TripFileError(.invalid, file: path, message: "expected an object with a \"defaultZone\"")
        }
        guard let value = object["defaultZone"], value != .null else { return nil }
        guard let zone = value.stringValue, ZoneID.isWellFormed(zone) else {
            throw TripFileError(.invalid, file: path, pointer: "/defaultZone", message: ZoneID.expectation(found: value.stringValue ?? value.text))
        }
        return zone
    }

    /// Saves the trip's default zone.
    public func setDefaultZone(_ zone: String, for trip: TripID) throws {
        try FileIO.makeFolder(tripsPath)
        let json: JSONValue = ["defaultZone": .string(zone)]
        try FileIO.writeAtomically(Array((json.text + "\n").utf8), to: settingsPath(for: trip))
    }
}
