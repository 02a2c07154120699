import Foundation

extension Home {
    /// Where a trip's replica lives in this home: `trips/<tripId>.trip.json.gz`.
    public func replicaPath(for trip: TripID) -> String {
        tripsPath + "/\(trip)" + Home.tripFileSuffix
    }

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
