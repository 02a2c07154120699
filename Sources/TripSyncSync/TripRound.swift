import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// One trip's sync in progress (`FolderSync.syncTrip`). Each stage is a method that takes the
/// values of the stages before it and returns its own: `scan` (every file of the trip folder
/// classified and read once: a `FolderScan`), `admit` (membership decides what each file may do:
/// `Admitted`), `checkForksAndMerge` (`ForkCheck` decides, the one place, then the merge:
/// `Merged`), `settleMembership` (viewers' acks, grants, requests: the replica to publish),
/// `admitJoinRequests` (the owner's invites), `deliverAttachments`, `saveLocally` and `publish`.
/// What stays stored is what the whole round shares and reports: the replica as merged so far,
/// the identity and clock (a re-key changes them), the access record, the sync state and the
/// trip's report (docs/DESIGN.md, "The sync round as a pipeline of values").
struct TripRound {
    /// What admission decided (stage 2), with the scan it judged (admission may read again the
    /// files membership skipped at an earlier sync).
    struct Admitted {
        var scan: FolderScan
        /// The owner this laptop trusts before any file says so (nil: none).
        let trusted: PublicKey?
        let membership: Membership
    }

    /// What the merge (stage 3) leaves for the stages after it.
    struct Merged {
        /// Viewers' files, whose acks only are taken (`settleMembership`).
        var viewerFiles: [(Candidate, DeviceID)] = []
        /// Our own conflicted copies merged, removed once published.
        var ownCopies: [(name: EntryName, digest: [UInt8])] = []
        /// The file we published under the id we wrote as when this trip's sync began (a re-key
        /// during the sync changes `identity`, and that file then sorts as another device's).
        var formerOwn: (name: EntryName, digest: [UInt8], id: DeviceID)?
    }

    /// A readable trip file of the trip folder and the ids it concerns, once admitted.
    typealias Candidate = FolderSync.Candidate

    let sync: FolderSync
    let tripID: TripID
    /// The trip folder in the shared folder.
    let folder: FolderHandle
    let now: UInt64
    /// The home's replica as read at the start (once per sync), nil for a trip not held here.
    let local: TripDocument?
    /// What is reported for the trip.
    var trip: SyncReport.Trip
    var identity: DeviceIdentity
    var clock: HybridLogicalClock
    /// The trip as merged so far.
    var document: TripDocument?
    var state: SyncState
    /// Set once the replica is saved (or found already as merged): `document` is the home's copy.
    var saved = false
    /// Set when a file under our id made this home take a new device id.
    var rekeyed: SyncReport.Rekey?
    var access: TripAccess
    let accessBefore: String
    /// The id this home wrote as when the trip's sync began, and its file's name.
    let startID: DeviceID
    let startName: EntryName
    /// This home's earlier ids: their files from a clock that ran ahead are ours to remove once
    /// their content, re-stamped, is in the file we publish.
    let earlierIDs: Set<DeviceID>
    /// Conflicts and unshared changes before the sync, for the report.
    let conflictsBefore: Set<String>
    let unsharedBefore: Int

    /// This device's public key by id, read from the home once per trip when an owned trip
    /// needs it (a re-key changes the id).
    private var ownPublicKeys: [DeviceID: PublicKey] = [:]

    var home: Home { sync.home }
    /// The sync's reader with the trip's epoch keys (`access`), so sealed files open.
    var reader: TripFileReader {
        var reader = sync.reader
        reader.sealKeys = OpeningKeys(trip: tripID, keys: access.epochKeys)
        return reader
    }

    /// Opens the round: the replica `local` opened as every replica is (a copy or restore
    /// noticed, a clock that ran ahead recovered: `ReplicaState`, `ForkCheck`, `ClockRecovery`),
    /// and the trip's access record.
    init(sync: FolderSync, trip: SyncReport.Trip, folder: FolderHandle, local: TripDocument?, identity: DeviceIdentity, state: SyncState, now: UInt64) throws {
        self.sync = sync
        self.tripID = trip.tripID
        self.folder = folder
        self.now = now
        self.local = local
        self.trip = trip
        self.state = state
        conflictsBefore = local.map(FolderSync.conflictKeys) ?? []
        unsharedBefore = local.map { TripRound.unsharedChanges($0, me: identity.deviceID, now: now) } ?? 0
        var identity = identity
        document = local
        clock = HybridLogicalClock(highWater: identity.highWater)
        if let local {
            let opened = ReplicaState(home: sync.home, identity: identity, document: local, now: now)
            document = opened.document
            identity = opened.identity
            clock = opened.clock
            self.trip.notices += opened.notices.map { SyncReport.Notice($0) }
        }
        self.identity = identity
        earlierIDs = Set(identity.formerIDs)
        startID = identity.deviceID
        startName = EntryName("\(identity.deviceID).trip.json.gz")
        access = try TripAccess.load(sync.home, trip.tripID)
        accessBefore = access.fingerprint
    }

    /// What this device changed that no published file held yet, as a person counts it: each
    /// item once however many fields, each attachment once, the trip's own name and zone as one
    /// change; this laptop naming itself is no change to the plan: what publishing shares.
    static func unsharedChanges(_ local: TripDocument, me: DeviceID, now: UInt64) -> Int {
        Set(
            DeliveryStatus(local, me: me, now: UTCTimestamp(millisecondsSinceEpoch: now)).changes.filter { !$0.published }
                .compactMap { change -> String? in
                    if let item = change.item { return "item \(item)" }
                    if change.field.hasPrefix("trip ") { return "trip" }
                    if change.field == "device name" { return nil }
                    return change.field.hasPrefix("attachment") || change.field == "caption" ? "attachment \(change.title)" : "\(change.field) \(change.title)"
                }
        ).count
    }

    /// This device's public key (read from the home once per trip).
    private mutating func ownKey(_ me: DeviceID) throws -> PublicKey {
        if let key = ownPublicKeys[me] { return key }
        let key = try home.signingKey(for: me).publicKey
        ownPublicKeys[me] = key
        return key
    }

