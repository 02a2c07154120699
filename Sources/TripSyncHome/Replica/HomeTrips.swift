import Foundation
import TripSyncPlatform
import TripSyncCore

/// The trips of a home as `Home.listTrips()` finds them: every replica that reads, and every
/// trip file that does not, with its error. One broken file affects only its own trip.
package struct HomeTrips: Sendable {
    /// A trip file of the home that could not be used, with why.
    package struct Unreadable: Sendable, CustomStringConvertible {
        /// Why a trip file could not be used.
        package enum Failure: Error, Sendable, CustomStringConvertible {
            /// The reader refused the file: it could not be opened or read (kind `.unreadable`:
            /// permissions, a folder named like a trip file), corrupt gzip, not JSON, invalid, a
            /// newer schema, or it holds another trip than its name says.
            case file(TripFileError)
            /// The file system refused outside the reader. `listTrips` does not produce it today
            /// (the reader reports unreadable files as `TripFileError`); callers that list files
            /// their own way (sync) can.
            case fileSystem(FileSystemError)

            /// One line per problem, each `FILE: /pointer: message`.
            package var description: String {
                switch self {
                case .file(let error): return error.description
                case .fileSystem(let error): return error.description
                }
            }
        }

        /// The file's path.
        package var path: String
        /// The trip the file is named for (`<tripId>.trip.json.gz`), when its name is one.
        package var tripID: TripID?
        /// Why it could not be used.
        package var failure: Failure

        /// One line per problem, each `FILE: /pointer: message`.
        package var lines: [String] { failure.description.split(separator: "\n").map(String.init) }

        /// The problems, one per line.
        package var description: String { failure.description }
    }

    /// The replicas that read, in file-name order.
    package var trips: [LoadedTrip]
    /// The trip files that did not, in file-name order.
    package var unreadable: [Unreadable]

    /// Creates a listing.
    package init(trips: [LoadedTrip], unreadable: [Unreadable]) {
        self.trips = trips
        self.unreadable = unreadable
    }

    /// The readable replica of `tripID`, if any.
    package func trip(_ tripID: TripID) -> LoadedTrip? {
        trips.first { $0.document.tripID == tripID }
    }

    /// Names that several readable trips share (two joins of trips named alike), each with
    /// those trips (`named`), by name: `--trip NAME` then answers with the list, and `rename`
    /// tells them apart.
    package var sharedNames: [(name: String, trips: [TripID])] {
        let byName = Dictionary(grouping: trips, by: { $0.document.trip.name.value })
        return byName.filter { $0.value.count > 1 }.keys.sorted().map { name in (name, named(name).map(\.document.tripID)) }
    }

    /// The readable trips named `name`, the one named first (by the rev of its name) first.
    package func named(_ name: String) -> [LoadedTrip] {
        trips.filter { $0.document.trip.name.value == name }
            .sorted { ($0.document.trip.name.rev.counter, $0.document.tripID) < ($1.document.trip.name.rev.counter, $1.document.tripID) }
    }

    /// The unreadable file named for `tripID`, if any: a command meant for that trip must be
    /// refused with its error rather than treat the trip as missing.
    package func unreadable(_ tripID: TripID) -> Unreadable? {
        unreadable.first { $0.tripID == tripID }
    }
}

extension Home {
    /// The suffix of a replica's file name.
    package static let tripFileSuffix = EditJournal.replicaSuffix

    /// Lists the trips of this home: each `trips/*.trip.json.gz` read and validated as untrusted
    /// input (on every core), with its edit journal replayed (`TripFileReader`), the readable
    /// ones in `trips` and the others in `unreadable` with their error; one broken file never
    /// hides the other trips. A file that holds another trip than its name says (`<tripId>.trip.json.gz`) is listed as unreadable, so a trip is never
    /// held twice. Sub-folders (`trips/backups/`) and other files are not trips. A home without
    /// a `trips` folder holds no trips; a `trips` folder that cannot be listed throws.
    package func listTrips(reader: TripFileReader = TripFileReader()) throws(FileSystemError) -> HomeTrips {
        let names = try FileIO.folderTextNames(tripsPath, what: "this home's trips folder")
        return readTrips(names.filter { $0.hasSuffix(Home.tripFileSuffix) && !$0.hasPrefix(".") }.sorted(), reader: reader)
    }

