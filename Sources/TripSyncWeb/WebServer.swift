import CMicroHTTPD
import Foundation
import TripSync
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HTTP server of `tripsync open`: libmicrohttpd on 127.0.0.1 and ::1 (one daemon each, the
/// same port), every request parsed by libmicrohttpd (bodies by its post processor) and answered
/// by a `WebApp` after `WebGuard` let it through (docs/DESIGN.md, "The server").
package final class WebServer: @unchecked Sendable {
    /// The port both daemons listen on.
    package private(set) var port: UInt16 = 0
    /// The address of the pages, `http://LABEL.localhost:PORT/`: what `tripsync open` prints.
    package var url: String { "http://\(security.origin.hostName):\(port)/" }
    /// The pages and actions.
    package let app: WebApp
    var security: WebGuard { app.security }
    private var daemons: [OpaquePointer] = []
    private let lock = NSLock()
    private var stopped = false

    /// The longest a body may take to arrive, however steadily it trickles in (64 MiB in two
    /// minutes is 0.5 MiB/s, slow for loopback): past it the connection is closed.
    package static let bodyTime: Duration = .seconds(120)
    /// This server's limit: `WebServer.bodyTime` unless a test asks for less.
    let bodyTime: Duration

    /// Starts serving `app` on loopback: `port` 0 takes a free port; `bodyTime` is the longest
    /// a body may take to arrive. Throws `WebServerError` when no daemon could start (the port
    /// taken, no loopback).
    package init(app: WebApp, port: UInt16 = 0, bodyTime: Duration = WebServer.bodyTime) throws {
        self.app = app
        self.bodyTime = bodyTime
        Self.allowEnoughFiles()
        // Both daemons call back into this object, which outlives them (stop() ends them first).
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let ipv4 = Self.startDaemon(ipv6: false, port: port, context: context) else {
            throw WebServerError(port == 0 ? "cannot listen on 127.0.0.1" : "cannot listen on 127.0.0.1:\(port) (is the port in use?)")
        }
        // Set before the URL is known to anyone: the Host check needs the port.
        lock.withLock { self.port = tripsync_mhd_port(ipv4) }
        daemons.append(ipv4)
        // ::1 on the same port when this machine has IPv6 loopback; without it, 127.0.0.1 alone.
        if let ipv6 = Self.startDaemon(ipv6: true, port: self.port, context: context) { daemons.append(ipv6) }
        app.start()
    }

    /// Stops both daemons (requests in progress finish first) and the app's background sync,
    /// and removes the sign-in pages nobody used.
    package func stop() {
        let running: [OpaquePointer] = lock.withLock {
            guard !stopped else { return [] }
            stopped = true
            return daemons
        }
        for daemon in running { MHD_stop_daemon(daemon) }
        app.stop()
        for page in security.unusedPages() { unlink(page) }
    }

    /// A fresh sign-in: a one-time token (`WebGuard.mintLogin`) written into a private page
    /// (0600, in the home's 0700 `open/` folder) that sends the browser on to the token's
    /// address, as Jupyter does. The token is in that file and nowhere else: never in an
    /// argument of any process. Returns the page's path, which is what a browser is given.
    package func newLogin() throws -> String {
        let token = security.mintLogin()
        let target = url + "?token=" + token
        let page: HTML = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="0;url=\(target)">
            <meta name="referrer" content="no-referrer">
            <title>Opening TripSync</title></head>
            <body><p>Opening TripSync… If nothing happens, <a href="\(target)">sign in to TripSync</a>.</p></body></html>

            """
        let path = security.origin.folder + "/login-" + WebGuard.randomToken().prefix(16) + ".html"
        try FileIO.writeAtomically(Array(page.description.utf8), to: path, mode: 0o600)
        security.attach(page: path, to: token)
        return path
    }

    deinit { stop() }

    /// The most connections each daemon holds (docs/DESIGN.md, "Slow clients").
    package static let connectionLimit: UInt32 = 1000
    /// The most connections from one client address.
    package static let perClientLimit: UInt32 = 250
    /// The seconds a connection may stay silent before it is closed.
    package static let idleSeconds: UInt32 = 10

    /// Raises the soft limit of open files to what the connection limits need (up to the hard
    /// limit): a desktop session's usual 1024 would run out before `connectionLimit` on two daemons.
    private static func allowEnoughFiles() {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return }
        let wanted = rlim_t(2 * connectionLimit + 256)
        guard limits.rlim_cur < wanted else { return }
        limits.rlim_cur = min(wanted, limits.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)  // if refused, libmicrohttpd refuses connections past the limit itself
    }

    private static func startDaemon(ipv6: Bool, port: UInt16, context: UnsafeMutableRawPointer?) -> OpaquePointer? {
        let handler: MHD_AccessHandlerCallback = webAccessHandler
        let completed: MHD_RequestCompletedCallback = webRequestCompleted
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    tripsync_mhd_start(UInt32(MHD_USE_IPv6.rawValue | MHD_USE_POLL.rawValue), $0, handler, context, completed, context, connectionLimit, perClientLimit, idleSeconds)
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                tripsync_mhd_start(UInt32(MHD_USE_POLL.rawValue), $0, handler, context, completed, context, connectionLimit, perClientLimit, idleSeconds)
            }
        }
    }

    // MARK: one request

    /// Called by libmicrohttpd for a request: first without its body (the request is checked and
    /// its state made), then with each piece of the body, then once more with none.
    fileprivate func access(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else {
            let pending = PendingRequest(connection: connection, method: method, url: url)
            pending.refusal = security.check(pending, port: lock.withLock { port })
            if pending.refusal == nil && method == "POST" {
                pending.startBody()
                if pending.refusal == nil && pending.postProcessor == nil {
                    pending.refusal = WebResponse.text(415, "a form is sent as application/x-www-form-urlencoded or multipart/form-data")
                }
            }
            slot.pointee = Unmanaged.passRetained(pending).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            // A body that trickles in (a byte now and then, within the idle time) is cut off.
            guard ContinuousClock.now - pending.started <= bodyTime else { return .NO }
            if pending.refusal == nil, let upload { pending.feed(upload, count: uploadSize.pointee) }
            uploadSize.pointee = 0
            return .YES
        }
        let response: WebResponse
        if let refusal = pending.refusal {
            response = refusal
        } else {
            var request = pending.request()
            request.session = request.cookies[security.cookieName] ?? ""
            request.csrf = security.csrf(ofSession: request.session) ?? ""
            if let refusal = security.checkForm(request) {
                response = refusal
            } else {
                response = app.respond(to: request)
            }
        }
        return queue(response, on: connection, request: pending)
    }

    /// Sends `response` with the headers every response carries (`WebResponse.securityHeaders`).
    private func queue(_ response: WebResponse, on connection: OpaquePointer, request: PendingRequest) -> MHD_Result {
        var body = response.body
        let created: OpaquePointer? = body.withUnsafeMutableBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, bytes.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made = created else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in WebResponse.securityHeaders + response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    fileprivate func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let slot, let raw = slot.pointee else { return }
        Unmanaged<PendingRequest>.fromOpaque(raw).release()
        slot.pointee = nil
    }
}

private func webAccessHandler(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?, _ upload: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>?,
    _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let url, let method, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue()
    return server.access(connection, url: String(cString: url), method: String(cString: method), upload: upload, uploadSize: uploadSize, state: slot)
}

private func webRequestCompleted(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let context else { return }
    Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().completed(slot)
}