    /// Stage 1, scan: every entry of the trip folder classified; each trip file read once
    /// (files unchanged since they were merged are not parsed), join requests read, temporary
    /// and foreign entries reported as skipped.
    mutating func scan() throws -> FolderScan {
        var scan = FolderScan()
        scan.skipContext = Self.membershipDigest(
            owner: document?.owner?.key, grants: document?.members ?? [:], successions: (document?.successions ?? [:]).map { ($0.key, $0.value) })
        let entries = try folder.entries()
        // The keyrings first: a file sealed with a key that arrived with them opens now.
        scan.keyrings = try openKeyrings(entries.filter { FolderSync.classify($0, me: identity.deviceID) == .keyring })
        for name in entries { scanEntry(name, into: &scan) }
        forgetSkipsOfVanishedFiles(listed: scan.listed)
        noticeClockBehind(scan)
        return scan
    }

    /// One entry of the trip folder, by its kind: a trip file read (or passed over as
    /// unchanged), a join request read, anything else reported as skipped or left alone.
    private mutating func scanEntry(_ name: EntryName, into scan: inout FolderScan) {
        let path = folder.display(name)
        let kind = FolderSync.classify(name, me: identity.deviceID)
        switch kind {
        case .ownTemporary:
            scan.ownStaleTemps.append(name)
        case .temporary:
            trip.skipped.append(.init(file: path, reason: "a temporary or partial file (still being written?), never merged in part"))
        case .notTrip:
            trip.skipped.append(.init(file: path, reason: "not a trip file (*.trip.json or *.trip.json.gz)"))
        case .ownJoinRequest, .blobs, .keyring:
            break
        case .boxAnnouncement:
            // Seen, whoever reads it (owner laptops only), so an unchanged folder stays quick.
            if let (_, stamp) = folder.kind(of: name) { state.files[path] = .init(stamp: stamp, clock: VersionVector()) }
            scan.boxFiles.append(name)
        case .joinRequest:
            scanJoinRequest(name, path: path, into: &scan)
        default:
            scanTripEntry(name, path: path, kind: kind, into: &scan)
        }
    }

    /// A join request of the folder, read when this laptop holds the owner key (only it can
    /// admit anyone) and the request is not one settled here in a file unchanged since.
    private mutating func scanJoinRequest(_ name: EntryName, path: String, into scan: inout FolderScan) {
        guard access.ownerKey != nil else { return }
        let device = String(name.display.dropLast(".join.json".count))
        if let skip = state.skips[path], let (_, stamp) = folder.kind(of: name), skip.stamp == stamp,
            let id = Identifier(device), skip.context == joinStatus(of: id)
        {
            scan.listed.insert(path)
            scan.quietRequests += 1
            return
        }
        do {
            let (bytes, _) = try readFolderFile(name, maxBytes: 64 << 10)
            let request = try JoinRequest(parsing: bytes)
            guard request.trip == tripID, name.bytes.elementsEqual(JoinRequest.fileName(for: request.device).utf8) else {
                trip.skipped.append(.init(file: path, reason: "a join request for another trip or device than its name says"))
                return
            }
            scan.listed.insert(path)
            scan.joinRequests.append((path, request))
        } catch let error as InviteError {
            trip.skipped.append(.init(file: path, reason: "a join request that cannot be used: \(error.message)"))
        } catch let error as FileSystemError {
            trip.skipped.append(.init(file: path, reason: error.message))
        } catch {
            trip.skipped.append(.init(file: path, reason: "\(error)"))
        }
    }

    /// A trip file's entry: skipped when it is no regular file, passed over when unchanged
    /// since it was merged or skipped for a reason that still holds, read otherwise.
    private mutating func scanTripEntry(_ name: EntryName, path: String, kind: FolderSync.FileKind, into scan: inout FolderScan) {
        guard let (entryKind, listedStamp) = folder.kind(of: name) else {
            trip.skipped.append(.init(file: path, reason: "vanished while syncing"))
            return
        }
        guard entryKind == .file else {
            let what = entryKind == .link ? "a symbolic link, not a file (never followed)" : entryKind == .folder ? "not a regular file (a folder)" : "not a regular file"
            trip.skipped.append(.init(file: path, reason: what))
            return
        }
        // Unchanged since we merged it: skip without parsing.
        if let seen = state.files[path], seen.stamp == listedStamp, let document, document.clock.covers(seen.clock), kind != .ownCopy {
            trip.unchanged.append(path)
            if kind == .own || name == startName { rememberUnchangedOwnFile(name, listedStamp: listedStamp, into: &scan) }
            return
        }
        scan.listed.insert(path)
        // Skipped before and unchanged since, for a reason that still holds: not read again.
        if let skip = state.skips[path], skip.stamp == listedStamp, skip.context.isEmpty || skip.context == scan.skipContext, kind != .own,
            kind != .ownCopy, name != startName
        {
            trip.skipped.append(.init(file: path, reason: skip.reason, remedy: skip.device.map { .ownerApproves($0) }))
            if !skip.context.isEmpty { scan.skippedByMembership.append((name, kind, listedStamp)) }
            return
        }
        readTripFile(name, path: path, kind: kind, into: &scan)
    }

    /// Our own file, merged before and unchanged since: its digest kept, so it is removable
    /// after a re-key and publishing can compare against it. A file that cannot be read now,
    /// or changed meanwhile, is simply not removed.
    private func rememberUnchangedOwnFile(_ name: EntryName, listedStamp: FileStamp, into scan: inout FolderScan) {
        do {
            let (bytes, stamp) = try readFolderFile(name, maxBytes: reader.maxFileBytes)
            if stamp == listedStamp {
                scan.formerOwn = (name, SHA256.digest(bytes), startID)
                scan.ownFile = (name, SHA256.digest(bytes), stamp)
            }
        } catch {
            scan.formerOwn = nil
        }
    }

    /// Forgets the skips of files no longer in this trip folder.
    private mutating func forgetSkipsOfVanishedFiles(listed: Set<String>) {
        let prefix = folder.display(EntryName(""))
        for path in state.skips.keys where path.hasPrefix(prefix) && !listed.contains(path) { state.skips[path] = nil }
    }

