import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// Bringing a trip file into a home (`tripsync import`): first `prepare` reads the file as
/// untrusted input and says what it holds and what each choice would do, without changing
/// anything or holding the home's lock (a person may take their time to answer); then `apply`
/// merges it into the home's copy or replaces that copy, under the lock, and refuses when the
/// home's copy changed in between (docs/DESIGN.md, "The app API").
public struct TripImport: Sendable {
    /// What to do with the file.
    public enum Mode: String, Sendable, Encodable {
        /// Merge it into the home's copy of the trip (or add the trip).
        case merge
        /// Make it the home's copy; the current one is kept in `trips/backups/`.
        case replace
    }

    /// Why an import was refused; nothing was changed.
    package enum Refusal: Error, Sendable, CustomStringConvertible {
        /// A device in the file wrote with a clock far ahead of this machine's.
        case clockFromTheFuture(file: String, message: String)
        /// The home's copy changed between `prepare` and `apply`.
        case changedMeanwhile(path: String)
        /// The file is not taken by the rule sync applies (docs/DESIGN.md, "Every entrance
        /// checks the same way"): another owner, an owner claim for a trip held open, an
        /// unsigned or older copy of an owned trip, a non-member's or a viewer's file.
        case notAccepted(file: String, message: String)
        /// Another device's file claims counters of this device it never issued (`ForkCheck`):
        /// only this device's key signs its counters, so the file is not taken.
        case claimsOurCounters(file: String, message: String)

        /// What a person reads.
        package var description: String {
            switch self {
            case .clockFromTheFuture(let file, let message), .claimsOurCounters(let file, let message): return "\(file): \(message)"
            case .changedMeanwhile(let path):
                return "\(path): the trip changed in this home while the import was waiting for an answer; nothing was changed, run the import again"
            case .notAccepted(let file, let message): return "\(file): \(message); nothing was changed"
            }
        }
    }

    /// The file as named.
    public let file: String
    /// What it holds, read and validated (migrated in memory when older).
    public let incoming: LoadedTrip
    /// The home.
    package let home: Home
    /// The home's copy of the trip when prepared, if it holds the trip.
    public let existing: TripDocument?
    /// Other trip files of the home that cannot be read (to tell a person).
    package let skipped: [HomeTrips.Unreadable]
    /// A notice when opening the home re-keyed it (a copied or restored home).
    public let notice: String?
    private let deviceID: DeviceID

    /// Reads `file` and the home's copy of its trip. Throws `TripFileError` (the file is
    /// refused), `Refusal.clockFromTheFuture`, `TripStoreError.unreadable` (the home's copy of
    /// this trip cannot be read: merging into it or replacing it would decide from a file
    /// nobody can read) or `.busy`.
    /// `held`: the home's lock when the caller holds it already (`TripHome.prepareImport`).
    package static func prepare(file: String, into home: Home, holding held: HomeLock? = nil) throws -> TripImport {
        // Sealed files open with the home's keys (a backup of a trip this home is a member of).
        let loaded = try home.tripFileReader().read(path: file)
        if let (device, skew) = ClockGuard.futureDevice(in: loaded.document, nowMilliseconds: FileMerger.wallClockMilliseconds()) {
            throw Refusal.clockFromTheFuture(file: file, message: ClockGuard.describe(device: device, skewMilliseconds: skew))
        }
        let lock = try held ?? TripStore.takeLock(home)
        defer { withExtendedLifetime(lock) {} }
        let (identity, notice) = try home.openIdentity()
        let listing = try home.listTrips()
        let tripID = loaded.document.tripID
        if let broken = listing.unreadable(tripID) { throw TripStoreError.unreadable(broken) }
        // A claim on this device's counters in another device's file is refused here as in sync
        // (`ForkCheck`); evidence in a file of our own id re-keys when the replica is opened.
        let existing = listing.trip(tripID)?.document
        let owned = (existing?.owner ?? loaded.document.owner) != nil
        let writer = loaded.document.devices[loaded.document.deviceID]?.name.value ?? loaded.document.deviceID.description
        if case .refuse(let reason) = ForkCheck.decide(
            loaded.document, local: existing, identity: identity, clock: HybridLogicalClock(highWater: identity.highWater), ownForks: [], path: file,
            writer: "\(writer) (\(loaded.document.deviceID.description.prefix(8)))", owned: owned, ourKey: nil)
        {
            throw Refusal.claimsOurCounters(file: file, message: reason + "; nothing was imported")
        }
        return TripImport(
            file: file, incoming: loaded, home: home, existing: existing,
            skipped: listing.unreadable, notice: notice, deviceID: identity.deviceID)
    }

