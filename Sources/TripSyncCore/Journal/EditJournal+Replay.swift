
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension EditJournal {
    /// The suffix of a journal's file name, beside `<tripId>.trip.json.gz`.
    package static let fileSuffix = ".journal"

    /// The suffix of a replica's file name in a home (`Home.tripFileSuffix` is this one): here,
    /// below the home, because the reader finds a replica's journal from the replica's name.
    package static let replicaSuffix = ".trip.json.gz"

    /// The journal beside a replica named `<name>.trip.json.gz` (`<name>.journal`); nil for a
    /// path not named like a replica.
    package static func path(forReplica path: String) -> String? {
        guard path.hasSuffix(replicaSuffix) else { return nil }
        return String(path.dropLast(replicaSuffix.count)) + fileSuffix
    }

    /// What replaying a journal over a replica found, kept with the trip read
    /// (`LoadedTrip.journal`), so the holder of the home's lock can cut a torn tail away and
    /// append after the last good record.
    package struct Replay: Sendable {
        /// The journal's file.
        package var path: String
        /// Where its good part ends; nil when it was stale (the replica was rewritten after it)
        /// or held no good record.
        package var position: Position?
        /// A torn tail dropped, not yet cut away.
        package var torn: TornTail?
        /// Whether the journal is stale (to be removed).
        package var stale: Bool
        /// How many records were replayed.
        package var replayed: Int
    }

    /// A journal as a reader found it, read BEFORE the replica: a fold that happens meanwhile
    /// then shows as a stale journal (its base is not the new replica), never as a replica
    /// without the journal's edits.
    package enum Probe: Sendable {
        case found(path: String, Contents)
        case failed(path: String, Failure)
    }

    /// The journal beside the replica at `replicaPath`, read and parsed; nil when there is none.
    package static func probe(replica replicaPath: String) -> Probe? {
        guard let path = path(forReplica: replicaPath) else { return nil }
        do {
            guard let contents = try EditJournal(path: path).read() else { return nil }
            return .found(path: path, contents)
        } catch {
            return .failed(path: path, error)
        }
    }

    /// Replays what `probe` found over `loaded`, the replica read from `replicaPath` whose file
    /// bytes have the BLAKE2b-256 `digest`. Each record is decoded, checked (its values against
    /// its own clock, as a reader checks a file: `DocumentValidator`) and applied in order. A
    /// torn tail is dropped with a warning naming the journal; a journal corrupt in its middle,
    /// of a newer format, not a journal, or holding a record that does not check refuses the
    /// trip with an error naming the journal (and the offset).
    package static func replay(_ probe: Probe, digest: [UInt8], into loaded: inout LoadedTrip, replicaPath: String, zones: ZoneRules) throws(TripFileError) {
        func refusal(_ path: String, _ failure: Failure) -> TripFileError {
            return TripFileError(
                .invalid, file: path,
                message:
                    "this trip's edit journal cannot be replayed: \(failure.message). The replica \(replicaPath) itself is intact; "
                    + "moving the journal away opens the trip without the edits saved since the journal began (they would be lost), so keep a copy of it")
        }
        let path: String
        let contents: Contents
        switch probe {
        case .failed(let journal, let failure): throw refusal(journal, failure)
        case .found(let journal, let found): (path, contents) = (journal, found)
        }
        var replay = Replay(path: path, position: contents.position, torn: contents.torn, stale: false, replayed: 0)
        guard contents.position.records > 0 else {
            replay.position = nil
            if let torn = contents.torn { loaded.warnings.append(warning(path, torn, kept: 0)) }
            loaded.journal = replay
            return
        }
        guard digest == contents.position.base else {
            // Written before the replica's last whole rewrite, which holds its records.
            replay.stale = true
            replay.position = nil
            replay.torn = nil
            loaded.journal = replay
            return
        }
        var document = loaded.document
        let validator = DocumentValidator(zones: zones)
        for (index, payload) in contents.payloads.enumerated() {
            let offset = payload.startIndex - recordHeaderSize
            do throws(Failure) {
                let delta = try JournalDelta.decode(payload).get()
                try delta.check(against: document, validator: validator)
                try delta.apply(to: &document)
            } catch {
                throw refusal(path, Failure(message: "record \(index + 1) (at byte \(offset)) is \(error.message)", offset: offset))
            }
        }
        loaded.document = document
        replay.replayed = contents.payloads.count
        replay.position?.replica = stamp(of: replicaPath)
        if let torn = contents.torn { loaded.warnings.append(warning(path, torn, kept: contents.position.records)) }
        loaded.journal = replay
    }

    /// The warning for a torn tail dropped.
    package static func warning(_ path: String, _ torn: TornTail, kept: Int) -> ValidationIssue {
        ValidationIssue(
            .warning, pointer: "",
            message:
                "\(path): dropped a torn record at its end (\(torn.count) bytes from byte \(torn.offset): \(torn.reason)), an edit whose save was cut off and never reported as saved; the \(kept) saved edit\(kept == 1 ? "" : "s") before it kept"
        )
    }
}
