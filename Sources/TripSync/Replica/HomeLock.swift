#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a home, so two `tripsync` processes never lose each other's writes.
/// It is an advisory `flock` on `HOME/lock`, released when the process ends, even by a crash.
public final class HomeLock {
    private let fd: Int32

    /// How long to wait for another process before giving up (seconds).
    public static let defaultTimeout = 10.0

    /// Takes the lock, waiting up to `timeout` seconds.
    public init(home: Home, timeout: Double = HomeLock.defaultTimeout) throws {
        try FileIO.makeFolder(home.path)
        let path = home.path + "/lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileIO.systemError(path, "cannot open the lock file") }
        let deadline = HomeLock.monotonicSeconds() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno != EWOULDBLOCK && errno != EINTR {
                let error = FileIO.systemError(path, "cannot lock")
                close(fd)
                throw error
            }
            if HomeLock.monotonicSeconds() > deadline {
                close(fd)
                throw FileSystemError(
                    path: home.path,
                    message: "another tripsync process has held this home's lock for more than \(Int(timeout)) s; wait for it to finish (or end it) and try again; nothing was changed",
                    code: EWOULDBLOCK)
            }
            usleep(20_000)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
