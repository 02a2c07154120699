import TripSyncPlatform
import TripSyncCore
import TripSyncHome

extension TripStore {
    /// Writes the trip's replica view (`ReplicaView`, docs/DESIGN.md "The replica view") when
    /// the one on disk is missing, of another replica or journal, or `QuickEdit.lagLimit / 2`
    /// records or more behind the journal: the trip as this store holds it now, which is the
    /// replica and its whole journal. Nothing is written for a trip read with warnings or with
    /// an identity still to save (a quick edit would not show those). The view is a cache: when
    /// it cannot be written, edits read the trip whole, and the error says so. `force` writes it
    /// even when the one on disk would do.
    package func refreshView(force: Bool = false) throws {
        try locked {
            guard !forgotten, !unsaved, warnings.isEmpty, storedNotices.isEmpty else { return }
            let tripID = state.document.tripID
            let replica = state.path
            let viewPath = home.layout.view(tripID)
            let stamp = EditJournal.stamp(of: replica)
            guard stamp.count == 4 else { return }
            let journalPath = home.journalPath(for: tripID)
            var journalBytes: [UInt8] = []
            if let position = state.journal {
                journalBytes = try FileIO.readFile(journalPath, maxBytes: EditJournal.maxBytes)
                guard journalBytes.count >= position.length else { return }
                journalBytes.removeSubrange(position.length...)
            }
            let journalDigest = Sodium.blake2b256(journalBytes)
            let records = state.journal?.records ?? 0
            if !force, let view = ReplicaView.load(viewPath), view.holds(replicaStamp: stamp), view.journalLength <= journalBytes.count,
                view.journalDigest == Sodium.blake2b256(Array(journalBytes[0..<view.journalLength])),
                records - view.journalRecords < QuickEdit.lagLimit / 2
            {
                return
            }
            let digest = try state.journal?.base ?? EditJournal.digest(ofFile: replica)
            guard EditJournal.stamp(of: replica) == stamp else { return }
            do {
                try ReplicaView.write(
                    state.document, replicaStamp: stamp, replicaDigest: digest, journalLength: journalBytes.count, journalRecords: records,
                    journalDigest: journalDigest, to: viewPath)
            } catch {
                throw FileSystemError(
                    path: viewPath, message: "the edit is saved, but the trip's view (a cache that lets the next edit skip reading every item) could not be written: \(error); edits read the trip whole until it is")
            }
        }
    }
}
