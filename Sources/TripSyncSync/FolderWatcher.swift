import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for changes in a shared folder and in a home's trips folder: inotify on Linux, polling
/// elsewhere (and on Linux when inotify is unavailable).
///
/// Watched: the shared folder, every trip folder in it (a folder whose name parses as a trip id;
/// never a symbolic link) and, when given, the home's `trips/` folder. A watch follows an inode,
/// so a folder replaced under the same path (`rm -rf` then `mkdir`, or a rename over it) is
/// noticed from its delete/move events or from a changed inode, and watched again: after those
/// events, on a queue overflow, and at every `refresh()`.
package final class FolderWatcher {
    /// The shared folder.
    package let folder: String
    /// The home's trips folder (`HOME/trips`), or nil when only the shared folder is watched.
    package let home: String?
    /// Whether changes come from inotify (false: the folders are polled).
    package private(set) var usesInotify = false
    /// How many times the shared folder was found replaced (another inode at its path) and watched anew.
    package private(set) var sharedFolderReplacements = 0

    /// Names in the home's trips folder that never count as a change (dot-files, such as the
    /// home's own `.NAME.tmp-…` temp files, never count anywhere).
    package static let homeIgnoredNames: Set<String> = HomeLayout.unwatchedNames

    /// Whether a change to `name` in the home's trips folder never counts: the names above, and
    /// a trip's view (`<tripId>.view`, a cache of the replica and journal: the edit that wrote
    /// it changed the journal, which counts).
    static func isIgnoredInHome(_ name: [UInt8]) -> Bool {
        homeIgnoredNamesBytes.contains(name) || name.count > viewSuffixBytes.count && Array(name.suffix(viewSuffixBytes.count)) == viewSuffixBytes
    }

    private static let homeIgnoredNamesBytes = Set(homeIgnoredNames.map { Array($0.utf8) })
    private static let viewSuffixBytes = Array(HomeLayout.viewSuffix.utf8)

    private enum Role { case shared, trip, home }

    #if os(Linux)
        private struct Watch {
            var path: String
            var role: Role
            var device: UInt64
            var inode: UInt64
        }

        private var fd: Int32 = -1
        private var byDescriptor: [Int32: Watch] = [:]
        private var byPath: [String: Int32] = [:]
        private var carry: [UInt8] = []
        private var needsRefresh = false
        private var sharedInode: (UInt64, UInt64)?
    #endif
    private var lastSnapshot: [String: FileSignature] = [:]

    /// Watches `folder` and its trip folders, and `home` (a home's `trips/` folder) when given.
    /// With `polling`, or when inotify is unavailable, the folders are listed every poll interval instead.
    package init(folder: String, home: String? = nil, polling: Bool = false) {
        self.folder = folder
        self.home = home
        #if os(Linux)
            if !polling {
                fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
                usesInotify = fd >= 0
            }
        #endif
        if usesInotify {
            refresh()
        } else {
            lastSnapshot = snapshot()
        }
    }

    deinit {
        #if os(Linux)
            if fd >= 0 { close(fd) }
        #endif
    }

    /// Re-scans the folders and re-arms watches: adds one for every trip folder not watched yet,
    /// drops those whose folder is gone, and watches again a path whose inode changed (a folder
    /// replaced under the same path). Call it after each sync round. Returns true when a watch
    /// was added.
    @discardableResult
    package func refresh() -> Bool {
        #if os(Linux)
            guard usesInotify else { return false }
            needsRefresh = false
            var desired: [String: Role] = [folder: .shared]
            if let home { desired[home] = .home }
            for name in FolderWatcher.names(in: folder).compactMap({ String(validating: $0, as: UTF8.self) }) where Identifier(name) != nil {
                let path = folder + "/" + name
                if FolderWatcher.folderIdentity(path) != nil { desired[path] = .trip }
            }
            // Drop watches whose path is gone, is no longer wanted, or now names another inode.
            for (path, descriptor) in byPath {
                guard let watch = byDescriptor[descriptor] else {
                    byPath[path] = nil
                    continue
                }
                let same = FolderWatcher.folderIdentity(path).map { $0 == (watch.device, watch.inode) } ?? false
                if desired[path] == nil || !same {
                    inotify_rm_watch(fd, descriptor)
                    forget(descriptor)
                }
            }
            var added = false
            for (path, role) in desired.sorted(by: { $0.key < $1.key }) where byPath[path] == nil {
                if arm(path, role: role) { added = true }
            }
            return added
        #else
            return false
        #endif
    }

    /// Returns true when something changed: after `debounce` seconds without a further change,
    /// or `maxDelay` seconds after the first change when changes keep coming (so a slow stream
    /// of changes never starves the sync). Returns false when `shouldStop` turns true (checked
    /// at least every 200 ms). Dot-files never count; in trip folders, a name in `ignoring`
    /// (our own published file) counts only when it is deleted or moved away. When polling, the
    /// folders are listed every `pollInterval` seconds and any other difference (a name, size,
    /// time, inode or type) counts at once.
    package func waitForChange(
        debounce: Double = 0.5, maxDelay: Double = 5, pollInterval: Double = 2, ignoring: Set<String>, shouldStop: () -> Bool
    ) -> Bool {
        #if os(Linux)
            if usesInotify { return waitForEvents(debounce: debounce, maxDelay: maxDelay, ignoring: ignoring, shouldStop: shouldStop) }
        #endif
        var next = FolderWatcher.monotonicSeconds() + pollInterval
        while !shouldStop() {
            if FolderWatcher.monotonicSeconds() >= next {
                let current = snapshot()
                let changed = current.contains { path, signature in
                    lastSnapshot[path] != signature && !FolderWatcher.isIgnored(path, ignoring: ignoring)
                } || lastSnapshot.keys.contains { current[$0] == nil }
                lastSnapshot = current
                if changed { return true }
                next = FolderWatcher.monotonicSeconds() + pollInterval
            }
            usleep(UInt32(min(0.2, max(0.01, next - FolderWatcher.monotonicSeconds())) * 1e6))
        }
        return false
    }

    // MARK: - Polling

    private struct FileSignature: Equatable {
        var size: Int64
        var modified: Int64
        var changed: Int64
        var inode: UInt64
        var mode: UInt32
    }

    /// Whether a change of `path` is our own file written in a trip folder (not counted).
    private static func isIgnored(_ path: String, ignoring: Set<String>) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return false }
        return ignoring.contains(String(path[path.index(after: slash)...]))
    }

    /// What the polled folders hold now: every counted entry with its size, times, inode and type.
    private func snapshot() -> [String: FileSignature] {
        var result: [String: FileSignature] = [:]
        func list(_ path: String, role: Role) {
            guard var signature = FolderWatcher.signature(path), signature.mode & UInt32(S_IFMT) == UInt32(S_IFDIR) else { return }
            // A folder counts by its inode only: its times change with every file, temp files too.
            (signature.size, signature.modified, signature.changed) = (0, 0, 0)
            result[path] = signature
            // Names are bytes: one that is not UTF-8 (a Latin-1 conflicted copy) counts like any other.
            for bytes in FolderWatcher.names(in: path) where bytes.first != UInt8(ascii: ".") {
                let name = PrintableText.escape(bytes: bytes)
                if role == .home && FolderWatcher.isIgnoredInHome(bytes) { continue }
                let child = path + "/" + name
                let childBytes = Array((path + "/").utf8) + bytes
                if role == .shared, Identifier(name) != nil, FolderWatcher.folderIdentity(child) != nil {
                    list(child, role: .trip)
                } else if let signature = FolderWatcher.signature(childBytes) {
                    result[child] = signature
                }
            }
        }
        list(folder, role: .shared)
        if let home { list(home, role: .home) }
        return result
    }

    private static func signature(_ path: String) -> FileSignature? { signature(Array(path.utf8)) }

    /// The signature of the entry at the path `bytes` (a name need not be UTF-8), not following a link.
    private static func signature(_ bytes: [UInt8]) -> FileSignature? {
        var info = stat()
        guard FileIO.withCName(bytes, { lstat($0, &info) }) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            let changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        return FileSignature(size: Int64(info.st_size), modified: modified, changed: changed, inode: UInt64(info.st_ino), mode: UInt32(info.st_mode))
    }

    /// The device and inode of `path` when it is a real folder (not a link to one), else nil.
    private static func folderIdentity(_ path: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    // MARK: - inotify events

    /// One inotify event as the kernel lays it out: `wd`, `mask`, `cookie`, `len`, then `len`
    /// bytes of NUL-padded name. The name is kept as bytes (a file name need not be UTF-8).
    struct Event: Equatable {
        var descriptor: Int32
        var mask: UInt32
        var cookie: UInt32
        var name: [UInt8]
    }

    /// The size of `struct inotify_event` without its name.
    static let eventHeaderSize = 16

    /// Parses the complete events at the start of `bytes`; returns them and how many bytes they
    /// took. An event cut short (its header or name not all there yet) is left for the next read.
    static func parseEvents(_ bytes: [UInt8]) -> (events: [Event], consumed: Int) {
        var events: [Event] = []
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset + eventHeaderSize <= raw.count {
                let descriptor = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + eventHeaderSize
                guard length <= raw.count - nameStart else { break }
                let name = Array(raw[nameStart..<(nameStart + length)].prefix { $0 != 0 })
                events.append(Event(descriptor: descriptor, mask: mask, cookie: cookie, name: name))
                offset = nameStart + length
            }
        }
        return (events, offset)
    }

    #if os(Linux)
        private func waitForEvents(debounce: Double, maxDelay: Double, ignoring: Set<String>, shouldStop: () -> Bool) -> Bool {
            let ignored = Set(ignoring.map { Array($0.utf8) })
            var firstChange: Double?
            var lastChange = 0.0
            var lastRootCheck = FolderWatcher.monotonicSeconds()
            while !shouldStop() {
                let now = FolderWatcher.monotonicSeconds()
                var timeout = 200
                if let first = firstChange {
                    let due = min(lastChange + debounce, first + maxDelay)
                    if now >= due {
                        refresh()
                        return true
                    }
                    timeout = max(1, min(200, Int(((due - now) * 1000).rounded(.up))))
                }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, Int32(timeout)) > 0 && drain(ignored: ignored) {
                    let now = FolderWatcher.monotonicSeconds()
                    if firstChange == nil { firstChange = now }
                    lastChange = now
                }
                if needsRefresh { refresh() }
                // A root (the shared folder, the home's trips folder) that is gone has no watch to
                // tell when it comes back: look for it every second.
                let rootsMissing = byPath[folder] == nil || (home.map { byPath[$0] == nil } ?? false)
                if rootsMissing && FolderWatcher.monotonicSeconds() - lastRootCheck >= 1 {
                    lastRootCheck = FolderWatcher.monotonicSeconds()
                    if refresh() {
                        let now = FolderWatcher.monotonicSeconds()
                        if firstChange == nil { firstChange = now }
                        lastChange = now
                    }
                }
            }
            return false
        }

        /// Reads every pending event (until the read would block); true when one of them counts.
        private func drain(ignored: Set<[UInt8]>) -> Bool {
            var relevant = false
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }  // EAGAIN: nothing more for now
                carry.append(contentsOf: buffer[0..<count])
                let (events, consumed) = FolderWatcher.parseEvents(carry)
                carry.removeFirst(consumed)
                if carry.count > 1 << 20 {
                    // Never a real event: resynchronize by forgetting the bytes and re-scanning.
                    carry.removeAll()
                    needsRefresh = true
                    relevant = true
                }
                for event in events where handle(event, ignored: ignored) { relevant = true }
            }
            return relevant
        }

        /// Updates the watches for one event; true when it is a change that counts.
        private func handle(_ event: Event, ignored: Set<[UInt8]>) -> Bool {
            let mask = event.mask
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                needsRefresh = true
                return true
            }
            guard let watch = byDescriptor[event.descriptor] else { return false }  // a watch already dropped
            if mask & UInt32(IN_IGNORED) != 0 {
                forget(event.descriptor)
                needsRefresh = true
                return true
            }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                // A moved folder keeps its watch: drop it, the path is watched again by refresh.
                inotify_rm_watch(fd, event.descriptor)
                forget(event.descriptor)
                needsRefresh = true
                return true
            }
            guard let first = event.name.first, first != UInt8(ascii: ".") else { return false }
            switch watch.role {
            case .shared:
                if mask & UInt32(IN_ISDIR) != 0 { needsRefresh = true }
                return true
            case .home:
                return !FolderWatcher.isIgnoredInHome(event.name)
            case .trip:
                // Our own file written (by our own rounds) does not count; deleted or moved away, it does.
                return !(ignored.contains(event.name) && mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) != 0)
            }
        }

        /// Adds a watch on `path` (never through a link); true when it was added.
        private func arm(_ path: String, role: Role) -> Bool {
            guard let before = FolderWatcher.folderIdentity(path) else { return false }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)
            let descriptor = inotify_add_watch(fd, path, mask | UInt32(IN_DONT_FOLLOW) | UInt32(IN_ONLYDIR))
            guard descriptor >= 0 else { return false }
            // Replaced between the check and the watch: try again at the next refresh.
            guard let after = FolderWatcher.folderIdentity(path), after == before else {
                if byDescriptor[descriptor] == nil { inotify_rm_watch(fd, descriptor) }
                needsRefresh = true
                return false
            }
            if let existing = byDescriptor[descriptor], existing.path != path {
                return false  // the same folder reached by another path: already watched
            }
            byDescriptor[descriptor] = Watch(path: path, role: role, device: before.0, inode: before.1)
            byPath[path] = descriptor
            if role == .shared {
                if let previous = sharedInode, previous != before { sharedFolderReplacements += 1 }
                sharedInode = before
            }
            return true
        }

        private func forget(_ descriptor: Int32) {
            guard let watch = byDescriptor.removeValue(forKey: descriptor) else { return }
            if byPath[watch.path] == descriptor { byPath[watch.path] = nil }
        }
    #endif

    /// The names in a folder as bytes (none dropped for not being UTF-8), for choosing what to
    /// watch. A folder that cannot be listed is watched without its children: the sync round
    /// that follows reads it and reports why.
    static func names(in path: String) -> [[UInt8]] {
        do {
            return try FileIO.folderNames(path, what: "a watched folder") ?? []
        } catch {
            return []
        }
    }
}