    /// Every other laptop's file ahead of this clock: it is this clock that is wrong (issue
    /// 40), and the person is told so, with what to fix, rather than only blamed devices.
    private mutating func noticeClockBehind(_ scan: FolderScan) {
        guard let lead = scan.aheadOfUs, !scan.candidates.contains(where: { $0.input.deviceID != identity.deviceID && !earlierIDs.contains($0.input.deviceID) }) else { return }
        trip.notices.append(
            .init(
                "every other laptop's file is at least \(ClockGuard.span(lead)) ahead of this laptop's clock: this laptop's clock is probably behind. Set its date and time right (automatic date and time), then sync again"
            ))
    }

    /// Reads one file of the trip folder, at most `maxBytes`, with its stamp: every read of
    /// the shared folder's files by a round goes through here.
    private func readFolderFile(_ name: EntryName, maxBytes: Int) throws(FileSystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        try folder.readFile(name, maxBytes: maxBytes)
    }

    /// Writes `bytes` as this device's file `name` in the trip folder, atomically and durably:
    /// the one write of a trip file into the shared folder by a round.
    private func writeOwnFile(_ bytes: [UInt8], to name: EntryName) throws(FileSystemError) {
        try folder.writeAtomically(bytes, to: name, mode: 0o644)
    }

    /// A trip file of the folder read and checked (opened with the trip's keys when sealed):
    /// its document, bytes, stamp and signer; nil when it was skipped (said, and remembered when
    /// its bytes alone decided it) or is sealed with a key not held yet (counted).
    private mutating func loadTripFile(
        _ name: EntryName, path: String, into scan: inout FolderScan
    ) -> (input: TripDocument, bytes: [UInt8], stamp: FileStamp, signer: PublicKey?)? {
        var readStamp: FileStamp?
        do {
            let (bytes, stamp) = try readFolderFile(name, maxBytes: reader.maxFileBytes)
            readStamp = stamp
            // Our own file is read here only: publishing compares its new bytes with this digest.
            if name == startName { scan.ownFile = (name, SHA256.digest(bytes), stamp) }
            let loaded = try reader.read(bytes: bytes, file: path)
            return (loaded.document, bytes, stamp, loaded.signedBy)
        } catch let error as TripFileError where error.isSealed {
            // Sealed with a key that has not reached this laptop (yet): counted and said once
            // by `admit`, read again next time (the key may come with a keyring), never a
            // warning of its own, since waiting for the owner is no fault of the file.
            scan.sealedUnread += 1
        } catch let error as TripFileError {
            let reason = error.errors.first.map { "\($0)" } ?? "\(error)"
            trip.skipped.append(.init(file: path, reason: reason))
            // Any other refusal stands while the file is unchanged.
            if let readStamp { state.skips[path] = .init(stamp: readStamp, context: "", reason: reason) }
        } catch let error as FileSystemError {
            trip.skipped.append(.init(file: path, reason: error.message))
        } catch {
            trip.skipped.append(.init(file: path, reason: "\(error)"))
        }
        return nil
    }

    /// Reads one trip file of the folder: a candidate for admission, or skipped with the
    /// reason (remembered when the bytes alone decided it, so it is not read again unchanged).
    private mutating func readTripFile(_ name: EntryName, path: String, kind: FolderSync.FileKind, into scan: inout FolderScan) {
        guard let (input, bytes, stamp, signer) = loadTripFile(name, path: path, into: &scan) else { return }
        guard input.tripID == tripID else {
            let reason = "belongs to trip \(input.tripID), not to this trip folder"
            trip.skipped.append(.init(file: path, reason: reason))
            state.skips[path] = .init(stamp: stamp, context: "", reason: reason)
            return
        }
        if let (device, skew) = ClockGuard.futureDevice(in: input, nowMilliseconds: now) {
            let ours = input.deviceID == identity.deviceID || earlierIDs.contains(input.deviceID)
            if ours, skew <= ClockGuard.recoveryLeadMilliseconds {
                // Our own file from a clock that ran ahead a little: merged like any file of
                // ours (counters go on from it, never backwards). A restored home's only copy
                // of what it typed then may be this file (issue 40).
            } else if ours, earlierIDs.contains(input.deviceID), local != nil, state.files[path]?.stamp == stamp {
                // Ours from far ahead, merged here before (the stamp this home recorded): its
                // values are in the replica, re-stamped, and the file goes once they are
                // published.
                scan.ownFromTheFuture.append((name, SHA256.digest(bytes)))
                return
            } else if ours, earlierIDs.contains(input.deviceID), input.deviceID != identity.deviceID {
                // Ours from far ahead under an earlier id, never merged here (a home restored
                // from a copy older than the file): what it holds may be typed nowhere else. Its
                // values from the future are re-stamped at the present counter under our id, as
                // this home's own replica would have been (`ClockRecovery`), then merged; the
                // file goes once they are published (its bytes are merged). Left in the folder,
                // it would be taken whole by the next laptop whose clock runs as far ahead, and
                // poison that laptop's replica for every other (issue 40).
                var recovered = input
                let moved = ClockRecovery.recover(
                    &recovered, ours: Set(earlierIDs).union([input.deviceID, identity.deviceID]), to: identity.deviceID, clock: &clock,
                    ownerKey: access.ownerKey, now: now)
                // What the recovery wrote under our id is this installation's (as a re-key's).
                identity.highWater = max(identity.highWater, clock.highWater)
                identity.issued.formUnion(clock.issued)
                guard ClockGuard.futureDevice(in: recovered, nowMilliseconds: now) == nil else {
                    trip.skipped.append(.init(file: path, reason: ClockGuard.describe(device: device, skewMilliseconds: skew, name: "this laptop, as an earlier id")))
                    return
                }
                trip.notices.append(
                    .init(
                        "\(path), this laptop's own file from a clock \(ClockGuard.span(skew)) ahead (an earlier id, not in this home's copy): \(moved.moved) value(s) re-stamped at the right time and merged"))
                scan.ownFromTheFuture.append((name, SHA256.digest(bytes)))
                scan.candidates.append(Candidate(name: name, path: path, kind: kind, input: recovered, digest: nil, stamp: stamp, signer: signer))
                return
            } else {
                // Not remembered as a skip: the clock moves, and the file is taken once it is
                // no longer ahead.
                let name = local?.members[device]?.name ?? local?.selfWrittenName(of: device)
                trip.skipped.append(.init(file: path, reason: ClockGuard.describe(device: device, skewMilliseconds: skew, name: name)))
                scan.aheadOfUs = min(scan.aheadOfUs ?? .max, skew)
                return
            }
        }
        // Only our own files' digests are needed (to remove them later); no file's bytes are
        // kept while the others are read.
        let digest = kind == .ownCopy || kind == .own || name == startName ? SHA256.digest(bytes) : nil
        scan.candidates.append(Candidate(name: name, path: path, kind: kind, input: input, digest: digest, stamp: stamp, signer: signer))
    }

