import TripSyncPlatform
import TripSyncCore
import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a home remembers between syncs: the files already merged, so unchanged ones are not
/// parsed again. Stored in `HOME/sync-state.json`; losing it only costs a re-read, so a broken
/// one is set aside with a warning.
package struct SyncState {
    struct Seen {
        var stamp: FileStamp
        var clock: VersionVector
    }

    /// A file skipped by a sync, remembered so the next sync does not read it again while its
    /// name, size, time and inode are unchanged and what decided the skip still holds
    /// (docs/DESIGN.md, "Limits hold for the merged state": files skipped once are not re-read).
    struct Skip {
        var stamp: FileStamp
        /// What the decision depended on besides the bytes: the digest of the trip's membership
        /// when the skip was decided by it (`TripRound.membershipDigest`), empty when the bytes
        /// alone decided (an invalid file, another trip's).
        var context: String
        var reason: String
        /// The device the owner could admit, when that was the remedy.
        var device: DeviceID?
    }

    var files: [String: Seen] = [:]
    var skips: [String: Skip] = [:]
    /// Trips with attachment work left (staged here, or bytes not arrived): never taken for
    /// unchanged, so a later sync fetches the bytes once they land.
    var pending: Set<TripID> = []

    static func path(_ home: Home) -> String { home.layout.syncState }

    /// The state, or an empty one with a warning when the file is there but cannot be used.
    static func load(_ home: Home) -> (SyncState, warning: String?) {
        var state = SyncState()
        let file = path(home)
        var info = stat()
        guard lstat(file, &info) == 0 else { return (state, nil) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(try FileIO.readFile(file, maxBytes: 64 << 20))
        } catch {
            return (state, "\(file): the sync state is unreadable (\(error)); every file is read again")
        }
        if case .object(let files)? = json["files"] {
            for (file, entry) in files {
                guard let size = entry["size"]?.intValue, let modified = entry["modified"]?.intValue, let inode = entry["inode"]?.intValue,
                    case .object(let clock)? = entry["clock"]
                else { continue }
                var vector = VersionVector()
                for (device, counter) in clock {
                    if let id = Identifier(device), let value = counter.intValue, value > 0 { vector[id] = UInt64(value) }
                }
                state.files[file] = Seen(stamp: FileStamp(size: size, modified: modified, inode: UInt64(bitPattern: inode)), clock: vector)
            }
        }
        // Skips: path → [size, modified, inode, reason (index into "skipReasons"), context,
        // device or ""], arrays rather than objects so a folder of 10,000 skipped files costs
        // little to write (an object's keys are sorted) and reasons are stored once each.
        if case .object(let skips)? = json["skipped"], case .array(let reasons)? = json["skipReasons"] {
            for (file, entry) in skips {
                guard case .array(let fields) = entry, fields.count == 6, let size = fields[0].intValue, let modified = fields[1].intValue,
                    let inode = fields[2].intValue, let index = fields[3].intValue, index >= 0, index < reasons.count,
                    let reason = reasons[Int(index)].stringValue, let context = fields[4].stringValue, let device = fields[5].stringValue
                else { continue }
                state.skips[file] = Skip(
                    stamp: FileStamp(size: size, modified: modified, inode: UInt64(bitPattern: inode)), context: context, reason: reason,
                    device: Identifier(device))
            }
        }
        if case .array(let pending)? = json["pending"] {
            for entry in pending { if let id = entry.stringValue.flatMap(Identifier.init) { state.pending.insert(id) } }
        }
        return (state, nil)
    }

    func save(_ home: Home) throws {
        var files: [String: JSONValue] = [:]
        for (file, seen) in self.files {
            var clock: [String: JSONValue] = [:]
            for (device, counter) in seen.clock.entries { clock[device.description] = .int(Int64(counter)) }
            files[file] = [
                "size": .int(seen.stamp.size), "modified": .int(seen.stamp.modified), "inode": .int(Int64(bitPattern: seen.stamp.inode)),
                "clock": .object(clock),
            ]
        }
        var skipped: [String: JSONValue] = [:]
        var reasons: [String] = []
        var reasonIndex: [String: Int] = [:]
        for (file, skip) in skips {
            let index = reasonIndex[skip.reason] ?? reasons.count
            if index == reasons.count {
                reasons.append(skip.reason)
                reasonIndex[skip.reason] = index
            }
            skipped[file] = .array([
                .int(skip.stamp.size), .int(skip.stamp.modified), .int(Int64(bitPattern: skip.stamp.inode)), .int(Int64(index)), .string(skip.context),
                .string(skip.device?.description ?? ""),
            ])
        }
        var json: JSONValue = ["files": .object(files), "pending": .array(pending.sorted().map { .string($0.description) })]
        if !skipped.isEmpty {
            json = [
                "files": .object(files), "pending": .array(pending.sorted().map { .string($0.description) }), "skipped": .object(skipped),
                "skipReasons": .array(reasons.map { .string($0) }),
            ]
        }
        try FileIO.writeAtomically(Array((json.text + "\n").utf8), to: SyncState.path(home), mode: 0o600)
    }

    /// The size, modification time (ns) and inode of a path, without following links.
    package static func stamp(_ path: String) -> (FileStamp, isRegular: Bool, isLink: Bool, isFolder: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return (
            FileStamp(size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino)), kind == S_IFREG, kind == S_IFLNK,
            kind == S_IFDIR
        )
    }
}