    /// The newest change the file holds (from its clock, in whole seconds).
    public var newestChange: UTCTimestamp {
        UTCTimestamp(millisecondsSinceEpoch: incoming.document.clock.maxCounter)
    }

    /// How many days older than the tombstone retention the file is, when it is: such a
    /// backup's items deleted here stay deleted (their tombstones outlive any stale copy).
    public var daysPastRetention: Int64? {
        let age = UTCTimestamp.now.secondsSinceEpoch - newestChange.secondsSinceEpoch
        return age > RetentionPolicy.standard.retentionSeconds ? age / 86_400 : nil
    }

    /// The file's items that are deleted in the home's copy: a merge keeps them deleted.
    public var deletedHere: [ItemID] {
        guard let existing else { return [] }
        return incoming.document.items.keys.filter { existing.tombstones[$0] != nil }.sorted()
    }

    /// The changes of this device in the home's copy that were never published and that the
    /// file does not hold: what `.replace` discards (empty for a merge or a new trip).
    public var discardedByReplace: [DeliveryStatus.Change] {
        guard let existing else { return [] }
        let status = DeliveryStatus(existing, me: deviceID, now: .now)
        return status.unpublishedChanges(notSeenBy: incoming.document)
    }

    /// What `apply` did.
    public struct Outcome: Sendable {
        /// The trip as saved.
        public var document: TripDocument
        /// This laptop's identity, as the import saved it.
        package var identity: DeviceIdentity
        /// Where the replaced copy was kept (`.replace` of a trip the home held).
        public var backup: String?
        /// Notices from opening the home at apply time.
        public var notices: [String]
    }

    /// Why `mode` would refuse the file by the acceptance of sync, or nil when it is taken. A
    /// merge takes the file only when sync would take it whole from the folder; a replace only
    /// when it names the owner the home's copy names (an open copy never replaces an owned
    /// one, an owned copy never an open one: a claim is made by `members claim` or an invite).
    public func refusal(for mode: Mode) -> String? {
        guard let existing else { return nil }
        let document = incoming.document
        switch mode {
        case .merge:
            let writer = document.deviceName(document.deviceID)
            let name = "\(writer) (\(document.deviceID.description.prefix(8)))"
            switch Membership(local: existing, trusted: nil, inputs: [document], signers: [incoming.signedBy]).verdict(for: document, signedBy: incoming.signedBy, name: name) {
            case .whole: return nil
            case .acksOnly: return "device \(name) is a viewer of this trip: its changes are not taken (sync takes only its acks)"
            case .skipped(let what, let remedy):
                let reason = MembershipRemedy.message(what, remedy)
                return document.owner == nil && existing.owner != nil && incoming.sourceSchemaVersion < 3
                    ? "a schema \(incoming.sourceSchemaVersion) copy (no owner, no signatures) of a trip owned by key \(existing.owner?.key.fingerprint ?? ""): it is not merged into it (\(reason))"
                    : reason
            }
        case .replace:
            switch (existing.owner, document.owner) {
            case (nil, nil): return nil
            case (let held?, let named?) where held.key == named.key:
                // The acceptance of sync (docs/DESIGN.md, "Every entrance checks the same way"): a
                // copy of an owned trip replaces this laptop's only when sync would take it whole,
                // or when this laptop's own key signed it (its own backup, or the copy a replace
                // kept): never an unsigned copy (the folder's host can write one), a removed
                // member's or a viewer's.
                let writer = document.deviceName(document.deviceID)
                let name = "\(writer) (\(document.deviceID.description.prefix(8)))"
                let verdict = Membership(local: existing, trusted: nil, inputs: [document], signers: [incoming.signedBy])
                    .verdict(for: document, signedBy: incoming.signedBy, name: name)
                if verdict == .whole { return nil }
                if let signer = incoming.signedBy, let ours = try? home.signingKey(for: deviceID).publicKey, signer == ours { return nil }
                switch verdict {
                case .whole: return nil
                case .acksOnly: return "device \(name) is a viewer of this trip: sync takes none of its changes, so its copy does not replace this one"
                case .skipped(let what, let remedy): return MembershipRemedy.message(what, remedy) + "; sync would not take it, so it does not replace this copy"
                }
            case (let held?, let named?):
                return "the file names another owner (key \(named.key.fingerprint)) than this trip's (key \(held.key.fingerprint))"
            case (let held?, nil): return "the file is an open copy (no owner, no signatures) of a trip owned by key \(held.key.fingerprint)"
            case (nil, let named?):
                return "the file claims an owner (key \(named.key.fingerprint)) for a trip this laptop holds as open; claim it if the trip is yours, or join with the owner's invite"
            }
        }
    }