    /// Stage 2, admit: membership from the replica and every readable file; what this laptop
    /// may do in the trip, said. Nil when the trip is not joined (yet): nothing more is done.
    mutating func admit(_ scan: FolderScan) -> Admitted? {
        var scan = scan
        // Files under our own id first: a real copy of this home shows itself there, and once it
        // made us re-key, another member's file relaying its writes is judged against the new id.
        scan.candidates.sort { ($0.input.deviceID == identity.deviceID ? 0 : 1) < ($1.input.deviceID == identity.deviceID ? 0 : 1) }
        // Membership first, from the replica and every readable file; then what each file may do.
        // A laptop without the trip trusts the owner it knows (an invite answered, the owner key
        // held here, the owner it trusted before a forget); one holding the trip open trusts only
        // an invite answered here.
        let trusted = document == nil ? access.trustedOwner : document?.owner == nil ? access.join?.code.ownerKey : nil
        var membership = Membership(local: document, trusted: trusted, inputs: scan.candidates.map(\.input), signers: scan.candidates.map(\.signer))
        if !scan.skippedByMembership.isEmpty,
            Self.membershipDigest(owner: membership.owner?.key, grants: membership.grants, successions: membership.candidateSuccessions) != scan.skipContext
        {
            // This sync's membership differs from the one that skipped them: read them after all.
            let again = Set(scan.skippedByMembership.map { folder.display($0.name) })
            trip.skipped.removeAll { again.contains($0.file) }
            for entry in scan.skippedByMembership { readTripFile(entry.name, path: folder.display(entry.name), kind: entry.kind, into: &scan) }
            scan.skippedByMembership = []
            scan.candidates.sort { ($0.input.deviceID == identity.deviceID ? 0 : 1) < ($1.input.deviceID == identity.deviceID ? 0 : 1) }
            membership = Membership(local: document, trusted: trusted, inputs: scan.candidates.map(\.input), signers: scan.candidates.map(\.signer))
        }
        if document == nil, trusted == nil, let owned = scan.candidates.first(where: { $0.input.owner != nil })?.input.owner {
            // Nothing is trusted on first sight: an owned trip is joined through an invite.
            trip.notices.append(
                .init("not joined: this trip is owned (owner key \(owned.key.fingerprint)) and this laptop is not a member", remedy: .joinWithInvite(folder: sync.folder)))
            return nil
        }
        if document == nil, trusted == nil, scan.sealedUnread > 0 {
            // Sealed files name no owner outside their ciphertext; that they are sealed says
            // the trip is owned.
            trip.notices.append(
                .init(
                    "not joined: this trip is owned and sealed for its members (\(scan.sealedUnread) file\(scan.sealedUnread == 1 ? "" : "s") this laptop cannot open), and this laptop is not a member",
                    remedy: .joinWithInvite(folder: sync.folder)))
            return nil
        }
        if document == nil, trusted != nil, membership.owner == nil || membership.grants[identity.deviceID] == nil {
            trip.waitingToJoin = true
            trip.notices.append(.init("asked to join; waiting for the owner to admit this laptop (the owner's next sync does, then sync here again)"))
            return nil
        }
        if scan.sealedUnread > 0, access.leftOut == nil {
            trip.notices.append(
                .init(
                    "\(scan.sealedUnread) file\(scan.sealedUnread == 1 ? " is" : "s are") sealed with a key of the trip that has not reached this laptop yet (the owner's keyring brings it); read at a later sync"
                ))
        }
        for claim in membership.pendingClaims {
            let claimants = scan.candidates.filter { $0.input.owner?.key == claim.key }.map { $0.input.deviceName($0.input.deviceID) }
            trip.notices.append(
                .init(
                    "\(claimants.first ?? "a file") claims to own this trip (owner key \(claim.key.fingerprint)); this laptop keeps it open and skips that file",
                    remedy: .claimOrJoin(folder: sync.folder)))
        }
        if let owner = membership.owner, document != nil {
            // What this laptop's own role means for its changes, said at every sync it matters.
            let me = identity.deviceID
            switch membership.effectiveGrant(of: me) {
            case nil:
                trip.notices.append(
                    .init("this laptop is not a member of this trip (owner key \(owner.key.fingerprint)): other laptops skip its files", remedy: .ownerApproves(me)))
            case let grant? where grant.role == .removed:
                trip.notices.append(.init("this laptop was removed from the trip: other laptops no longer take its files"))
            case let grant? where grant.role == .viewer && (document.map { $0.hasContent(of: me, above: grant.seen?[me] ?? 0) } ?? false):
                trip.notices.append(.init("this laptop is a viewer: its changes since it became one are not taken by other laptops"))
            default: break
            }
        }
        noticeOwnerKeyFork(membership, candidates: scan.candidates)
        return Admitted(scan: scan, trusted: trusted, membership: membership)
    }

