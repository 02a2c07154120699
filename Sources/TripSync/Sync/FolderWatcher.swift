import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Waits for changes in a shared folder: inotify on Linux, polling elsewhere.
public final class FolderWatcher {
    private let folder: String
    #if os(Linux)
        private var fd: Int32 = -1
        private var watched: Set<String> = []
    #endif

    /// Watches `folder` and its trip folders.
    public init(folder: String) {
        self.folder = folder
        #if os(Linux)
            fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #endif
        refresh()
    }

    deinit {
        #if os(Linux)
            if fd >= 0 { close(fd) }
        #endif
    }

    /// Adds watches for trip folders created since the last call.
    public func refresh() {
        #if os(Linux)
            guard fd >= 0 else { return }
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
            var folders = [folder]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where Identifier(name) != nil {
                folders.append(folder + "/" + name)
            }
            for path in folders where !watched.contains(path) {
                if inotify_add_watch(fd, path, mask) >= 0 { watched.insert(path) }
            }
        #endif
    }

    /// Returns when something changed (after `debounce` seconds of quiet), or when `shouldStop`
    /// turns true (checked every 200 ms). Changes to names in `ignoring` and dot-files do not count.
    public func waitForChange(debounce: Double = 0.5, pollInterval: Double = 2, ignoring: Set<String>, shouldStop: () -> Bool) -> Bool {
        #if os(Linux)
            if fd >= 0 {
                var changed = false
                var lastChange = 0.0
                while !shouldStop() {
                    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&pfd, 1, 200)
                    if ready > 0 {
                        if drain(ignoring: ignoring) {
                            changed = true
                            lastChange = HomeLock.monotonicSeconds()
                        }
                    } else if changed && HomeLock.monotonicSeconds() - lastChange >= debounce {
                        refresh()
                        return true
                    }
                }
                return false
            }
        #endif
        let deadline = HomeLock.monotonicSeconds() + pollInterval
        while !shouldStop() {
            if HomeLock.monotonicSeconds() >= deadline { return true }
            usleep(200_000)
        }
        return false
    }

    #if os(Linux)
        /// Reads pending events; true when one of them is a change that counts.
        private func drain(ignoring: Set<String>) -> Bool {
            var relevant = false
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (length, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                        let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = raw[nameStart..<min(nameStart + Int(event.len), count)].prefix { $0 != 0 }
                        return (Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                    }
                    if !name.hasPrefix(".") && !ignoring.contains(name) { relevant = true }
                    offset += MemoryLayout<inotify_event>.size + length
                }
            }
            return relevant
        }
    #endif
}
