import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sync with a shared folder (docs/DESIGN.md, "The shared folder"): `FOLDER/<tripId>/<deviceId>.trip.json.gz`,
/// one file per device, written only by that device, atomically. Every readable trip file in a
/// trip folder is merged (conflicted copies too: merge is idempotent), then ours is published.
///
/// The folder is hostile: no link in it is followed, every file is opened relative to its
/// folder's descriptor and checked by that descriptor, names are bytes, and each trip syncs
/// on its own, so an entry that blocks one trip is reported for that trip and the others go on.
public struct FolderSync {
    /// This installation's home.
    public var home: Home
    /// The shared folder.
    public var folder: String
    /// How files are read.
    public var reader = TripFileReader()
    /// Retention for compaction after merging.
    public var retention = RetentionPolicy.standard
    /// Called before each trip with (trips done, trips in all); for progress on a terminal.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Called while an attachment's bytes are copied, with (its name, bytes done, bytes in all,
    /// whether it is being fetched rather than shared); for progress on a terminal.
    public var blobProgress: (@Sendable (String, Int64, Int64, Bool) -> Void)?

    /// Creates a sync of `home` with `folder`.
    public init(home: Home, folder: String) {
        self.home = home
        self.folder = folder
    }

    /// Runs one sync with the home locked. Throws only when nothing could be synced at all (the
    /// home is locked or unreadable, the folder is not a folder); a trip that cannot be synced
    /// is reported in its `SyncReport.Trip.failure` and the others go on.
    public func run(now: UInt64 = FileMerger.wallClockMilliseconds()) throws -> SyncReport {
        let lock = try HomeLock(home: home)
        defer { withExtendedLifetime(lock) {} }
        return try run(locked: lock, only: nil, now: now)
    }

    /// One sync by a caller that holds the home's lock (`TripStore.sync`), of every trip or
    /// only of `only`.
    package func run(locked lock: HomeLock, only: TripID?, now: UInt64) throws -> SyncReport {
        var report = SyncReport()
        var (state, stateWarning) = SyncState.load(home)
        if let stateWarning { report.warnings.append(stateWarning) }
        var (identity, notice) = try home.openIdentity()
        if let notice { report.warnings.append(notice) }
        let root = try FolderHandle.open(path: folder)
        // Trips of the home, and trip folders of the shared folder (by name; parsed only when
        // something may have changed).
        let held = Set(try home.tripFileIDs())
        var tripIDs = held
        var blocked: [TripID: String] = [:]
        var inFolder: Set<TripID> = []
        for name in try root.entries() {
            guard let text = name.text, let id = Identifier(text), id.description == text else { continue }
            switch root.kind(of: name)?.kind {
            case .folder?: inFolder.insert(id)
            case .link?: blocked[id] = "a symbolic link, not followed: a trip folder must be a folder inside the shared folder"
            case nil: continue
            default: blocked[id] = "named like a trip folder but not a folder; move it away so the trip can sync"
            }
            tripIDs.insert(id)
        }
        if let only { tripIDs = tripIDs.filter { $0 == only } }
        for (index, tripID) in tripIDs.sorted().enumerated() {
            progress?(index, tripIDs.count)
            var trip = SyncReport.Trip(tripID: tripID)
            if let reason = blocked[tripID], !held.contains(tripID) {
                // Not a trip of this home: nothing to publish there, only an entry to report.
                trip.skipped.append(.init(file: root.display(EntryName(tripID.description)), reason: reason))
                report.trips.append(trip)
                continue
            }
            do {
                try syncTrip(&trip, root: root, inFolder: inFolder.contains(tripID), blocked: blocked[tripID], identity: &identity, state: &state, report: &report, now: now)
            } catch let error as TripFileError {
                trip.failure = error.errors.first.map { "\($0)" } ?? "\(error)"
            } catch let error as FileSystemError {
                trip.failure = error.description
            } catch {
                trip.failure = "\(error)"
            }
            if let failure = trip.failure, trip.savedLocally {
                // The home changed: say what is kept and what is not, not only what failed.
                let merged = trip.merged.count
                trip.failure =
                    "\(merged == 0 ? "this home's changes were" : "merged \(merged) file\(merged == 1 ? "" : "s") and") saved in this home, "
                    + "but this laptop's file was not published, so the others do not see them yet (\(failure)); fix that and sync again"
            }
            report.trips.append(trip)
        }
        do {
            try state.save(home)
        } catch {
            // Losing the state only costs a re-read of unchanged files next time.
            report.warnings.append("\(SyncState.path(home)): cannot save the sync state (\(error)); unchanged files will be read again next time")
        }
        return report
    }

