import TripSyncCore
import TripSyncPlatform

/// One input of a file merge, as read.
package struct MergeInput: Sendable {
    /// The file as named by the caller.
    package var file: String
    /// The schema version the file was written in.
    package var schemaVersion: Int
    /// The device that wrote it.
    package var deviceID: DeviceID
    /// What it brought, measured against the inputs merged before it.
    package var brought: MergeContribution
    /// Warnings found while reading it.
    package var warnings: [ValidationIssue]
    /// Registers where this input and the inputs merged before it hold different values under
    /// one dot (a forked device); both values are kept in the result.
    package var forks: [SameDotFork] = []
    /// Whether it was sealed (opened with the home's keys).
    package var wasSealed = false
}

/// The result of merging trip files.
package struct FileMergeResult: Sendable {
    /// The merged document (written by `writer`).
    package var document: TripDocument
    /// Every input in the order given, with what it brought.
    package var inputs: [MergeInput]
    /// The decoded inputs after the first, when the merger was asked to keep them
    /// (`FileMerger.keepsInputs`); empty otherwise.
    package var keptInputs: [TripDocument] = []
}

/// Why a file merge was refused; nothing was written.
package enum FileMergeError: Error, Sendable, CustomStringConvertible {
    /// An input could not be read or is invalid.
    case unreadable(TripFileError)
    /// The merge itself refused (different trips, a clock from the future).
    case refused(file: String, MergeError)

    /// `FILE: /pointer: message` lines.
    package var description: String {
        switch self {
        case .unreadable(let error): return error.description
        case .refused(let file, let error): return "\(file): \(error)"
        }
    }
}

