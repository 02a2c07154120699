import Foundation

/// What replaying a trip's edit journal found, kept with the trip that was read
/// (`LoadedTrip.journal`), so the holder of the home's lock can cut a torn tail away and append
/// after the last good record.
struct JournalReplay: Sendable {
    /// The journal's file.
    var path: String
    /// Where its good part ends; nil when it was stale (the replica was rewritten after it) or
    /// held no good record.
    var position: EditJournal.Position?
    /// A torn tail dropped, not yet cut away.
    var torn: EditJournal.TornTail?
    /// Whether the journal is stale (to be removed).
    var stale: Bool
    /// How many records were replayed.
    var replayed: Int
}

extension Home {
    /// The edit journal of a trip: `trips/<tripId>.journal`, beside its replica.
    func journalPath(for trip: TripID) -> String {
        tripsPath + "/\(trip).journal"
    }

    /// Replays the trip's edit journal, when there is one, over `loaded` (its replica, read from
    /// `replicaPath`): every reader of the home's replicas goes through here (`listTrips`,
    /// `readReplica`), so none shows the trip without its latest edits. A torn tail is dropped
    /// with a warning naming the journal; a journal corrupt in its middle, of a newer format, or
    /// not a journal refuses the trip with an error naming the journal (and the offset).
    func replayJournal(into loaded: inout LoadedTrip, replicaPath: String) throws(TripFileError) {
        let trip = loaded.document.tripID
        let journal = EditJournal(path: journalPath(for: trip))
        func refusal(_ failure: EditJournal.Failure) -> TripFileError {
            let at = failure.offset.map { " (at byte \($0))" } ?? ""
            return TripFileError(
                .invalid, file: journal.path,
                message:
                    "this trip's edit journal cannot be replayed\(at): \(failure.message). The replica \(replicaPath) itself is intact; "
                    + "moving the journal away opens the trip without the edits saved since the journal began (they would be lost), so keep a copy of it")
        }
        let contents: EditJournal.Contents?
        do {
            contents = try journal.read()
        } catch {
            throw refusal(error)
        }
        guard let contents else { return }
        var replay = JournalReplay(path: journal.path, position: contents.position, torn: contents.torn, stale: false, replayed: 0)
        if contents.position.records > 0 {
            let base: [UInt8]
            let stamp = EditJournal.stamp(of: replicaPath)
            do {
                base = try EditJournal.digest(ofFile: replicaPath)
            } catch {
                throw TripFileError(.unreadable, file: replicaPath, message: "cannot read the replica to check its edit journal against it (\(error))")
            }
            if base != contents.position.base {
                // Written before the replica's last whole rewrite, which holds its records.
                replay.stale = true
                replay.position = nil
                replay.torn = nil
                loaded.journal = replay
                return
            }
            var document = loaded.document
            for (index, payload) in contents.payloads.enumerated() {
                let offset = payload.startIndex - EditJournal.recordHeaderSize
                do throws(EditJournal.Failure) {
                    try JournalDelta.decode(payload).get().apply(to: &document)
                } catch {
                    throw refusal(EditJournal.Failure(message: "record \(index + 1): \(error.message)", offset: offset))
                }
            }
            loaded.document = document
            replay.replayed = contents.payloads.count
            replay.position?.replica = stamp
        } else {
            replay.position = nil
        }
        if let torn = contents.torn {
            loaded.warnings.append(
                ValidationIssue(
                    .warning, pointer: "",
                    message:
                        "\(journal.path): dropped a torn record at its end (\(torn.count) bytes from byte \(torn.offset): \(torn.reason)), an edit whose save was cut off and never reported as saved; \(contents.position.records) saved edit\(contents.position.records == 1 ? "" : "s") before it kept"
                ))
        }
        loaded.journal = replay
    }

    /// The trip's replica read as `listTrips` reads it, with its journal replayed: for readers
    /// of one trip (sync, a store reading the trip back).
    func readReplica(_ trip: TripID, reader: TripFileReader = TripFileReader()) throws(TripFileError) -> LoadedTrip {
        let path = replicaPath(for: trip)
        var loaded = try reader.read(path: path)
        try replayJournal(into: &loaded, replicaPath: path)
        return loaded
    }

    /// Under the home's lock: a torn tail cut away, a stale journal removed (what `replay`
    /// found); returns where the journal ends now (nil: there is none).
    func settleJournal(_ replay: JournalReplay?) throws(FileSystemError) -> EditJournal.Position? {
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
    /// it reads the replica. Nothing to do without a journal.
    func foldJournal(_ trip: TripID, reader: TripFileReader = TripFileReader()) throws {
        let journalPath = journalPath(for: trip)
        guard FileManager.default.fileExists(atPath: journalPath) else { return }
        let path = replicaPath(for: trip)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let loaded = try readReplica(trip, reader: reader)
        if let replay = loaded.journal, replay.replayed > 0, !replay.stale {
            try loaded.document.write(to: path)
        }
        try EditJournal(path: journalPath).remove()
    }
}