    /// What a name in a trip folder is.
    enum FileKind: Equatable {
        case own, ownCopy, other, ownTemporary, temporary, notTrip, joinRequest, ownJoinRequest, blobs
    }

    /// Classifies a name by exact known patterns: ours, a copy of ours (a cloud conflicted copy
    /// or one we moved aside), another device's, a temporary or partial file, or not a trip file.
    /// A name is temporary only by the exact form of a client that writes temporaries, so a
    /// conflict suffix that happens to hold "tmp" or "part" (Synology Drive's
    /// `(SFConflict user@host.tmp.org …)`) never makes a copy temporary.
    static func classify(_ name: EntryName, me: DeviceID) -> FileKind {
        let own = "\(me).trip.json.gz"
        if name == FolderBlobStore.folderName { return .blobs }  // attachments' bytes (AttachmentDelivery)
        if isTemporary(name) {
            return name.hasPrefix("." + own + ".tmp-") ? .ownTemporary : .temporary
        }
        // Any other hidden name (`.DS_Store`, macOS's `._<name>` resource forks) is no trip file.
        if name.hasPrefix(".") { return .notTrip }
        if name.hasSuffix(".join.json") {
            return name.bytes.elementsEqual(JoinRequest.fileName(for: me).utf8) ? .ownJoinRequest : .joinRequest
        }
        guard name.contains(".trip.json") else { return .notTrip }
        if name.bytes.elementsEqual(own.utf8) { return .own }
        if name.hasPrefix(me.description) { return .ownCopy }
        return .other
    }