/// Merges trip files of any supported schema, gzip or plain: every input is read and validated
/// first, so one invalid input refuses the whole merge.
package struct FileMerger: Sendable {
    /// How inputs are read.
    package var reader: TripFileReader
    /// The replica doing the merge (the output's `deviceId`).
    package var writer: DeviceID
    /// Whether each decoded input moves into `FileMergeResult.keptInputs` once merged, instead
    /// of being freed there and then. Freeing 100,000 items takes a noticeable part of a merge;
    /// a process that exits after writing the result can skip it by keeping them (the CLI does).
    package var keepsInputs = false

    /// Creates a merger writing as `writer`.
    package init(writer: DeviceID, reader: TripFileReader = TripFileReader()) {
        self.writer = writer
        self.reader = reader
    }

    /// Reads every file, checks clocks against `nowMilliseconds`, and merges them in order.
    package func merge(files: [String], nowMilliseconds: UInt64 = FileMerger.wallClockMilliseconds()) throws(FileMergeError) -> FileMergeResult {
        var loaded = try read(files, nowMilliseconds: nowMilliseconds)
        let (acksOnly, lateBounds) = try Self.acceptance(of: loaded)
        // The documents move out of `loaded`, so the merge can reuse the first one's maps in
        // place (no other copy holds them) and each input is freed once merged.
        let names = loaded.map(\.0)
        let metadata = loaded.enumerated().map { index, entry in
            (
                schemaVersion: entry.1.sourceSchemaVersion, deviceID: entry.1.document.deviceID, wasSealed: entry.1.wasSealed,
                warnings: entry.1.warnings
                    + (acksOnly.contains(index)
                        ? [ValidationIssue(.warning, pointer: "", message: "a viewer's file: only its own acks were taken, not its changes (as sync does)")] : [])
            )
        }
        var documents: [TripDocument?] = loaded.map { $0.1.document }
        loaded = []
        var document = Self.take(&documents[0])
        document.deviceID = writer
        var inputs: [MergeInput] = []
        var kept: [TripDocument] = []
        var lateWarnings: [Int: ValidationIssue] = [:]
        let empty = TripDocument(tripID: document.tripID, deviceID: writer, clock: VersionVector(), trip: document.trip)
        for index in names.indices {
            let file = names[index]
            let brought: MergeContribution
            var forks: [SameDotFork] = []
            if index == 0 {
                brought = MergeContribution(before: empty, after: document)
            } else {
                let other = Self.take(&documents[index])
                if acksOnly.contains(index) {
                    let before = document
                    document.takeAcks(of: other.deviceID, from: other)
                    brought = MergeContribution(before: before, after: document)
                } else {
                    // A removed device is judged by its own dots, as in sync: its writes above
                    // the removal's `seen` are taken from neither side.
                    var other = other
                    if !lateBounds.isEmpty, other.mayHoldLateWrites(lateBounds) || document.mayHoldLateWrites(lateBounds) {
                        let relayed = other
                        let (dropped, _) = other.dropLateWrites(lateBounds, restoringFrom: document)
                        let (droppedHere, _) = document.dropLateWrites(lateBounds, restoringFrom: relayed)
                        if dropped + droppedHere > 0 {
                            lateWarnings[index] = ValidationIssue(
                                .warning, pointer: "",
                                message: "\(dropped + droppedHere) change(s) of removed members made after their removal, not taken (as sync does)")
                        }
                    }
                    do {
                        brought = try DocumentMerger.mergeInPlace(&document, other, writer: writer, report: true, forks: &forks)
                    } catch {
                        throw .refused(file: file, error)
                    }
                }
                if keepsInputs { kept.append(other) }
                // Limits hold for the merged state: a result no reader would take is refused.
                if let problem = document.limitProblem {
                    throw .refused(
                        file: file,
                        MergeError(.notAccepted, message: "merging it would put the trip past a limit every reader holds (\(problem)); nothing was written"))
                }
            }
            let info = metadata[index]
            inputs.append(
                MergeInput(
                    file: file, schemaVersion: info.schemaVersion, deviceID: info.deviceID,
                    brought: brought, warnings: info.warnings + (lateWarnings[index].map { [$0] } ?? []), forks: forks,
                    wasSealed: info.wasSealed))
        }
        return FileMergeResult(document: document, inputs: inputs, keptInputs: kept)
    }


    /// Every input read and validated (on every core; items the inputs share byte for byte are
    /// decoded once, and items the merge leaves as an input held them are written by copying
    /// their bytes), each clock checked against `nowMilliseconds`.
    private func read(_ files: [String], nowMilliseconds: UInt64) throws(FileMergeError) -> [(String, LoadedTrip)] {
        var reader = reader
        reader.keepsItemBytes = true
        let results = reader.read(paths: files)
        var loaded: [(String, LoadedTrip)] = []
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let trip): loaded.append((file, trip))
            case .failure(let error): throw .unreadable(error)
            }
        }
        for (file, trip) in loaded {
            if let (device, skew) = ClockGuard.futureDevice(in: trip.document, nowMilliseconds: nowMilliseconds) {
                throw .refused(file: file, MergeError(.clockFromTheFuture, message: ClockGuard.describe(device: device, skewMilliseconds: skew)))
            }
        }
        guard !loaded.isEmpty else {
            throw .unreadable(TripFileError(.unreadable, file: "", message: "no input files"))
        }
        return loaded
    }

    /// The inputs taken for their acks only (a viewer's), and each removed device with the
    /// removal's `seen` of it (what no input's late writes may pass); throws for an input sync
    /// would refuse.
    private static func acceptance(of loaded: [(String, LoadedTrip)]) throws(FileMergeError) -> (acksOnly: Set<Int>, lateBounds: [DeviceID: UInt64]) {
        // The acceptance of sync (docs/DESIGN.md, "Every entrance checks the same way"): the first
        // input is the starting state, trusted as a home's own replica is; every other input is
        // taken whole, for its acks only (a viewer's), or refuses the merge, as sync would decide.
        var acksOnly: Set<Int> = []
        var lateBounds: [DeviceID: UInt64] = [:]
        if loaded.count > 1 {
            let membership = Membership(
                local: loaded[0].1.document, trusted: nil, inputs: loaded.dropFirst().map(\.1.document), signers: loaded.dropFirst().map(\.1.signedBy))
            lateBounds = membership.lateWriteBounds
            for index in loaded.indices.dropFirst() {
                let (file, trip) = loaded[index]
                let document = trip.document
                let writer = document.deviceName(document.deviceID)
                switch membership.verdict(for: document, signedBy: trip.signedBy, name: "\(writer) (\(document.deviceID.description.prefix(8)))") {
                case .whole: break
                case .acksOnly: acksOnly.insert(index)
                case .skipped(let what, let remedy):
                    let reason = MembershipRemedy.message(what, remedy)
                    let first = loaded[0].1.document
                    let message =
                        document.owner == nil && first.owner != nil && trip.sourceSchemaVersion < 3
                        ? "a schema \(trip.sourceSchemaVersion) copy (no owner, no signatures) of a trip owned by key \(first.owner?.key.fingerprint ?? ""), not merged into it (\(reason))"
                        : reason
                    throw .refused(file: file, MergeError(.notAccepted, message: message + "; nothing was written"))
                }
            }
        }
        return (acksOnly, lateBounds)
    }

    /// Moves a document out of its slot, leaving nil (so the slot holds no second reference).
    private static func take(_ slot: inout TripDocument?) -> TripDocument {
        var taken: TripDocument?
        swap(&taken, &slot)
        guard let taken else { preconditionFailure("each input document is taken once") }
        return taken
    }

    /// Milliseconds since 1970 from the system clock.
    package static func wallClockMilliseconds() -> UInt64 {
        SystemClock.wallMilliseconds()
    }
}

extension UTCTimestamp {
    /// The wall clock now, to the second.
    public static var now: UTCTimestamp { UTCTimestamp(millisecondsSinceEpoch: FileMerger.wallClockMilliseconds()) }
}

extension FileMergeError: TripSyncError {
    /// `.invalidFile`: a merge of files refused.
    package var errorKind: TripSyncErrorKind { .invalidFile }
}
