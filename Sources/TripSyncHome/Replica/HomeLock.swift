import Foundation
import TripSyncCore
import TripSyncPlatform
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a home, so two `tripsync` processes never lose each other's writes.
/// It is an advisory `flock` on `HOME/lock`, released when the process ends, even by a crash.
/// The holder writes who it is into the file (`HomeLock.Holder`), so a process that has to
/// wait can say for whom.
package final class HomeLock {
    private let fd: Int32

    /// How long to wait for another process before giving up (seconds).
    package static let defaultTimeout = 10.0

    /// Who holds a home's lock, as its holder recorded it in the lock file.
    package struct Holder: Sendable, Hashable {
        /// The holder's process id.
        package var pid: Int32?
        /// The holder's command line (as far as recorded).
        package var command: String?
        /// When it took the lock (seconds since 1970).
        package var since: Int64?

        /// The file's text: `pid N`, `since SECONDS`, `command TEXT`, a line each.
        var text: String {
            [pid.map { "pid \($0)" }, since.map { "since \($0)" }, command.map { "command \($0)" }].compactMap { $0 }.joined(separator: "\n") + "\n"
        }

        /// Reads the lock file's text; unknown or malformed lines are ignored (it is a hint only).
        init(text: String) {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "pid": pid = Int32(parts[1])
                case "since": since = Int64(parts[1])
                case "command": command = String(parts[1].prefix(200))
                default: continue
                }
            }
        }

        init(pid: Int32, command: String, since: Int64) {
            self.pid = pid
            self.command = command
            self.since = since
        }

        /// `pid 4242, tripsync sync shared --watch, since 2026-12-01T18:02:11Z`, or nil when
        /// nothing was recorded (a holder from before this was written).
        package var summary: String? {
            let parts = [pid.map { "pid \($0)" }, command, since.map { "since \(UTCTimestamp(secondsSinceEpoch: $0))" }].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
    }

    /// Takes the lock, waiting up to `timeout` seconds. When it has to wait, `HomeLock.waiting`
    /// (if set) is told once, with who holds the lock and how long this waits.
    package init(home: Home, timeout: Double = HomeLock.defaultTimeout) throws {
        try FileIO.makeFolder(home.path)
        let path = home.layout.lock
        // The descriptor is this object's only once the lock is held: a throw before then closes
        // it here and leaves `fd` unset, so `deinit` (which runs when an initializer throws after
        // every stored property is set) never closes it a second time, which would close
        // whatever descriptor another thread had opened under the same number meanwhile.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileIO.systemError(path, "cannot open the lock file") }
        let deadline = HomeLock.monotonicSeconds() + timeout
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno != EWOULDBLOCK && errno != EINTR {
                let error = FileIO.systemError(path, "cannot lock")
                close(descriptor)
                throw error
            }
            if !told {
                told = true
                HomeLock.reporter.tell(home: home.path, holder: HomeLock.readHolder(descriptor), timeout: timeout)
            }
            if HomeLock.monotonicSeconds() > deadline {
                close(descriptor)
                throw FileSystemError(
                    path: home.path,
                    message: "another tripsync process has held this home's lock for more than \(Int(timeout)) s; wait for it to finish (or end it) and try again; nothing was changed",
                    code: EWOULDBLOCK)
            }
            usleep(20_000)
        }
        fd = descriptor
        recordHolder()
        // No other process of this home writes now: a temp file of ours is a crash's leftover.
        home.removeStaleTemporaries()
    }

    deinit {
        // Cleared before the unlock, so a later waiter never reads a holder that is gone.
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Who to tell when a lock has to be waited for (the CLI sets it to write on stderr).
    package static func onWait(_ tell: @escaping @Sendable (_ home: String, _ holder: Holder, _ timeout: Double) -> Void) {
        reporter.set(tell)
    }

    private static let reporter = Reporter()

    /// The `onWait` callback, set once at start and read under a lock.
    private final class Reporter: @unchecked Sendable {
        private var tell: (@Sendable (String, Holder, Double) -> Void)?
        private let lock = NSLock()
        func set(_ tell: @escaping @Sendable (String, Holder, Double) -> Void) { lock.withLock { self.tell = tell } }
        func tell(home: String, holder: Holder, timeout: Double) { lock.withLock { tell }?(home, holder, timeout) }
    }

    /// This process as the holder: written over the file's old text (a hint; not fsynced).
    private func recordHolder() {
        let command = CommandLine.arguments.enumerated().map { $0.offset == 0 ? FileIO.baseName(of: $0.element) : $0.element }.joined(separator: " ")
        let holder = Holder(pid: getpid(), command: String(command.prefix(200)), since: Int64(time(nil)))
        _ = ftruncate(fd, 0)
        let bytes = Array(holder.text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// What the holder recorded (at most 1 KiB read; anything else is ignored).
    private static func readHolder(_ fd: Int32) -> Holder {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return Holder(text: String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self))
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