    /// Merges or replaces, under the home's lock, and saves durably. Throws
    /// `Refusal.notAccepted` when sync would not take the file (`refusal(for:)`),
    /// `Refusal.changedMeanwhile` when the home's copy is not the one prepared, `MergeError`
    /// when the merge refuses (different trips), `FileSystemError` when the backup or the trip
    /// cannot be written (then nothing was changed).
    package func apply(_ mode: Mode) throws -> Outcome {
        try apply(mode, holding: TripStore.takeLock(home))
    }

    /// Merges or replaces under a lock the caller holds already (`TripHome.apply`).
    package func apply(_ mode: Mode, holding lock: HomeLock) throws -> Outcome {
        defer { withExtendedLifetime(lock) {} }
        let (identity, notice) = try home.openIdentity()
        let tripID = incoming.document.tripID
        let listing = try home.listTrips()
        if let broken = listing.unreadable(tripID) { throw TripStoreError.unreadable(broken) }
        let current = listing.trip(tripID)?.document
        guard current == existing else { throw Refusal.changedMeanwhile(path: home.replicaPath(for: tripID)) }
        if let refusal = refusal(for: mode) { throw Refusal.notAccepted(file: file, message: refusal) }
        var document = incoming.document
        var backup: String?
        var lateNotices: [String] = []
        if let current {
            switch mode {
            case .merge:
                // A removed device is judged by its own dots here too, as in sync (docs/DESIGN.md,
                // "A removed device is judged by its own dots"): its writes above the removal's
                // `seen` are taken from neither side, whichever file carries them.
                var taken = incoming.document
                var held = current
                var bounds = Membership(local: current, trusted: nil, inputs: [taken], signers: [incoming.signedBy]).lateWriteBounds
                for id in [identity.deviceID] + identity.formerIDs { bounds[id] = nil }
                if !bounds.isEmpty, taken.mayHoldLateWrites(bounds) || held.mayHoldLateWrites(bounds) {
                    let (dropped, kept) = taken.dropLateWrites(bounds, restoringFrom: current)
                    let (droppedHere, keptHere) = held.dropLateWrites(bounds, restoringFrom: incoming.document)
                    if dropped + droppedHere > 0 {
                        lateNotices.append(
                            "\(file) and this laptop's copy carry \(dropped + droppedHere) change(s) of removed members made after their removal; not taken, as on every laptop that holds the removal\(kept + keptHere > 0 ? " (\(kept + keptHere) kept: nothing older is known for them)" : "")")
                    }
                }
                document = try DocumentMerger.merge(held, taken, writer: identity.deviceID)
                // Limits hold for the merged state, as in sync.
                if let problem = document.limitProblem {
                    throw Refusal.notAccepted(file: file, message: "merging it would put the trip past a limit every reader holds (\(problem))")
                }
            case .replace:
                // An owned trip's kept copy is signed with this device's key, so replacing back
                // with it (an undo) passes the same check as any other copy.
                let signing = current.owner == nil ? nil : try home.signingKey(for: identity.deviceID)
                backup = try home.keepBackup(of: current, signingKey: signing, nowMilliseconds: FileMerger.wallClockMilliseconds())
            }
        }
        var state = ReplicaState(home: home, identity: identity, document: document)
        try state.registerDevice(now: FileMerger.wallClockMilliseconds())
        try state.save()
        return Outcome(document: state.document, identity: state.identity, backup: backup, notices: (notice.map { [$0] } ?? []) + lateNotices + state.notices)
    }
}

extension TripImport.Refusal: TripSyncError {
    /// `.refused`: an import refused.
    package var errorKind: TripSyncErrorKind { .refused }
}