    /// `listTrips` for one trip: only `trips/<tripId>.trip.json.gz` is read, with the same checks;
    /// the listing holds that trip, its refusal, or nothing when the folder has no such file. What
    /// a request about one trip needs (the browser app reads its trip on every request), without
    /// reading every other trip of the home.
    package func listTrip(_ trip: TripID, reader: TripFileReader = TripFileReader()) throws(FileSystemError) -> HomeTrips {
        let file = trip.description + Home.tripFileSuffix
        guard try FileIO.folderHolds(tripsPath, name: file, what: "this home's trips folder") else {
            return HomeTrips(trips: [], unreadable: [])
        }
        return readTrips([file], reader: reader)
    }

    /// The listing of the replicas `files` (names in the trips folder).
    private func readTrips(_ files: [String], reader: TripFileReader) -> HomeTrips {
        let paths = files.map(layout.tripsFile)
        var listing = HomeTrips(trips: [], unreadable: [])
        if let onRead { paths.forEach(onRead) }
        for (index, result) in reader.read(paths: paths).enumerated() {
            let path = paths[index]
            let named = Identifier(String(files[index].dropLast(Home.tripFileSuffix.count)))
            switch result {
            case .success(let loaded):
                if let named, named == loaded.document.tripID {
                    listing.trips.append(loaded)
                } else {
                    let message =
                        "holds trip \(loaded.document.tripID), but a replica is named <tripId>.trip.json.gz of its own trip; "
                        + "importing it (merged) brings it in, then remove the file"
                    listing.unreadable.append(
                        .init(path: path, tripID: named, failure: .file(TripFileError(.invalid, file: path, pointer: "/tripId", message: message))))
                }
            case .failure(let error):
                listing.unreadable.append(.init(path: path, tripID: named, failure: .file(error)))
            }
        }
        return listing
    }

    /// The folder where a replica replaced by an import is kept (`trips/backups`); not a trip.
    package var backupsPath: String { layout.backups }

    /// Keeps `document` (the replica about to be replaced) as
    /// `trips/backups/<tripId>-<UTC timestamp>.trip.json.gz`, written durably and atomically
    /// (`FileIO.writeAtomically`) under a name no earlier backup has, signed with `signingKey`
    /// when given (an owned trip's, so it passes `import --replace`'s check); returns its path.
    package func keepBackup(of document: TripDocument, signingKey: SigningKey? = nil, nowMilliseconds: UInt64) throws -> String {
        try FileIO.makeFolder(backupsPath)
        let stamp = Home.backupStamp(secondsSinceEpoch: Int64(nowMilliseconds / 1000))
        var attempt = 1
        var path = layout.backup(document.tripID, stamp: stamp, attempt: attempt)
        while FileManager.default.fileExists(atPath: path) {
            attempt += 1
            path = layout.backup(document.tripID, stamp: stamp, attempt: attempt)
        }
        let bytes = try signingKey.map { try document.signedGzipData(signingKey: $0) } ?? document.gzipData()
        try FileIO.writeAtomically(bytes, to: path)
        return path
    }

    /// `20270610T101500Z`: a UTC time that sorts as text and is safe in a file name.
    static func backupStamp(secondsSinceEpoch: Int64) -> String {
        UTCTimestamp(secondsSinceEpoch: secondsSinceEpoch).description.filter { $0 != "-" && $0 != ":" }
    }
}

extension Home {
    /// Removes a trip's replica and its local settings from the home (those that exist) and
    /// syncs the folder so the removal is durable; returns the paths removed. `TripStore.forget`
    /// keeps a backup first.
    package func removeTripFiles(_ trip: TripID) throws -> [String] {
        var removed: [String] = []
        for path in [replicaPath(for: trip), settingsPath(for: trip)] where try FileIO.removeDurably(path) {
            removed.append(path)
        }
        // The replica's edit journal is part of the replica (its path stands for both), and
        // its view a cache of the two.
        try FileIO.removeDurably(journalPath(for: trip))
        try FileIO.removeDurably(layout.view(trip))
        return removed
    }
}

extension HomeTrips.Unreadable.Failure: TripSyncError {
    /// `.unreadableReplica`: a replica that cannot be read.
    package var errorKind: TripSyncErrorKind { .unreadableReplica }
}
