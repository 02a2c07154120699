import TripSyncPlatform
import TripSyncCore
import TripSyncHome

extension TripStore {
    /// Writes the trip's replica view (`ReplicaView`, docs/DESIGN.md "The replica view") when
    /// the one on disk is missing, of another replica or journal, or `QuickEdit.lagLimit / 2`
    /// records or more behind the journal: the trip as this store holds it now, which is the
    /// replica and its whole journal. The home's other trips kept by `open(keepingOthers:)` get
    /// a view too when theirs is missing or not current (a quick edit chooses among every
    /// trip's view), and are dropped. Nothing is written for a trip read with warnings or with
    /// an identity still to save (a quick edit would not show those). The view is a cache: when
    /// it cannot be written, edits read the trip whole, and the error says so. `force` writes
    /// this trip's view even when the one on disk would do.
    package func refreshView(force: Bool = false) throws {
        try locked {
            let others = otherTrips
            otherTrips = []
            guard !forgotten, !unsaved, warnings.isEmpty, storedNotices.isEmpty else { return }
            try TripStore.writeView(
                of: state.document, home: home, journal: state.journal, lagAllowed: force ? 0 : QuickEdit.lagLimit / 2)
            for other in others where other.warnings.isEmpty {
                // A journal that is stale or torn is settled by that trip's own next open.
                guard let replay = other.journal else {
                    try TripStore.writeView(of: other.document, home: home, journal: nil, lagAllowed: Int.max)
                    continue
                }
                guard !replay.stale, replay.torn == nil, let position = replay.position else { continue }
                try TripStore.writeView(of: other.document, home: home, journal: position, lagAllowed: Int.max)
            }
        }
    }

    /// Writes the view of `document`, the trip as its replica and the journal up to `journal`
    /// hold it (nil: no journal), unless the view on disk is of this replica and journal and
    /// lags it by fewer than `lagAllowed` records.
    private static func writeView(of document: TripDocument, home: Home, journal: EditJournal.Position?, lagAllowed: Int) throws {
        let tripID = document.tripID
        let replica = home.replicaPath(for: tripID)
        let viewPath = home.layout.view(tripID)
        let stamp = EditJournal.stamp(of: replica)
        guard stamp.count == 4 else { return }
        var journalBytes: [UInt8] = []
        if let position = journal {
            journalBytes = try FileIO.readFile(home.journalPath(for: tripID), maxBytes: EditJournal.maxBytes)
            guard journalBytes.count >= position.length else { return }
            journalBytes.removeSubrange(position.length...)
        }
        let records = journal?.records ?? 0
        if let view = ReplicaView.load(viewPath), view.holds(replicaStamp: stamp), view.holdsPrefix(ofJournal: journalBytes),
            records - view.journalRecords < lagAllowed
        {
            return
        }
        let digest = try journal?.base ?? EditJournal.digest(ofFile: replica)
        guard EditJournal.stamp(of: replica) == stamp else { return }
        do {
            try ReplicaView.write(
                document, replicaStamp: stamp, replicaDigest: digest, journalLength: journalBytes.count, journalRecords: records,
                journalDigest: Sodium.blake2b256(journalBytes), to: viewPath)
        } catch {
            throw FileSystemError(
                path: viewPath,
                message:
                    "the edit is saved, but the trip's view (a cache that lets the next edit skip reading every item) could not be written: \(error); edits read the trip whole until it is"
            )
        }
    }
}
