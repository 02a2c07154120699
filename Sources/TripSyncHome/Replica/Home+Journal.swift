import Foundation
import TripSyncPlatform
import TripSyncCore

extension Home {
    /// The edit journal of a trip: `trips/<tripId>.journal`, beside its replica.
    package func journalPath(for trip: TripID) -> String {
        layout.journal(trip)
    }

    /// The trip's replica read as `listTrips` reads it, with its journal replayed (`TripFileReader` replays the journal beside any replica it reads by path): for readers
    /// of one trip (sync, a store reading the trip back).
    package func readReplica(_ trip: TripID, reader: TripFileReader = TripFileReader()) throws(TripFileError) -> LoadedTrip {
        onRead?(replicaPath(for: trip))
        return try reader.read(path: replicaPath(for: trip))
    }

    /// Under the home's lock: a torn tail cut away, a stale journal removed (what `replay`
    /// found); returns where the journal ends now (nil: there is none).
    package func settleJournal(_ replay: EditJournal.Replay?) throws(FileSystemError) -> EditJournal.Position? {
        guard let replay else { return nil }
        let journal = EditJournal(path: replay.path)
        if replay.stale {
            try journal.remove()
            return nil
        }
        guard replay.torn != nil else { return replay.position }
        let position = replay.position ?? EditJournal.Position(base: [], length: 0, records: 0)
        try journal.truncate(to: position)
        return replay.position
    }

    /// Under the home's lock: folds the trip's journal into its replica (the replica rewritten
    /// whole and durably with every record, then the journal removed), as every sync does before
    /// it reads the replica. Nothing to do without a journal. Returns the trip as it now is on
    /// disk when this read it (so the sync need not read it again), nil when there was nothing
    /// to fold.
    @discardableResult
    package func foldJournal(_ trip: TripID, reader: TripFileReader = TripFileReader()) throws -> TripDocument? {
        let journalPath = journalPath(for: trip)
        guard FileManager.default.fileExists(atPath: journalPath) else { return nil }
        let path = replicaPath(for: trip)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let loaded = try readReplica(trip, reader: reader)
        if let replay = loaded.journal, replay.replayed > 0, !replay.stale {
            try loaded.document.write(to: path)
        }
        try EditJournal(path: journalPath).remove()
        return loaded.document
    }
}
