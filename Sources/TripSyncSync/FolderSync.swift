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
package struct FolderSync: Sendable {
    /// This installation's home.
    package var home: Home
    /// The shared folder.
    package var folder: String
    /// How files are read.
    package var reader = TripFileReader()
    /// Retention for compaction after merging.
    package var retention = RetentionPolicy.standard
    /// Called before each trip with (trips done, trips in all); for progress on a terminal.
    package var progress: (@Sendable (Int, Int) -> Void)?
    /// Called while an attachment's bytes are copied, with (its name, bytes done, bytes in all,
    /// whether it is being fetched rather than shared); for progress on a terminal.
    package var blobProgress: (@Sendable (String, Int64, Int64, Bool) -> Void)?
    /// Told the path of every file of the shared folder a sync reads (what a test counts: each
    /// file is read once per sync, `TripRound.scan`).
    package var onFolderRead: (@Sendable (String) -> Void)?

    /// Creates a sync of `home` with `folder`.
    package init(home: Home, folder: String) {
        self.home = home
        self.folder = folder
    }

    /// Runs one sync with the home locked. Throws only when nothing could be synced at all (the
    /// home is locked or unreadable, the folder is not a folder); a trip that cannot be synced
    /// is reported in its `SyncReport.Trip.failure` and the others go on. Every trip synced
    /// records the folder as its last one (`lastFolder(of:)`; a failure to record it is in
    /// `SyncReport.lastFolderProblems`).
    package func run(now: UInt64 = FileMerger.wallClockMilliseconds()) throws -> SyncReport {
        let lock = try HomeLock(home: home)
        defer { withExtendedLifetime(lock) {} }
        return try run(locked: lock, only: nil, now: now)
    }

    /// One sync by a caller that holds the home's lock (`TripStore.sync`), of every trip or
    /// only of `only`.
    package func run(locked lock: HomeLock, only: TripID?, now: UInt64) throws -> SyncReport {
        try runKeeping(locked: lock, only: only, now: now).report
    }

    /// What a sync ended with, for a caller holding a trip open (`TripStore.sync`), so it reads
    /// nothing back: the report, this installation's identity (opened once per sync), each
    /// trip's replica as saved (read once per sync), and the trips whose edit journal the sync
    /// folded into the replica and removed.
    package struct Kept {
        /// What the sync did.
        package var report = SyncReport()
        /// This installation's identity as the sync left it (a re-key changes it).
        package var identity: DeviceIdentity
        /// Each trip's replica as the sync saved it (or found it already as merged). A trip found
        /// unchanged, or whose sync stopped before saving, is not here: its file is as it was
        /// (with its journal folded in, when `folded` holds it).
        package var documents: [TripID: TripDocument] = [:]
        /// Trips whose edit journal is gone: folded into the replica (or there was none).
        package var folded: Set<TripID> = []
    }

    /// One sync under the caller's lock, handing back what it ended with (`Kept`).
    package func runKeeping(locked lock: HomeLock, only: TripID?, now: UInt64) throws -> Kept {
        var documents: [TripID: TripDocument] = [:]
        var folded: Set<TripID> = []
        var report = SyncReport()
        var (state, stateWarning) = SyncState.load(home)
        if let stateWarning { report.warnings.append(stateWarning) }
        var (identity, notice) = try home.openIdentity()
        if let notice { report.warnings.append(notice) }
        let root = try FolderHandle.open(path: folder)
        root.onRead = onFolderRead
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
                try syncTrip(
                    &trip, root: root, inFolder: inFolder.contains(tripID), blocked: blocked[tripID], identity: &identity, state: &state, report: &report,
                    saved: &documents[tripID], folded: &folded, now: now)
            } catch let error as TripFileError {
                trip.failure = TripError(.invalidFile, facts: error.facts, message: error.errors.first.map { "\($0)" } ?? "\(error)")
            } catch {
                trip.failure = TripError(error)
            }
            if let failure = trip.failure, trip.savedLocally {
                // The home changed: say what is kept and what is not, not only what failed.
                let merged = trip.merged.count
                trip.failure?.message =
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
        // What a sync without a folder uses next time: this folder, for every trip synced.
        report.lastFolderProblems = home.recordLastFolder(folder, of: report)
        return Kept(report: report, identity: identity, documents: documents, folded: folded)
    }

    /// What a name in a trip folder is.
    enum FileKind: Equatable {
        case own, ownCopy, other, ownTemporary, temporary, notTrip, joinRequest, ownJoinRequest, blobs, keyring, boxAnnouncement
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
        if name.hasSuffix(".keyring.json") { return .keyring }
        if name.hasSuffix(".box.json") { return .boxAnnouncement }
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
        // A new epoch the owner asked for (`members rotate`) is started by the whole sync; a
        // record that cannot be read is reported by it.
        do {
            if try TripAccess.load(home, trip.tripID).rotateAsked { return false }
        } catch {
            return false
        }
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
            case .keyring, .boxAnnouncement:
                // A keyring or a member's encryption key changed since the last sync saw it
                // (`openKeyrings`, `TripRound.scan`): the whole sync.
                guard let seen = state.files[path], let found = folder.look(name), found.kind == .file, found.stamp == seen.stamp else { return false }
                continue
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

    /// One trip's sync, as its stages (docs/DESIGN.md, "Sync stages"): the trip folder opened
    /// (nothing parsed when neither it nor the replica changed), the replica read once, then
    /// `TripRound`'s scan, admit, check forks and merge, settle membership, admit join
    /// requests, settle the keyring, deliver attachments, save locally and publish (our file,
    /// then our keyring).
    private func syncTrip(
        _ trip: inout SyncReport.Trip, root: FolderHandle, inFolder: Bool, blocked: String?, identity: inout DeviceIdentity, state: inout SyncState,
        report: inout SyncReport, saved: inout TripDocument?, folded: inout Set<TripID>, now: UInt64
    ) throws {
        let tripName = EntryName(trip.tripID.description)
        // Every sync folds the trip's edit journal into the replica first: what is merged and
        // published is one whole document, and the shared folder never sees a journal. The
        // replica the fold read is the one the sync goes on with (read once).
        let afterFold = try home.foldJournal(trip.tripID, reader: reader)
        folded.insert(trip.tripID)
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
        let local = try afterFold.map { try checked($0, trip.tripID) } ?? readReplica(trip.tripID)
        trip.name = local?.trip.name.value
        guard let folder else { throw FileSystemError(path: root.display(tripName), message: blocked ?? "cannot be opened") }
        var round = try TripRound(sync: self, trip: trip, folder: folder, local: local, identity: identity, state: state, now: now)
        defer {
            trip = round.trip
            identity = round.identity
            state = round.state
            if let rekeyed = round.rekeyed { report.rekeyed = rekeyed }
            if round.saved { saved = round.document }
        }
        let scan = try round.scan()
        guard let admitted = round.admit(scan) else { return }
        let merged = try round.checkForksAndMerge(admitted)
        guard var replica = round.settleMembership(admitted, merged) else { return }
        try round.admitJoinRequests(&replica, scan: admitted.scan)
        let keyring = try round.settleKeyring(replica, keyrings: admitted.scan.keyrings, boxes: admitted.scan.boxFiles)
        let (delivery, staged) = try round.deliverAttachments(&replica)
        try round.saveLocally(&replica, delivery: delivery, staged: staged)
        guard delivery.mayPublish else {
            round.trip.failure = delivery.notices.last.map { TripError(.fileSystem, message: $0) }
            return
        }
        try round.publish(replica, scan: admitted.scan, merged: merged)
        try round.publishKeyring(keyring)
        try round.announceBox(replica)
    }

    /// The home's replica of `tripID`, read and checked once per sync; nil when the home has
    /// none. Unreadable means the trip is not synced (never taken as new).
    private func readReplica(_ tripID: TripID) throws -> TripDocument? {
        let localPath = home.replicaPath(for: tripID)
        guard FileManager.default.fileExists(atPath: localPath) else { return nil }
        let local: TripDocument
        do {
            local = try home.readReplica(tripID, reader: reader).document
        } catch {
            throw FileSystemError(
                path: localPath, message: "this home's own replica is unreadable (\(error.errors.first.map { "\($0)" } ?? "\(error)")); the trip is not synced")
        }
        return try checked(local, tripID)
    }

    /// `local`, the home's replica of `tripID`, when it holds that trip.
    private func checked(_ local: TripDocument, _ tripID: TripID) throws -> TripDocument {
        guard local.tripID == tripID else {
            throw FileSystemError(
                path: home.replicaPath(for: tripID), message: "this home's replica holds trip \(local.tripID), not the trip its name says; the trip is not synced")
        }
        return local
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

    func record(_ forks: [SameDotFork], file: String, into trip: inout SyncReport.Trip) {
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

    /// Takes a new device id after `reason` (`ForkCheck.decide` said so), persisted before
    /// anything is written under it, and merges `input` with our writes after the split moved
    /// to the new id (`Rekey.merge`).
    func rekey(
        _ document: inout TripDocument?, input: TripDocument, identity: inout DeviceIdentity, clock: inout HybridLogicalClock,
        reason: String, rekeyed: inout SyncReport.Rekey?, now: UInt64
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
        rekeyed = SyncReport.Rekey(old: old, new: new, reason: reason)
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
