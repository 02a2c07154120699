import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one sync did.
public struct SyncReport: Sendable {
    /// A file that was not merged, and why.
    public struct Skipped: Hashable, Sendable {
        /// The file.
        public var file: String
        /// Why (temporary, invalid, newer schema, another trip, clock from the future, …).
        public var reason: String
    }

    /// Files published (ours, one per trip).
    public var published: [String] = []
    /// Files merged into the local replicas.
    public var merged: [String] = []
    /// Files already merged earlier and unchanged since: not parsed again.
    public var unchanged: [String] = []
    /// Files skipped, with the reason.
    public var skipped: [Skipped] = []
    /// Trips that this home joined from the folder.
    public var joined: [TripID] = []
    /// Our own conflicted copies removed after their content was merged and ours published.
    public var removed: [String] = []
    /// Set when a fork was found and this installation took a new device id.
    public var rekeyed: (old: DeviceID, new: DeviceID, reason: String)?

    /// An empty report.
    public init() {}
}

/// Sync with a shared folder (DESIGN.md section 3): `FOLDER/<tripId>/<deviceId>.trip.json.gz`,
/// one file per device, written only by that device, atomically. Every readable trip file in a
/// trip folder is merged (conflicted copies too: merge is idempotent), then ours is published.
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

    /// Creates a sync of `home` with `folder`.
    public init(home: Home, folder: String) {
        self.home = home
        self.folder = folder
    }

    /// Runs one sync with the home locked. Never stops at one bad file: those are skipped with a reason.
    public func run(now: UInt64 = FileMerger.wallClockMilliseconds()) throws -> SyncReport {
        let lock = try HomeLock(home: home)
        defer { withExtendedLifetime(lock) {} }
        var report = SyncReport()
        var state = SyncState.load(home)
        var identity = try home.identity()
        guard let (_, _, _, isFolder) = SyncState.stamp(folder), isFolder else {
            throw FileSystemError(path: folder, message: "is not a folder, expected the shared folder (Dropbox, Syncthing, a NAS, a USB stick)")
        }
        // Trips of the home, by file name; parsed only when something may have changed.
        var tripIDs = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: home.tripsPath)) ?? []).compactMap { name -> TripID? in
                guard name.hasSuffix(".trip.json.gz") else { return nil }
                return Identifier(String(name.dropLast(".trip.json.gz".count)))
            })
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in entries.sorted() {
            guard let id = Identifier(name) else { continue }
            guard let (_, _, _, isDir) = SyncState.stamp(folder + "/" + name), isDir else {
                report.skipped.append(.init(file: folder + "/" + name, reason: "named like a trip folder but not a folder"))
                continue
            }
            tripIDs.insert(id)
        }
        for (index, tripID) in tripIDs.sorted().enumerated() {
            progress?(index, tripIDs.count)
            if unchanged(tripID, identity: identity, state: state, report: &report) { continue }
            let localPath = LocalReplica.path(in: home, tripID: tripID)
            var local: TripDocument?
            if FileManager.default.fileExists(atPath: localPath) {
                do {
                    local = try reader.read(path: localPath).document
                } catch {
                    report.skipped.append(.init(file: localPath, reason: "this home's own replica is unreadable: \(error.errors.first.map { "\($0)" } ?? "\(error)"); not synced"))
                    continue
                }
            }
            try syncTrip(tripID, local: local, identity: &identity, state: &state, report: &report, now: now)
        }
        try state.save(home)
        return report
    }

    /// True (with every file reported unchanged) when neither the home's replica nor any file of
    /// the trip folder changed since the last sync: nothing is parsed.
    private func unchanged(_ tripID: TripID, identity: DeviceIdentity, state: SyncState, report: inout SyncReport) -> Bool {
        let localPath = LocalReplica.path(in: home, tripID: tripID)
        guard let local = state.files[localPath], let (stamp, _, _, _) = SyncState.stamp(localPath), stamp == local.stamp else { return false }
        let tripFolder = folder + "/\(tripID)"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: tripFolder) else { return false }
        var files: [String] = []
        var sawOwn = false
        for name in names {
            let path = tripFolder + "/" + name
            switch FolderSync.classify(name, me: identity.deviceID) {
            case .temporary, .notTrip, .ownCopy: return false
            case .own: sawOwn = true
            case .other: break
            }
            guard let seen = state.files[path], let (stamp, _, _, _) = SyncState.stamp(path), stamp == seen.stamp,
                local.clock.covers(seen.clock)
            else { return false }
            files.append(path)
        }
        guard sawOwn else { return false }
        report.unchanged += files.sorted()
        return true
    }

    private enum FileKind {
        case own, ownCopy, other, temporary, notTrip
    }

    private static func classify(_ name: String, me: DeviceID) -> FileKind {
        let temporary = name.hasPrefix(".") || name.hasPrefix("~") || name.contains(".tmp") || name.hasSuffix(".part")
            || name.hasSuffix(".partial") || name.hasSuffix(".crdownload") || name.hasSuffix(".download") || name.hasSuffix("~")
        if temporary { return .temporary }
        guard name.contains(".trip.json") else { return .notTrip }
        if name == "\(me).trip.json.gz" { return .own }
        if name.hasPrefix(me.description) { return .ownCopy }
        return .other
    }

    private func syncTrip(
        _ tripID: TripID, local: TripDocument?, identity: inout DeviceIdentity, state: inout SyncState, report: inout SyncReport, now: UInt64
    ) throws {
        let tripFolder = folder + "/\(tripID)"
        try FileIO.makeFolder(tripFolder)
        var document = local
        var clock = HybridLogicalClock(highWater: max(identity.highWater, local?.clock.maxCounter ?? 0))
        var ownCopies: [String] = []
        var ownStaleTemps: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: tripFolder)) ?? []).sorted()
        for name in names {
            let path = tripFolder + "/" + name
            let me = identity.deviceID
            let kind = FolderSync.classify(name, me: me)
            switch kind {
            case .temporary:
                if name.hasPrefix(".\(me).trip.json.gz.tmp-") { ownStaleTemps.append(path) } else {
                    report.skipped.append(.init(file: path, reason: "a temporary or partial file (still being written?), never merged in part"))
                }
                continue
            case .notTrip:
                report.skipped.append(.init(file: path, reason: "not a trip file (*.trip.json or *.trip.json.gz)"))
                continue
            default: break
            }
            guard let (stamp, isRegular, isLink, _) = SyncState.stamp(path) else {
                report.skipped.append(.init(file: path, reason: "vanished while syncing"))
                continue
            }
            guard isRegular else {
                report.skipped.append(.init(file: path, reason: isLink ? "a symbolic link, not a file" : "not a regular file"))
                continue
            }
            // Unchanged since we merged it: skip without parsing.
            if let seen = state.files[path], seen.stamp == stamp, let document, document.clock.covers(seen.clock), kind != .ownCopy {
                report.unchanged.append(path)
                continue
            }
            let input: TripDocument
            var bytes: [UInt8] = []
            do {
                bytes = try FileIO.readFile(path, maxBytes: reader.maxFileBytes)
                input = try reader.read(bytes: bytes, file: path).document
            } catch let error as TripFileError {
                report.skipped.append(.init(file: path, reason: error.errors.first.map { "\($0)" } ?? "\(error)"))
                continue
            } catch let error as FileSystemError {
                report.skipped.append(.init(file: path, reason: error.message))
                continue
            }
            guard input.tripID == tripID else {
                report.skipped.append(.init(file: path, reason: "belongs to trip \(input.tripID), not to this trip folder"))
                continue
            }
            if let (device, skew) = ClockGuard.futureDevice(in: input, nowMilliseconds: now) {
                report.skipped.append(.init(file: path, reason: ClockGuard.describe(device: device, skewMilliseconds: skew)))
                continue
            }
            // Fork signs: our own file rewritten by someone else; an input claiming more of us than we issued.
            var forkReason: String?
            if kind == .own, let expected = state.published[path], expected != SHA256.hex(SHA256.digest(bytes)) {
                forkReason = "our own file \(name) in the shared folder is not the one we last published"
            }
            let claimed = max(input.clock[me], input.acks.values.map { $0[me] }.max() ?? 0)
            if forkReason == nil && claimed > max(identity.highWater, document?.clock[me] ?? 0) {
                forkReason = "\(name) holds writes of device \(me) up to \(claimed), more than this installation ever issued (\(identity.highWater))"
            }
            guard var current = document else {
                // Joining a trip found in the folder.
                var joined = input
                joined.deviceID = me
                if joined.clock[me] > identity.highWater {
                    forkReason = forkReason ?? "the trip already holds writes under this installation's id"
                }
                document = joined
                if !report.joined.contains(tripID) { report.joined.append(tripID) }
                report.merged.append(path)
                state.files[path] = .init(stamp: stamp, clock: input.clock)
                if kind == .ownCopy { ownCopies.append(path) }
                if let forkReason { try rekey(&document, input: input, identity: &identity, clock: &clock, reason: forkReason, report: &report, now: now) }
                continue
            }
            do {
                if forkReason != nil { throw MergeError(.sameDotDifferentValues, message: forkReason ?? "") }
                current = try DocumentMerger.merge(current, input, writer: me)
                document = current
            } catch let error as MergeError where error.kind == .sameDotDifferentValues {
                let involvesUs = forkReason != nil || (error.message.contains(me.description))
                guard involvesUs else {
                    report.skipped.append(.init(file: path, reason: "\(error)"))
                    continue
                }
                var rekeyed: TripDocument? = current
                try rekey(&rekeyed, input: input, identity: &identity, clock: &clock, reason: forkReason ?? error.message, report: &report, now: now)
                document = rekeyed
            } catch let error as MergeError {
                report.skipped.append(.init(file: path, reason: "\(error)"))
                continue
            }
            report.merged.append(path)
            state.files[path] = .init(stamp: stamp, clock: input.clock)
            if kind == .ownCopy { ownCopies.append(path) }
        }
        guard var document else { return }
        // Publish: our acks entry, compaction, the local replica first, then our file in the folder.
        var replica = LocalReplica(home: home, identity: identity, document: document)
        replica.clock = clock
        try replica.registerDevice(now: now)
        replica.document.compact(now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), policy: retention)
        replica.document.acknowledgeOwnState()
        var stored = local
        stored?.deviceID = replica.document.deviceID
        if stored != replica.document || identity != replica.identity {
            try replica.save()
        }
        identity = replica.identity
        document = replica.document
        if let (stamp, _, _, _) = SyncState.stamp(replica.path) { state.files[replica.path] = .init(stamp: stamp, clock: document.clock) }
        let published = tripFolder + "/\(identity.deviceID).trip.json.gz"
        let bytes = try document.gzipData()
        if FileManager.default.contents(atPath: published).map(Array.init) != bytes {
            try FileIO.writeAtomically(bytes, to: published)
        }
        state.published[published] = SHA256.hex(SHA256.digest(bytes))
        if let (stamp, _, _, _) = SyncState.stamp(published) { state.files[published] = .init(stamp: stamp, clock: document.clock) }
        report.published.append(published)
        // Only now that their content is in our published file: our own conflicted copies and stale temps go.
        for path in ownCopies + ownStaleTemps where unlink(path) == 0 {
            state.files[path] = nil
            if ownCopies.contains(path) { report.removed.append(path) }
        }
    }

    private func rekey(
        _ document: inout TripDocument?, input: TripDocument, identity: inout DeviceIdentity, clock: inout HybridLogicalClock,
        reason: String, report: inout SyncReport, now: UInt64
    ) throws {
        guard let current = document else { return }
        let old = identity.deviceID
        let new = Identifier.random()
        // Persist the new id before anything is written under it; the old id is never written again.
        identity = DeviceIdentity(deviceID: new, name: identity.name, highWater: max(identity.highWater, clock.highWater))
        try home.save(identity)
        document = try Rekey.merge(current, with: input, old: old, new: new, clock: &clock, now: now)
        report.rekeyed = (old, new, reason)
    }
}

