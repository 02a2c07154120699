import Foundation
import TripSyncPlatform
import TripSyncCore

extension Home {
    /// Where a trip's replica lives in this home: `trips/<tripId>.trip.json.gz`.
    package func replicaPath(for trip: TripID) -> String {
        layout.replica(trip)
    }

    /// The trips in this home, read and validated (each file as untrusted input); throws the
    /// first unreadable file's error (`TripFileError`) or `FileSystemError`. Commands use
    /// `listTrips()`, which keeps the readable trips when one file is broken.
    package func trips(reader: TripFileReader = TripFileReader()) throws -> [LoadedTrip] {
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
    package func settingsPath(for trip: TripID) -> String {
        layout.settings(trip)
    }

    /// A free-form local setting for a trip (the default zone of `new --zone`): never replicated.
    /// Nil when the trip has no settings file or the file sets no zone; a file that cannot be
    /// read throws `FileSystemError`, one that is not JSON or whose `defaultZone` is not a zone
    /// id throws `TripFileError`, so a broken setting is told, never taken for "no setting".
    package func defaultZone(for trip: TripID) throws -> String? {
        let path = settingsPath(for: trip)
        guard let value = try settings(for: trip)["defaultZone"], value != .null else { return nil }
        guard let zone = value.stringValue, ZoneID.isWellFormed(zone) else {
            throw TripFileError(.invalid, file: path, pointer: "/defaultZone", message: ZoneID.expectation(found: value.stringValue ?? value.text))
        }
        return zone
    }

    /// Saves the trip's default zone (the other settings kept).
    package func setDefaultZone(_ zone: String, for trip: TripID) throws {
        try updateSettings(for: trip) { $0["defaultZone"] = .string(zone) }
    }

    /// The shared folder this home last synced the trip with (an absolute path), when any:
    /// what `sync` without a folder uses. Throws as `defaultZone` does for a broken file.
    package func lastFolder(for trip: TripID) throws -> String? {
        guard let value = try settings(for: trip)["lastFolder"], value != .null else { return nil }
        guard let folder = value.stringValue, folder.hasPrefix("/"), !folder.contains("\0") else {
            throw TripFileError(
                .invalid, file: settingsPath(for: trip), pointer: "/lastFolder", message: "expected an absolute folder path, found \(value.text.prefix(80))")
        }
        return folder
    }

    /// Records `folder` (made absolute against the working folder) as the trip's last shared
    /// folder; writes nothing when it is already the one recorded.
    package func recordLastFolder(_ folder: String, for trip: TripID) throws {
        let absolute = Home.absolutePath(folder)
        if try settings(for: trip)["lastFolder"] == .string(absolute) { return }
        try updateSettings(for: trip) { $0["lastFolder"] = .string(absolute) }
    }

    /// `path` made absolute against the working folder, with `.` parts and a trailing `/` gone.
    static func absolutePath(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let parts = joined.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// The settings object of a trip (empty when the file is missing).
    func settings(for trip: TripID) throws -> [String: JSONValue] {
        let path = settingsPath(for: trip)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(path, maxBytes: 1 << 16)
        } catch let error as FileSystemError where error.code == ENOENT {
            return [:]
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch let error as TripFileError {
            throw TripFileError(.notJSON, file: path, issues: error.issues)
        }
        guard case .object(let object) = json else {
            throw TripFileError(.invalid, file: path, message: "expected an object of this home's settings for the trip (\"defaultZone\", \"lastFolder\")")
        }
        return object
    }

    /// Rewrites the trip's settings durably after `change`; a broken file is refused, never overwritten.
    func updateSettings(for trip: TripID, _ change: (inout [String: JSONValue]) -> Void) throws {
        var object = try settings(for: trip)
        change(&object)
        try FileIO.makeFolder(tripsPath)
        try FileIO.writeAtomically(Array((JSONValue.object(object).text + "\n").utf8), to: settingsPath(for: trip))
    }
}

extension Home {
    /// Where `sync` without a folder goes: the distinct folders this home last synced its trips
    /// with (`lastFolder`), or asked to join a trip through, each with the trips that used it,
    /// in path order. A broken settings file throws (`defaultZone` says how).
    package func lastFolders() throws -> [(folder: String, trips: [TripID])] {
        var byFolder: [String: [TripID]] = [:]
        let suffix = HomeLayout.settingsSuffix
        let names = try FileIO.folderTextNames(tripsPath, what: "this home's trips folder")
        for name in names.sorted() where name.hasSuffix(suffix) {
            guard let trip = Identifier(String(name.dropLast(suffix.count))), let folder = try lastFolder(for: trip) else { continue }
            byFolder[folder, default: []].append(trip)
        }
        for join in try pendingJoins() {
            let folder = Home.absolutePath(join.folder)
            if !(byFolder[folder]?.contains(join.trip) ?? false) { byFolder[folder, default: []].append(join.trip) }
        }
        return byFolder.keys.sorted().map { ($0, byFolder[$0] ?? []) }
    }
}
