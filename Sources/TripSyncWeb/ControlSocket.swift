import Foundation
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a second `tripsync open` on the same home reaches the running server (docs/DESIGN.md,
/// "One origin per home"): a Unix socket in the home's private `open/` folder. Only this user
/// can reach it (the folder is 0700, and the server also checks the caller's uid where the
/// system tells it), so connecting is the whole request: the server answers with one line, the
/// address and a fresh sign-in page, and closes. No secret travels, none is in an argument.
package final class ControlSocket: @unchecked Sendable {
    private let path: String
    private let fd: Int32
    private let answer: @Sendable () -> String
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// Listens at `path` and answers each caller with `answer()` (one line). A socket file
    /// left by a server that died is replaced; one a live server listens on is an error.
    package init(path: String, answer: @escaping @Sendable () -> String) throws {
        self.path = path
        self.answer = answer
        if Self.ask(path) != nil { throw WebServerError("another 'tripsync open' already serves this home (\(path))") }
        unlink(path)  // a dead server's socket, or nothing: ENOENT is the usual answer
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FileIO.systemError(path, "cannot make a socket") }
        guard Self.withAddress(path, { bind(fd, $0, $1) }) == 0, chmod(path, 0o600) == 0, listen(fd, 8) == 0 else {
            let error = FileIO.systemError(path, "cannot listen")
            close(fd)
            throw error
        }
        self.fd = fd
        let thread = Thread { [self] in serve() }
        thread.name = "tripsync-open-control"
        thread.start()
    }

    /// Stops answering and removes the socket file.
    package func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        done.wait()
        close(fd)
        unlink(path)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func serve() {
        defer { done.signal() }
        while !isStopped {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            if Self.callerIsUs(client) {
                let line = Array((answer() + "\n").utf8)
                _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(client)
        }
    }

    /// Whether the process at the other end runs as this user (Linux tells; elsewhere the
    /// folder's mode is the only gate).
    private static func callerIsUs(_ client: Int32) -> Bool {
        #if os(Linux)
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc does not export it to Swift).
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
            guard getsockopt(client, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, size == 12 else { return false }
            return credentials.uid == getuid()
        #else
            return true
        #endif
    }

    /// The running server's answer at `path` ("" when it could not give one), or nil when
    /// none listens there.
    package static func ask(_ path: String) -> String? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard withAddress(path, { connect(fd, $0, $1) }) == 0 else { return nil }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 1 << 16 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        // A server that listens but could not answer still runs: "" (never nil, which would let a
        // second server replace its socket).
        return String(decoding: received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Calls `body` with `path` as a socket address; -1 when the path does not fit one.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