    /// The temporaries of the clients that write into a shared folder, each by its exact form:
    /// ours (`.<name>.tmp-<pid>-<n>-<random>`), Syncthing's (`.syncthing.<name>.tmp`, and
    /// `~syncthing~<name>.tmp` on Windows), rsync's (`.<name>.XXXXXX`, six letters or digits),
    /// Nextcloud's and ownCloud's (`.<name>.~<hex>`), Office's locks (`~$<name>`), and the
    /// partial downloads of browsers and sync clients (`<name>.part`, `.partial`, `.crdownload`,
    /// `.download`, `.tmp`, Resilio's `.!sync`), and editors' `<name>~`.
    static func isTemporary(_ name: EntryName) -> Bool {
        let bytes = name.bytes
        if FileIO.isTemporaryName(bytes) { return true }
        if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
        if name.hasPrefix("~syncthing~") && name.hasSuffix(".tmp") { return true }
        if name.hasPrefix("~$") { return true }
        if name.hasPrefix("."), let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 1 {
            let tail = bytes[(dot + 1)...]
            func isAlphanumeric(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
            func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
            if tail.count == 6 && tail.allSatisfy(isAlphanumeric) { return true }  // rsync
            if tail.count >= 2, tail.first == UInt8(ascii: "~"), tail.dropFirst().allSatisfy(isHex) { return true }  // Nextcloud, ownCloud
        }
        for suffix in [".tmp", ".part", ".partial", ".crdownload", ".download", ".!sync", "~"] where name.hasSuffix(suffix) {
            return true
        }
        return false
    }

    /// True (with every file reported unchanged) when neither the home's replica nor any file of
    /// the trip folder changed since the last sync: nothing is parsed.
    private func unchanged(_ trip: inout SyncReport.Trip, folder: FolderHandle, me: DeviceID, state: SyncState) throws -> Bool {
        let localPath = home.replicaPath(for: trip.tripID)
        guard let local = state.files[localPath], let (stamp, _, _, _) = SyncState.stamp(localPath), stamp == local.stamp else { return false }
        // Attachments staged here, or bytes still arriving, need the whole sync.
        if state.pending.contains(trip.tripID) || SyncState.stamp(StagedAttachments.path(home, trip.tripID)) != nil { return false }
        var files: [String] = []
        var sawOwn = false
        for name in try folder.entries() {
            let path = folder.display(name)
            let kind = FolderSync.classify(name, me: me)
            switch kind {
            case .temporary, .ownTemporary, .notTrip, .ownCopy, .joinRequest, .ownJoinRequest: return false
            case .own: sawOwn = true
            case .other: break
            case .blobs: continue  // bytes travel on their own; pending ones keep the trip from this path
            }
            // Our own file must also still be exactly what we write (0644, one link).
            guard let seen = state.files[path], let found = folder.look(name), found.kind == .file, found.stamp == seen.stamp,
                kind != .own || found.isPlain, local.clock.covers(seen.clock)
            else { return false }
            files.append(path)
        }
        guard sawOwn else { return false }
        trip.unchanged = files
        return true
    }

    private func syncTrip(
        _ trip: inout SyncReport.Trip, root: FolderHandle, inFolder: Bool, blocked: String?, identity: inout DeviceIdentity, state: inout SyncState,
        report: inout SyncReport, now: UInt64
    ) throws {
        let tripID = trip.tripID
        let tripName = EntryName(tripID.description)
        // The home's replica: unreadable means this trip is not synced (never taken as new).
        let localPath = home.replicaPath(for: tripID)
        // Every sync folds the trip's edit journal into the replica first: what is merged and
        // published is one whole document, and the shared folder never sees a journal.
        try home.foldJournal(tripID, reader: reader)
        // Untouched replica and folder: nothing is parsed (the replica was read and checked when
        // its stamp was recorded).
        var folder: FolderHandle?
        if blocked == nil {
            if !inFolder { try root.makeFolder(tripName) }
            let opened = try root.openFolder(tripName)
            if try unchanged(&trip, folder: opened, me: identity.deviceID, state: state) {
                trip.published = opened.display(EntryName("\(identity.deviceID).trip.json.gz"))
                return
            }
            folder = opened
        }
        var local: TripDocument?
        if FileManager.default.fileExists(atPath: localPath) {
            do {
                local = try home.readReplica(tripID, reader: reader).document
            } catch {
                throw FileSystemError(
                    path: localPath, message: "this home's own replica is unreadable (\(error.errors.first.map { "\($0)" } ?? "\(error)")); the trip is not synced")
            }
        }
        if let local, local.tripID != tripID {
            throw FileSystemError(path: localPath, message: "this home's replica holds trip \(local.tripID), not the trip its name says; the trip is not synced")
        }
        trip.name = local?.trip.name.value
        guard let folder else { throw FileSystemError(path: root.display(tripName), message: blocked ?? "cannot be opened") }
        let conflictsBefore = local.map(FolderSync.conflictKeys) ?? []
        // What this device changed that no published file held yet, as a person counts it: each
        // item once however many fields, each attachment once, the trip's own name and zone as one
        // change; this laptop naming itself is no change to the plan: what publishing shares.
        let unsharedBefore = local.map { local in
            Set(
                DeliveryStatus(local, me: identity.deviceID, now: UTCTimestamp(millisecondsSinceEpoch: now)).changes.filter { !$0.published }
                    .compactMap { change -> String? in
                        if let item = change.item { return "item \(item)" }
                        if change.field.hasPrefix("trip ") { return "trip" }
                        if change.field == "device name" { return nil }
                        return change.field.hasPrefix("attachment") || change.field == "caption" ? "attachment \(change.title)" : "\(change.field) \(change.title)"
                    }
            ).count
        } ?? 0
        var document = local
        var clock = HybridLogicalClock(highWater: identity.highWater)
        if let local {
            // Opened as every replica is: a copy or restore noticed, a clock that ran ahead
            // recovered (`ReplicaState`, `ForkCheck`, `ClockRecovery`).
            let opened = ReplicaState(home: home, identity: identity, document: local, now: now)
            document = opened.document
            identity = opened.identity
            clock = opened.clock
            trip.notices += opened.notices
        }
        // This home's earlier ids: their files from a clock that ran ahead are ours to remove
        // once their content, re-stamped, is in the file we publish.
        let earlierIDs = Set(identity.formerIDs)
        var ownFromTheFuture: [(name: EntryName, digest: [UInt8])] = []
        var ownCopies: [(name: EntryName, digest: [UInt8])] = []
        var ownStaleTemps: [EntryName] = []
        // The file we published under the id we wrote as when this trip's sync began (a re-key
        // during the sync changes `identity`, and that file then sorts as another device's).
        var formerOwn: (name: EntryName, digest: [UInt8], id: DeviceID)?
        let startID = identity.deviceID
        let startName = EntryName("\(startID).trip.json.gz")
        var access = try TripAccess.load(home, tripID)
        let accessBefore = access.fingerprint
        var candidates: [Candidate] = []
        var joinRequests: [(path: String, request: JoinRequest)] = []
        for name in try folder.entries() {
            let path = folder.display(name)
            let me = identity.deviceID
            let kind = FolderSync.classify(name, me: me)
            switch kind {
            case .ownTemporary:
                ownStaleTemps.append(name)
                continue
            case .temporary:
                trip.skipped.append(.init(file: path, reason: "a temporary or partial file (still being written?), never merged in part"))
                continue
            case .notTrip:
                trip.skipped.append(.init(file: path, reason: "not a trip file (*.trip.json or *.trip.json.gz)"))
                continue
            case .ownJoinRequest, .blobs:
                continue
            case .joinRequest:
                // Only a laptop holding the owner key can admit anyone; others leave requests be.
                guard access.ownerKey != nil else { continue }
                do {
                    let (bytes, _) = try folder.readFile(name, maxBytes: 64 << 10)
                    let request = try JoinRequest(parsing: bytes)
                    guard request.trip == tripID, name.bytes.elementsEqual(JoinRequest.fileName(for: request.device).utf8) else {
                        trip.skipped.append(.init(file: path, reason: "a join request for another trip or device than its name says"))
                        continue
                    }
                    joinRequests.append((path, request))
                } catch let error as InviteError {
                    trip.skipped.append(.init(file: path, reason: "a join request that cannot be used: \(error.message)"))
                } catch let error as FileSystemError {
                    trip.skipped.append(.init(file: path, reason: error.message))
                }
                continue
            default: break
            }
            guard let (entryKind, listedStamp) = folder.kind(of: name) else {
                trip.skipped.append(.init(file: path, reason: "vanished while syncing"))
                continue
            }
            guard entryKind == .file else {
                let what = entryKind == .link ? "a symbolic link, not a file (never followed)" : entryKind == .folder ? "not a regular file (a folder)" : "not a regular file"
                trip.skipped.append(.init(file: path, reason: what))
                continue
            }
            // Unchanged since we merged it: skip without parsing.
            if let seen = state.files[path], seen.stamp == listedStamp, let document, document.clock.covers(seen.clock), kind != .ownCopy {
                trip.unchanged.append(path)
                if kind == .own || name == startName {
                    // Merged before, unchanged since: removable after a re-key (below). A file that
                    // cannot be read now, or changed meanwhile, is simply not removed.
                    do {
                        let (bytes, stamp) = try folder.readFile(name, maxBytes: reader.maxFileBytes)
                        if stamp == listedStamp { formerOwn = (name, SHA256.digest(bytes), startID) }
                    } catch {
                        formerOwn = nil
                    }
                }
                continue
            }
            let input: TripDocument
            let bytes: [UInt8]
            let stamp: FileStamp
            let signer: PublicKey?
            do {
                (bytes, stamp) = try folder.readFile(name, maxBytes: reader.maxFileBytes)
                let loaded = try reader.read(bytes: bytes, file: path)
                input = loaded.document
                signer = loaded.signedBy
            } catch let error as TripFileError {
                trip.skipped.append(.init(file: path, reason: error.errors.first.map { "\($0)" } ?? "\(error)"))
                continue
            } catch let error as FileSystemError {
                trip.skipped.append(.init(file: path, reason: error.message))
                continue
            }
            guard input.tripID == tripID else {
                trip.skipped.append(.init(file: path, reason: "belongs to trip \(input.tripID), not to this trip folder"))
                continue
            }
            if let (device, skew) = ClockGuard.futureDevice(in: input, nowMilliseconds: now) {
                if earlierIDs.contains(input.deviceID), local != nil {
                    ownFromTheFuture.append((name, SHA256.digest(bytes)))
                } else {
                    trip.skipped.append(.init(file: path, reason: ClockGuard.describe(device: device, skewMilliseconds: skew)))
                }
                continue
            }
            // Only our own files' digests are needed (to remove them later); no file's bytes are
            // kept while the others are read.
            let digest = kind == .ownCopy || kind == .own || name == startName ? SHA256.digest(bytes) : nil
            candidates.append(Candidate(name: name, path: path, kind: kind, input: input, digest: digest, stamp: stamp, signer: signer))
        }
        // Files under our own id first: a real copy of this home shows itself there, and once it
        // made us re-key, another member's file relaying its writes is judged against the new id.
        candidates.sort { ($0.input.deviceID == identity.deviceID ? 0 : 1) < ($1.input.deviceID == identity.deviceID ? 0 : 1) }
        // Membership first, from the replica and every readable file; then what each file may do.
        // A laptop without the trip trusts the owner it knows (an invite answered, the owner key
        // held here, the owner it trusted before a forget); one holding the trip open trusts only
        // an invite answered here.
        let trusted = document == nil ? access.trustedOwner : document?.owner == nil ? access.join?.code.ownerKey : nil
        let membership = Membership(local: document, trusted: trusted, inputs: candidates.map(\.input))
        if document == nil, trusted == nil, let owned = candidates.first(where: { $0.input.owner != nil })?.input.owner {
            // Nothing is trusted on first sight: an owned trip is joined through an invite.
            trip.notices.append(
                "not joined: this trip is owned (owner key \(owned.key.fingerprint)) and this laptop is not a member; ask the owner for an invite (tripsync invite) and run tripsync join CODE \(self.folder)")
            return
        }
        if document == nil, trusted != nil, membership.owner == nil || membership.grants[identity.deviceID] == nil {
            trip.waitingToJoin = true
            trip.notices.append("asked to join; waiting for the owner to admit this laptop (the owner's next sync does, then sync here again)")
            return
        }
        for claim in membership.pendingClaims {
            let claimants = candidates.filter { $0.input.owner?.key == claim.key }.map { $0.input.deviceName($0.input.deviceID) }
            trip.notices.append(
                "\(claimants.first ?? "a file") claims to own this trip (owner key \(claim.key.fingerprint)); this laptop keeps it open and skips that file. If the trip is yours, run tripsync members claim on your own laptop; if you trust the claimant, ask them for an invite and run tripsync join CODE \(self.folder)")
        }
        if let owner = membership.owner, document != nil {
            // What this laptop's own role means for its changes, said at every sync it matters.
            let me = identity.deviceID
            switch membership.effectiveGrant(of: me) {
            case nil:
                trip.notices.append("this laptop is not a member of this trip (owner key \(owner.key.fingerprint)): other laptops skip its files until the owner approves it (tripsync members approve \(me.description.prefix(8)))")
            case let grant? where grant.role == .removed:
                trip.notices.append("this laptop was removed from the trip: other laptops no longer take its files")
            case let grant? where grant.role == .viewer && (document.map { $0.hasContent(of: me, above: grant.seen?[me] ?? 0) } ?? false):
                trip.notices.append("this laptop is a viewer: its changes since it became one are not taken by other laptops")
            default: break
            }
        }
        var viewerFiles: [(Candidate, DeviceID)] = []
        for candidate in candidates {
            let (name, path, kind, input, stamp) = (candidate.name, candidate.path, candidate.kind, candidate.input, candidate.stamp)
            let me = identity.deviceID
            // An owned trip names a device by its grant here; a file's `devices` only says what
            // the device calls itself (what an owner sees of a device it has not admitted).
            let deviceName = membership.grants[input.deviceID]?.name ?? input.selfWrittenName(of: input.deviceID) ?? input.deviceID.description
            switch membership.verdict(for: input, signedBy: candidate.signer, name: "\(deviceName) (\(input.deviceID.description.prefix(8)))") {
            case .skipped(let reason):
                // Our own file is replaced below; what it held is in the replica already.
                if kind != .own { trip.skipped.append(.init(file: path, reason: reason)) }
                if let owner = membership.owner, input.owner?.key == owner.key, membership.effectiveGrant(of: input.deviceID) == nil, let key = candidate.signer,
                    access.requests[input.deviceID] == nil, !access.isDeclined(input.deviceID, freshInvite: false)
                {
                    access.requests[input.deviceID] = .init(key: key, name: deviceName, source: "a signed trip file", seen: UTCTimestamp(millisecondsSinceEpoch: now))
                }
                continue
            case .acksOnly:
                viewerFiles.append((candidate, input.deviceID))
                continue
            case .whole:
                break
            }
            for removed in membership.removedContent(in: input) {
                let who = membership.grants[removed.device]?.name ?? removed.device.description
                trip.notices.append(
                    "\(path) carries changes of \(who) (\(removed.device.description.prefix(8))), removed from the trip, made after its removal (up to \(removed.counter), the removal had seen \(removed.seen)); they are merged because \(deviceName)'s file vouches for them")
            }
            // Evidence of a fork of ours (`ForkCheck`, the one place that decides): in a file
            // under our id it means another copy of this home, and we re-key; in another
            // member's file it is a claim only our key may make, and the file is refused. A file
            // of ours merely not the one we last recorded (a crash before the state was saved)
            // is no evidence.
            let writer = "\(deviceName) (\(input.deviceID.description.prefix(8)))"
            let owned = membership.owner != nil
            let ourKey = owned ? try home.signingKey(for: me).publicKey : nil
            if var current = document {
                let (merged, forks) = try DocumentMerger.mergeFindingForks(current, input, writer: me)
                let ours = forks.filter { $0.rev.device == me }
                switch ForkCheck.decide(input, local: current, identity: identity, clock: clock, ownForks: ours, path: path, writer: writer, owned: owned, ourKey: ourKey) {
                case .refuse(let reason):
                    trip.skipped.append(.init(file: path, reason: reason))
                    continue
                case .rekey(let reason):
                    var rekeyed: TripDocument? = current
                    try rekey(&rekeyed, input: input, identity: &identity, clock: &clock, reason: reason, report: &report, now: now)
                    current = rekeyed ?? merged
                case .merge:
                    current = merged
                }
                record(forks.filter { $0.rev.device != identity.deviceID && $0.rev.device != me }, file: path, into: &trip)
                document = current
            } else {
                let decision = ForkCheck.decide(input, local: nil, identity: identity, clock: clock, ownForks: [], path: path, writer: writer, owned: owned, ourKey: ourKey)
                if case .refuse(let reason) = decision {
                    trip.skipped.append(.init(file: path, reason: reason))
                    continue
                }
                // Joining a trip found in the folder.
                var joined = input
                joined.deviceID = me
                document = joined
                trip.joined = true
                if case .rekey(let reason) = decision {
                    try rekey(&document, input: input, identity: &identity, clock: &clock, reason: reason, report: &report, now: now)
                }
            }
            trip.merged.append(path)
            state.files[path] = .init(stamp: stamp, clock: input.clock)
            if kind == .ownCopy, let digest = candidate.digest { ownCopies.append((name, digest)) }
            if kind == .own || name == startName, let digest = candidate.digest { formerOwn = (name, digest, startID) }
        }
        guard var document else { return }
        // Viewers' files give their own acks only; every owner-signed grant counts.
        for (candidate, viewer) in viewerFiles {
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
        // Publish: our acks entry, compaction, the local replica first, then our file in the folder.
        var replica = ReplicaState(home: home, identity: identity, document: document)
        replica.clock = clock
        // The owner admits the join requests that answer an unused invite made here, each
        // invite once; anything else waits for the owner (docs/DESIGN.md, "Invites are spent once").
        if let ownerKey = access.ownerKey, replica.document.owner?.key == ownerKey.publicKey {
            for (path, request) in joinRequests {
                let when = UTCTimestamp(millisecondsSinceEpoch: now)
                let grant = replica.document.members[request.device]
                let index = access.invites.firstIndex { request.answers($0.code) }
                let invite = index.map { access.invites[$0] }
                var asked = TripAccess.PendingRequest(key: request.key, name: request.name, source: "a join request", seen: when)
                asked.invite = invite?.code.id
                asked.role = invite?.code.role
                if asked.isSatisfied(by: grant) { continue }
                let fresh = invite.map { $0.usedBy == nil && $0.code.expires >= when } ?? false
                if access.isDeclined(request.device, freshInvite: fresh) { continue }
                let who = "\(path): \(request.name) (\(request.device.description.prefix(8)), key \(request.key.fingerprint))"
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
                            request.device, key: request.key, role: invite.code.role, name: request.name, ownerKey: ownerKey, hlc: &replica.clock, now: now)
                        access.invites[index].usedBy = request.device
                        access.invites[index].usedKey = request.key
                        access.names[request.device] = request.name
                        access.requests[request.device] = nil
                        access.declined[request.device] = nil
                        trip.notices.append("admitted \(request.name) (\(request.device.description.prefix(8)), key \(request.key.fingerprint)) as \(invite.code.role.rawValue)")
                        continue
                    }
                } else {
                    reason = "asks to join without an invite made on this laptop"
                }
                trip.notices.append(
                    "\(who) \(reason); not admitted: tripsync members approve \(request.device.description.prefix(8)) admits it, tripsync members decline \(request.device.description.prefix(8)) refuses it")
                access.requests[request.device] = asked
            }
            // Grants made before grants carried names are signed again with the name the owner
            // knows: its own, a join request's seen here, or the one the device wrote for itself.
            for (device, grant) in replica.document.members.sorted(by: { $0.key < $1.key }) where grant.name == nil {
                let known = device == identity.deviceID ? identity.name : access.names[device] ?? replica.document.selfWrittenName(of: device)
                if let known, try replica.document.nameGrant(device, name: known, ownerKey: ownerKey, hlc: &replica.clock, now: now) {
                    trip.notices.append("named \(known) (\(device.description.prefix(8))) in its grant")
                }
            }
        }
        // Attachments: staged ones enter the trip once their bytes are in the folder; bytes go
        // both ways (docs/DESIGN.md, "Attachments").
        let staged = try StagedAttachments.load(home, tripID)
        var delivery = AttachmentDelivery.Outcome(staged: staged)
        if !staged.entries.isEmpty || !replica.document.attachments.isEmpty {
            do throws(BlobError) {
                let deliverer = AttachmentDelivery(
                    store: try BlobStore(home: home.path), folder: FolderBlobStore(tripFolder: folder), progress: blobProgress)
                delivery = deliverer.run(&replica, staged: staged, now: now)
            } catch {
                delivery.notices.append("attachments not synced: \(error)")
                delivery.waiting = replica.document.attachments.count
            }
            trip.notices += delivery.notices
        }
        if delivery.waiting > 0 || !delivery.staged.entries.isEmpty { state.pending.insert(tripID) } else { state.pending.remove(tripID) }
        // The access record before the replica: an invite is never marked unused behind a grant.
        if access.fingerprint != accessBefore { try access.save(home, tripID) }
        try replica.registerDevice(now: now)
        replica.document.compact(now: UTCTimestamp(millisecondsSinceEpoch: now), policy: retention)
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
        guard delivery.mayPublish else {
            trip.failure = delivery.notices.last
            return
        }
        trip.newConflicts = FolderSync.conflictKeys(document).subtracting(conflictsBefore).count
        trip.changes = SyncReport.changes(before: local, after: document, me: [startID, identity.deviceID])
        // The replica's stamp is recorded only once our file is published (below): a publish
        // that failed must not let the next sync take this trip for unchanged.
        state.files[replica.path] = nil
        let ownName = EntryName("\(identity.deviceID).trip.json.gz")
        let bytes = try document.signedGzipData(signingKey: try home.signingKey(for: identity.deviceID))
        // Rewritten when the bytes differ, or when what is there is not exactly our plain file
        // (another mode, a setuid bit, a hard link shared with another name).
        var upToDate = false
        if folder.look(ownName)?.isPlain == true {
            do {
                upToDate = try folder.readFile(ownName, maxBytes: reader.maxFileBytes).bytes == bytes
            } catch {
                upToDate = false  // unreadable: it is replaced below
            }
        }
        if !upToDate {
            try folder.writeAtomically(bytes, to: ownName, mode: 0o644)
            trip.wrote = true
            trip.sharedChanges = unsharedBefore
        }
        let published = folder.display(ownName)
        if let (_, stamp) = folder.kind(of: ownName) { state.files[published] = .init(stamp: stamp, clock: document.clock) }
        trip.published = published
        if let (stamp, _, _, _) = SyncState.stamp(replica.path) { state.files[replica.path] = .init(stamp: stamp, clock: document.clock) }
        // Only now that their content is in our published file: our own conflicted copies go,
        // but only the exact bytes that were merged (a newer version that landed meanwhile stays).
        for copy in ownCopies {
            if removeIfUnchanged(copy.name, digest: copy.digest, in: folder) {
                state.files[folder.display(copy.name)] = nil
                trip.removed.append(folder.display(copy.name))
            }
        }
        for temp in ownStaleTemps { folder.remove(temp) }
        for old in ownFromTheFuture where removeIfUnchanged(old.name, digest: old.digest, in: folder) {
            state.files[folder.display(old.name)] = nil
            trip.removed.append(folder.display(old.name))
        }
        // After a re-key our file under the old id goes too (its bytes are merged into the one
        // just published): left there, its claim on the old id's counters would make every
        // later reader drop the other copy's writes under that id that it does not hold.
        if let former = formerOwn, former.id != identity.deviceID, removeIfUnchanged(former.name, digest: former.digest, in: folder) {
            state.files[folder.display(former.name)] = nil
            trip.removed.append(folder.display(former.name))
        }
    }

    /// A readable trip file of the trip folder, before membership decides what it may do.
    struct Candidate {
        var name: EntryName
        var path: String
        var kind: FileKind
        var input: TripDocument
        /// SHA-256 of the file's bytes, for our own files and copies only (what `removeIfUnchanged` compares).
        var digest: [UInt8]?
        var stamp: FileStamp
        var signer: PublicKey?
    }

    /// Removes our own conflicted copy `name` only if it still holds the bytes that were merged:
    /// it is first moved aside to a name of its own (so nothing can land at the name being
    /// removed), checked there, and put back when it changed (or left aside as another copy of
    /// ours, merged by the next sync, when its name was taken meanwhile).
    func removeIfUnchanged(_ name: EntryName, digest: [UInt8], in folder: FolderHandle) -> Bool {
        // "<device id>.aside-<random>.trip.json.gz": still a copy of that device's file.
        let aside = EntryName(Array(name.bytes.prefix(36)) + Array(".aside-\(UInt32.random(in: 0...UInt32.max)).trip.json.gz".utf8))
        guard folder.rename(name, to: aside) else { return false }
        let same: Bool
        do {
            same = SHA256.digest(try folder.readFile(aside, maxBytes: reader.maxFileBytes).bytes) == digest
        } catch {
            same = false
        }
        if same { return folder.remove(aside) }
        _ = folder.renameWithoutReplacing(aside, to: name)
        return false
    }

    private func record(_ forks: [SameDotFork], file: String, into trip: inout SyncReport.Trip) {
        var byDevice: [DeviceID: [String]] = [:]
        for fork in forks { byDevice[fork.rev.device, default: []].append(fork.pointer) }
        for (device, pointers) in byDevice.sorted(by: { $0.key < $1.key }) {
            trip.forks.append(SyncReport.Fork(device: device, file: file, pointers: pointers))
        }
    }

    /// Every conflict a person is shown (`ConflictList`), as one key each, so a sync can say
    /// how many it brought.
    static func conflictKeys(_ document: TripDocument) -> Set<String> {
        let list = ConflictList(document)
        let registers = list.registers.map { conflict -> String in
            switch conflict.subject {
            case .tripName: return "trip/name"
            case .tripZone: return "trip/zone"
            case .caption(let id, _): return "attachment/\(id)/caption"
            }
        }
        return Set(list.fields.map { "\($0.item)/\($0.field.rawValue)" } + list.deletedWhileEdited.map { "\($0.item)/deleted" } + registers)
    }

    private func rekey(
        _ document: inout TripDocument?, input: TripDocument, identity: inout DeviceIdentity, clock: inout HybridLogicalClock,
        reason: String, report: inout SyncReport, now: UInt64
    ) throws {
        guard let current = document else { return }
        let old = identity.deviceID
        // Persist the new id before anything is written under it; the old id is never written again.
        identity.highWater = max(identity.highWater, clock.highWater)
        identity = identity.successor(binding: identity.binding)
        let new = identity.deviceID
        try home.save(identity)
        document = try Rekey.merge(current, with: input, old: old, new: new, clock: &clock, now: now)
        // What the re-key wrote under the new id is this installation's: recorded before the
        // replica is opened to publish, which would otherwise take it for a restored home.
        identity.highWater = max(identity.highWater, clock.highWater)
        identity.issued.formUnion(clock.issued)
        try home.save(identity)
        report.rekeyed = SyncReport.Rekey(old: old, new: new, reason: reason)
    }
}

extension Home {
    /// The ids of the trip replicas in this home, by file name (nothing is parsed). A home
    /// without a trips folder has none; any other failure to list it is an error.
    func tripFileIDs() throws -> [TripID] {
        let names = try FileIO.folderTextNames(tripsPath, what: "this home's trips folder")
        return names.compactMap { name -> TripID? in
            guard name.hasSuffix(".trip.json.gz") else { return nil }
            return Identifier(String(name.dropLast(".trip.json.gz".count)))
        }
    }
}