    /// A digest of what membership verdicts depend on: the owner key, each grant (device,
    /// role, key, rev) and each succession (new id, old id, key, signature).
    static func membershipDigest(owner: PublicKey?, grants: [DeviceID: MemberGrant], successions: [(DeviceID, Succession)]) -> String {
        var text = owner?.base64 ?? "open"
        for (device, grant) in grants.sorted(by: { $0.key < $1.key }) {
            text += "\ng \(device) \(grant.role.rawValue) \(grant.key.base64) \(grant.rev.counter) \(grant.rev.device)"
        }
        let ordered = successions.sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1.signature.lexicographicallyPrecedes(b.1.signature) }
        for (device, succession) in ordered {
            text += "\ns \(device) \(succession.from) \(succession.key.base64) \(succession.signature.count)"
            text += succession.signature.map { String($0, radix: 16) }.joined()
        }
        return SHA256.digest(Array(text.utf8)).map { String($0, radix: 16) }.joined()
    }

    /// A fork of the owner key, shown to both holders (docs/DESIGN.md, "The owner key decides
    /// owner acts"): on this laptop, which holds the owner key, a copy of this home (a device
    /// that succeeded one of this home's ids: it holds the key too) or role changes it signed,
    /// and new writes or role changes under one of this home's earlier ids (the home this one
    /// was copied from, still in use).
    private mutating func noticeOwnerKeyFork(_ membership: Membership, candidates: [Candidate]) {
        guard let owner = membership.owner, let document, access.ownerKey?.publicKey == owner.key else { return }
        let ours = Set([identity.deviceID] + identity.formerIDs)
        var others: Set<DeviceID> = []
        for candidate in candidates where candidate.input.owner?.key == owner.key {
            for grant in candidate.input.members.values where !document.clock.sees(grant.rev) || !ours.contains(grant.rev.device) {
                let signer = grant.rev.device
                if signer == identity.deviceID { continue }
                if ours.contains(signer) || !ours.isDisjoint(with: candidate.input.predecessors(of: signer)) { others.insert(signer) }
            }
        }
        // A successor of one of this home's ids is a copy of this home, owner key included; a
        // file under one of this home's earlier ids with writes this replica never had is the
        // home it was copied from, still in use.
        for candidate in candidates where candidate.input.owner?.key == owner.key {
            let writer = candidate.input.deviceID
            if writer != identity.deviceID, !ours.contains(writer), !ours.isDisjoint(with: candidate.input.predecessors(of: writer)) {
                others.insert(writer)
            }
            if writer != identity.deviceID, identity.formerIDs.contains(writer), candidate.input.clock[writer] > document.clock[writer] {
                others.insert(writer)
            }
        }
        for other in others.sorted() {
            let relation = ours.contains(other) ? "an earlier id of this laptop's home, still in use elsewhere" : "a copy of this laptop's home"
            trip.notices.append(
                .init(
                    "the owner key of this trip is also used by device \(other.description.prefix(8)) (\(relation)): two laptops can change roles; if that copy is not yours, it holds your owner key"
                ))
        }
    }

    /// Stage 3, check forks and merge: each admitted file's verdict, then `ForkCheck.decide`
    /// (the one place that decides a re-key or a refusal) and the merge.
    mutating func checkForksAndMerge(_ admitted: Admitted) throws -> Merged {
        let membership = admitted.membership
        var merged = Merged(formerOwn: admitted.scan.formerOwn)
        // This laptop's own writes stay in its own replica, even once it is removed: the rule
        // is about what reaches others.
        var lateBounds = membership.lateWriteBounds
        var waiting = access.pendingPerBucket
        for id in [identity.deviceID] + identity.formerIDs { lateBounds[id] = nil }
        for candidate in admitted.scan.candidates {
            try checkAndMerge(candidate, membership: membership, lateBounds: lateBounds, skipContext: admitted.scan.skipContext, waiting: &waiting, into: &merged)
        }
        return merged
    }

    /// One admitted file: what membership lets it do, a removed member's late writes dropped,
    /// then the fork check and the merge, recorded as merged.
    private mutating func checkAndMerge(
        _ candidate: Candidate, membership: Membership, lateBounds: [DeviceID: UInt64], skipContext: String, waiting: inout [String: Int],
        into merged: inout Merged
    ) throws {
        var input = candidate.input
        // An owned trip names a device by its grant here; a file's `devices` only says what
        // the device calls itself (what an owner sees of a device it has not admitted).
        let deviceName = membership.grants[input.deviceID]?.name ?? input.selfWrittenName(of: input.deviceID) ?? input.deviceID.description
        switch membership.verdict(for: input, signedBy: candidate.signer, name: "\(deviceName) (\(input.deviceID.description.prefix(8)))") {
        case .skipped(let reason, let remedy):
            skipRefused(candidate, deviceName: deviceName, reason: reason, remedy: remedy, membership: membership, skipContext: skipContext, waiting: &waiting)
            return
        case .acksOnly:
            merged.viewerFiles.append((candidate, input.deviceID))
            return
        case .whole:
            break
        }
        if !lateBounds.isEmpty, input.mayHoldLateWrites(lateBounds) || (document?.mayHoldLateWrites(lateBounds) ?? false) {
            dropLateWrites(&input, bounds: lateBounds, membership: membership, deviceName: deviceName, path: candidate.path)
        }
        guard try forkCheckAndMerge(input, path: candidate.path, deviceName: deviceName, owned: membership.owner != nil) else { return }
        let (name, path, kind) = (candidate.name, candidate.path, candidate.kind)
        trip.merged.append(path)
        state.files[path] = .init(stamp: candidate.stamp, clock: input.clock)
        if kind == .ownCopy, let digest = candidate.digest { merged.ownCopies.append((name, digest)) }
        if kind == .own || name == startName, let digest = candidate.digest { merged.formerOwn = (name, digest, startID) }
    }

    /// A file membership refused: reported (not our own file: what it held is in the replica
    /// already), remembered as a skip, and a signed file of a device not admitted kept as a
    /// request for the owner, bounded like join requests.
    private mutating func skipRefused(
        _ candidate: Candidate, deviceName: String, reason: String, remedy: MembershipRemedy?, membership: Membership, skipContext: String,
        waiting: inout [String: Int]
    ) {
        let (path, kind, input) = (candidate.path, candidate.kind, candidate.input)
        if kind != .own { trip.skipped.append(.init(file: path, reason: reason, remedy: remedy)) }
        // Not read again while it and the membership are unchanged.
        if kind != .own, kind != .ownCopy, remedy == nil || remedy?.kind == "ownerApproves" {
            state.skips[path] = .init(stamp: candidate.stamp, context: skipContext, reason: reason, device: remedy?.device)
        }
        if let owner = membership.owner, input.owner?.key == owner.key, membership.effectiveGrant(of: input.deviceID) == nil, let key = candidate.signer,
            access.requests[input.deviceID] == nil, !access.isDeclined(input.deviceID, freshInvite: false)
        {
            // Bounded like join requests: whoever can write into the folder cannot fill the list.
            let bucket = TripAccess.bucket(invite: nil, source: "a signed trip file")
            if waiting[bucket, default: 0] < TripAccess.maxPendingPerInvite {
                waiting[bucket, default: 0] += 1
                access.requests[input.deviceID] = .init(key: key, name: deviceName, source: "a signed trip file", seen: UTCTimestamp(millisecondsSinceEpoch: now))
            }
        }
    }

    /// A removed device is judged by its own dots (docs/DESIGN.md): its writes above the
    /// removal's `seen` are dropped from this file and from the replica before the merge (each
    /// side restoring from the other what such a write had replaced), said to the one syncing;
    /// the relaying member hears it at its own sync, when its replica drops them.
    private mutating func dropLateWrites(_ input: inout TripDocument, bounds lateBounds: [DeviceID: UInt64], membership: Membership, deviceName: String, path: String) {
        let relayed = input
        let carried = lateBounds.filter { $0.key != relayed.deviceID && relayed.clock[$0.key] > $0.value }.sorted { $0.key < $1.key }
        for (device, seen) in carried {
            let removed = (device: device, counter: relayed.clock[device], seen: seen)
            let who = membership.effectiveGrant(of: device)?.name ?? device.description
            let (dropped, kept) = input.dropLateWrites([device: seen], restoringFrom: document)
            guard dropped + kept > 0 else { continue }
            trip.notices.append(
                .init(
                    "\(path) carries \(dropped + kept) change(s) of \(who) (\(removed.device.description.prefix(8))), removed from the trip, made after its removal (up to \(removed.counter), the removal had seen \(removed.seen)); \(dropped) not taken\(kept > 0 ? ", \(kept) kept because nothing older is known for them here" : ""); \(deviceName)'s laptop is told when it syncs"))
        }
        if var current = document, current.mayHoldLateWrites(lateBounds) {
            let (dropped, kept) = current.dropLateWrites(lateBounds, restoringFrom: relayed)
            if dropped > 0 {
                trip.notices.append(
                    .init(
                        "this laptop held \(dropped) change(s) of removed members made after their removal (taken before the removal reached it); they are dropped here as on every laptop that holds the removal\(kept > 0 ? " (\(kept) kept: nothing older is known for them)" : "")"))
            }
            document = current
        }
    }

    /// Evidence of a fork of ours (`ForkCheck`, the one place that decides): in a file under
    /// our id it means another copy of this home, and we re-key; in another member's file it is
    /// a claim only our key may make, and the file is refused. A file of ours merely not the one
    /// we last recorded (a crash before the state was saved) is no evidence. Then the merge (or
    /// the join of a trip found in the folder). False when the file is refused.
    private mutating func forkCheckAndMerge(_ input: TripDocument, path: String, deviceName: String, owned: Bool) throws -> Bool {
        let me = identity.deviceID
        let writer = "\(deviceName) (\(input.deviceID.description.prefix(8)))"
        let ourKey = owned ? try ownKey(me) : nil
        guard var current = document else {
            let decision = ForkCheck.decide(input, local: nil, identity: identity, clock: clock, ownForks: [], path: path, writer: writer, owned: owned, ourKey: ourKey)
            if case .refuse(let reason) = decision {
                trip.skipped.append(.init(file: path, reason: reason))
                return false
            }
            // Joining a trip found in the folder.
            var joined = input
            joined.deviceID = me
            document = joined
            trip.joined = true
            if case .rekey(let reason) = decision {
                try sync.rekey(&document, input: input, identity: &identity, clock: &clock, reason: reason, rekeyed: &self.rekeyed, now: now)
            }
            return true
        }
        let (merged, forks) = try DocumentMerger.mergeFindingForks(current, input, writer: me)
        // Limits hold for the merged state (docs/DESIGN.md): a file that would take the
        // trip past what any reader takes is refused whole, and the replica stays readable.
        if let problem = merged.limitProblem {
            trip.skipped.append(
                .init(file: path, reason: "device \(writer)'s file is refused whole: taking it would put the trip past a limit every reader holds (\(problem))"))
            return false
        }
        let ours = forks.filter { $0.rev.device == me }
        switch ForkCheck.decide(input, local: current, identity: identity, clock: clock, ownForks: ours, path: path, writer: writer, owned: owned, ourKey: ourKey) {
        case .refuse(let reason):
            trip.skipped.append(.init(file: path, reason: reason))
            return false
        case .rekey(let reason):
            var rekeyed: TripDocument? = current
            try sync.rekey(&rekeyed, input: input, identity: &identity, clock: &clock, reason: reason, rekeyed: &self.rekeyed, now: now)
            current = rekeyed ?? merged
        case .merge:
            current = merged
        }
        sync.record(forks.filter { $0.rev.device != identity.deviceID && $0.rev.device != me }, file: path, into: &trip)
        document = current
        return true
    }

    /// Stage 4, settle membership: viewers' acks, the owner-signed grants, what requests still
    /// wait, a join completed. Returns the replica to publish, nil when nothing was merged.
    mutating func settleMembership(_ admitted: Admitted, _ merged: Merged) -> ReplicaState? {
        guard var document else { return nil }
        let (membership, trusted) = (admitted.membership, admitted.trusted)
        // Viewers' files give their own acks only; every owner-signed grant counts.
        for (candidate, viewer) in merged.viewerFiles {
            document.takeAcks(of: viewer, from: candidate.input)
            trip.merged.append(candidate.path)
            state.files[candidate.path] = .init(stamp: candidate.stamp, clock: document.acks[viewer] ?? VersionVector())
        }
        document.adopt(membership)
        // A request stays while the owner has not given what it asks; one of a device seated by
        // succession alone (no grant of its own) is settled.
        access.requests = access.requests.filter { device, request in
            !request.isSatisfied(by: document.members[device]) && !(document.members[device] == nil && document.role(of: device) != nil)
        }
        if trusted != nil, document.owner?.key == trusted, local == nil || document.members[identity.deviceID] != nil {
            trip.joined = true
            access.join = nil
            folder.remove(EntryName(JoinRequest.fileName(for: identity.deviceID)))
        }
        trip.name = document.trip.name.value
        var replica = ReplicaState(home: home, identity: identity, document: document)
        replica.clock = clock
        return replica
    }

    /// What settles `device`'s join request here: pending (with its key), declined, its grant,
    /// or not listed while the pending list is as long as now. A request file unchanged since
    /// is not read again while this stays the same.
    func joinStatus(of device: DeviceID) -> String {
        if let request = access.requests[device] { return "pending \(request.key.base64) \(request.invite ?? "")" }
        if access.declined[device] != nil { return "declined" }
        if let grant = document?.members[device] { return "member \(grant.role.rawValue) \(grant.key.base64)" }
        // Not listed (its bucket was full): read again once the list changes.
        return "unlisted \(access.requests.count)"
    }

    /// Stage 5, the owner admits the join requests that answer an unused invite made here.
    mutating func admitJoinRequests(_ replica: inout ReplicaState, scan: FolderScan) throws {
        defer { rememberSettledRequests(scan.joinRequests) }
        var waiting = access.pendingPerBucket
        var notAdmitted: [SyncReport.Notice] = []
        var unlisted: [String: Int] = [:]
        // Each invite once; anything else waits for the owner (docs/DESIGN.md, "Invites are spent once").
        if let ownerKey = access.ownerKey, replica.document.owner?.key == ownerKey.publicKey {
            for (path, sent) in scan.joinRequests {
                let when = UTCTimestamp(millisecondsSinceEpoch: now)
                let grant = replica.document.members[sent.device]
                let index = access.invites.firstIndex { sent.answers($0.code) }
                let invite = index.map { access.invites[$0] }
                // A version 3 request's name opens with the invite's secret (the folder's host
                // never reads it); one that answers no invite held here stays unnamed.
                let opened = invite.map { sent.opened(with: $0.code) } ?? sent
                guard let request = opened else {
                    notAdmitted.append(.init("\(path): its name does not open with the invite it answers (not admitted)"))
                    continue
                }
                var asked = TripAccess.PendingRequest(key: request.key, name: request.name, source: "a join request", seen: when)
                asked.invite = invite?.code.id
                asked.role = invite?.code.role
                asked.box = request.box
                if asked.isSatisfied(by: grant) { continue }
                let fresh = invite.map { $0.usedBy == nil && $0.code.expires >= when } ?? false
                if access.isDeclined(request.device, freshInvite: fresh) { continue }
                let who = "\(path): \(request.name.isEmpty ? "a laptop whose name is sealed for an invite" : request.name) (\(request.device.description.prefix(8)), key \(request.key.fingerprint))"
                let reason: String
                if let index, let invite {
                    // The same device and key again, with no grant (a sync that stopped between
                    // spending the invite and saving the trip): the invite's one admission.
                    let again = invite.usedBy == request.device && invite.usedKey == request.key && grant == nil
                    if let used = invite.usedBy, !again {
                        reason = "answers an invite already used by \(used.description.prefix(8)) (an invite admits one device once)"
                    } else if invite.code.expires < when {
                        reason = "answers an invite that expired \(invite.code.expires)"
                    } else if let grant {
                        reason =
                            grant.role == .removed
                            ? "was removed from the trip; only the owner brings it back"
                            : "is already a member (\(grant.role.rawValue), key \(grant.key.fingerprint)); a new key or role needs the owner"
                    } else {
                        try replica.document.grant(
                            request.device, key: request.key, role: invite.code.role, name: request.name, box: request.box, ownerKey: ownerKey,
                            hlc: &replica.clock, now: now)
                        access.invites[index].usedBy = request.device
                        access.invites[index].usedKey = request.key
                        access.names[request.device] = request.name
                        access.requests[request.device] = nil
                        access.declined[request.device] = nil
                        trip.notices.append(.init("admitted \(request.name) (\(request.device.description.prefix(8)), key \(request.key.fingerprint)) as \(invite.code.role.rawValue)"))
                        continue
                    }
                } else {
                    reason = "asks to join without an invite made on this laptop"
                }
                if access.requests[request.device] == nil {
                    // Bounded per invite: more are counted, not listed.
                    let bucket = TripAccess.bucket(invite: asked.invite, source: asked.source)
                    guard waiting[bucket, default: 0] < TripAccess.maxPendingPerInvite else {
                        unlisted[bucket, default: 0] += 1
                        continue
                    }
                    waiting[bucket, default: 0] += 1
                }
                notAdmitted.append(.init("\(who) \(reason); not admitted", remedy: .approveOrDecline(request.device)))
                access.requests[request.device] = asked
            }
            sayNotAdmitted(notAdmitted, unlisted: unlisted, quiet: scan.quietRequests)
            // Grants made before grants carried names are signed again with the name the owner
            // knows: its own, a join request's seen here, or the one the device wrote for itself.
            for (device, grant) in replica.document.members.sorted(by: { $0.key < $1.key }) where grant.name == nil {
                let known = device == identity.deviceID ? identity.name : access.names[device] ?? replica.document.selfWrittenName(of: device)
                if let known, try replica.document.nameGrant(device, name: known, ownerKey: ownerKey, hlc: &replica.clock, now: now) {
                    trip.notices.append(.init("named \(known) (\(device.description.prefix(8))) in its grant"))
                }
            }
        }
    }

    /// The join requests not admitted, said: at most a few lines per sync, then one summing up
    /// the rest; those not listed (over the bound per invite) and those still waiting unread.
    private mutating func sayNotAdmitted(_ notAdmitted: [SyncReport.Notice], unlisted: [String: Int], quiet: Int) {
        let shown = 10
        trip.notices += notAdmitted.prefix(shown)
        if notAdmitted.count > shown {
            trip.notices.append(.init("… and \(notAdmitted.count - shown) more join requests not admitted (the members list shows them)"))
        }
        for (bucket, count) in unlisted.sorted(by: { $0.key < $1.key }) {
            trip.notices.append(
                .init(
                    "\(count) more join request(s) (\(bucket)) not listed: \(TripAccess.maxPendingPerInvite) already wait for the owner; decline or approve those first"))
        }
        if quiet > 0 {
            trip.notices.append(.init("\(quiet) join request(s) still wait, unchanged since an earlier sync (the members list shows them)"))
        }
    }

    /// Remembers each join request read this sync that is now settled here (pending, declined
    /// or a member's), so the next sync does not read it again while its file is unchanged.
    private mutating func rememberSettledRequests(_ joinRequests: [(path: String, request: JoinRequest)]) {
        for (path, request) in joinRequests {
            guard let (_, stamp) = folder.kind(of: EntryName(JoinRequest.fileName(for: request.device))) else { continue }
            state.skips[path] = .init(stamp: stamp, context: joinStatus(of: request.device), reason: "a join request already settled here")
        }
    }

    /// Stage 6, deliver attachments: staged ones enter the trip once their bytes are in the
    /// folder; bytes go both ways (docs/DESIGN.md, "Attachments").
    mutating func deliverAttachments(_ replica: inout ReplicaState) throws -> (delivery: AttachmentDelivery.Outcome, staged: StagedAttachments) {
        let staged = try StagedAttachments.load(home, tripID)
        var delivery = AttachmentDelivery.Outcome(staged: staged)
        if !staged.entries.isEmpty || !replica.document.attachments.isEmpty {
            do throws(BlobError) {
                let deliverer = AttachmentDelivery(
                    store: try BlobStore(home: home.path), folder: FolderBlobStore(tripFolder: folder), progress: sync.blobProgress,
                    sealedElsewhere: PlainBlobsOfSealedTrips(home: home))
                delivery = deliverer.run(&replica, staged: staged, now: now)
            } catch {
                delivery.notices.append("attachments not synced: \(error)")
                delivery.waiting = replica.document.attachments.count
            }
            trip.notices += delivery.notices.map { SyncReport.Notice($0) }
        }
        if delivery.waiting > 0 || !delivery.staged.entries.isEmpty { state.pending.insert(tripID) } else { state.pending.remove(tripID) }
        return (delivery, staged)
    }

    /// Stage 7, save locally: the access record, then the replica (our acks entry, compaction),
    /// then the staged list.
    mutating func saveLocally(_ replica: inout ReplicaState, delivery: AttachmentDelivery.Outcome, staged: StagedAttachments) throws {
        // The access record before the replica: an invite is never marked unused behind a grant.
        if access.fingerprint != accessBefore { try access.save(home, tripID) }
        try replica.registerDevice(now: now)
        replica.document.compact(now: UTCTimestamp(millisecondsSinceEpoch: now), policy: sync.retention)
        replica.document.acknowledgeOwnState()
        var stored = local
        stored?.deviceID = replica.document.deviceID
        if stored != replica.document || identity != replica.identity {
            try replica.save()
            trip.savedLocally = true
        }
        // The staged list after the replica: an attachment is never dropped from it before the
        // replica holding it is durable (a crash between leaves it in both; the next sync skips it).
        if delivery.staged != staged { try delivery.staged.save(home, tripID) }
        identity = replica.identity
        document = replica.document
        saved = true
    }

    /// Stage 8, publish: our file in the folder (rewritten only when its bytes differ), then our
    /// own conflicted copies, stale temporaries and files under earlier ids removed.
    mutating func publish(_ replica: ReplicaState, scan: FolderScan, merged: Merged) throws {
        guard let document else { return }
        trip.newConflicts = FolderSync.conflictKeys(document).subtracting(conflictsBefore).count
        trip.changes = SyncReport.changes(before: local, after: document, me: [startID, identity.deviceID])
        // The replica's stamp is recorded only once our file is published (below): a publish
        // that failed must not let the next sync take this trip for unchanged.
        state.files[replica.path] = nil
        let ownName = EntryName("\(identity.deviceID).trip.json.gz")
        let file = try home.publishedFile(of: document, access: access)
        let bytes = file.bytes
        // Rewritten when the bytes differ, or when what is there is not exactly our plain file
        // (another mode, a setuid bit, a hard link shared with another name).
        // Our file as the scan read it, unchanged since (same size, time and inode), is compared
        // by digest: each file of the folder is read once per sync. A sealed file is never
        // sealed to the same bytes twice, so what is compared is what it holds: the gzip JSON
        // inside ours, sealed with the same epoch key and signing key.
        var upToDate = false
        if let found = folder.look(ownName), found.isPlain {
            if let sealedWith = file.sealedWith {
                do {
                    let current = try readFolderFile(ownName, maxBytes: reader.maxFileBytes).bytes
                    upToDate = SealedFile.holds(current, gzip: file.gzip, key: sealedWith, signer: try ownKey(identity.deviceID))
                } catch {
                    upToDate = false  // unreadable: it is replaced below
                }
            } else if let read = scan.ownFile, read.name == ownName, read.stamp == found.stamp {
                upToDate = SHA256.digest(bytes) == read.digest
            } else {
                do {
                    upToDate = try readFolderFile(ownName, maxBytes: reader.maxFileBytes).bytes == bytes
                } catch {
                    upToDate = false  // unreadable: it is replaced below
                }
            }
        }
        if !upToDate {
            try writeOwnFile(bytes, to: ownName)
            trip.wrote = true
            trip.sharedChanges = unsharedBefore
        }
        let published = folder.display(ownName)
        if let (_, stamp) = folder.kind(of: ownName) { state.files[published] = .init(stamp: stamp, clock: document.clock) }
        trip.published = published
        if let (stamp, _, _, _) = SyncState.stamp(replica.path) { state.files[replica.path] = .init(stamp: stamp, clock: document.clock) }
        // Only now that their content is in our published file: our own conflicted copies go,
        // but only the exact bytes that were merged (a newer version that landed meanwhile stays).
        for copy in merged.ownCopies {
            if sync.removeIfUnchanged(copy.name, digest: copy.digest, in: folder) {
                state.files[folder.display(copy.name)] = nil
                trip.removed.append(folder.display(copy.name))
            }
        }
        for temp in scan.ownStaleTemps { folder.remove(temp) }
        for old in scan.ownFromTheFuture where sync.removeIfUnchanged(old.name, digest: old.digest, in: folder) {
            state.files[folder.display(old.name)] = nil
            trip.removed.append(folder.display(old.name))
        }
        // After a re-key our file under the old id goes too (its bytes are merged into the one
        // just published): left there, its claim on the old id's counters would make every
        // later reader drop the other copy's writes under that id that it does not hold.
        if let former = merged.formerOwn, former.id != identity.deviceID, sync.removeIfUnchanged(former.name, digest: former.digest, in: folder) {
            state.files[folder.display(former.name)] = nil
            trip.removed.append(folder.display(former.name))
        }
    }
}
