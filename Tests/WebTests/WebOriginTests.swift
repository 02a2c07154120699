import Foundation
import Testing
import TripSync
import TripSyncWeb
import TripSyncHome

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One origin per home and the private sign-in (docs/DESIGN.md, "One origin per home"), and the
/// slow client that used to hold every connection ("Slow clients"), each as an attack.
@Suite("Web origin and sign-in")
struct WebOriginTests {
    @Test("each home has a host name and a cookie name of its own, kept in the home across servers")
    func originPerHome() throws {
        let first = try WebHarness()
        let second = try WebHarness()
        let a = first.server.app.security.origin
        let b = second.server.app.security.origin
        #expect(a.label != b.label)
        #expect(a.cookieName != b.cookieName)
        #expect(first.server.url == "http://\(a.label).localhost:\(first.port)/")
        // The label is kept in the home (0600): a new server on the same home has the same name.
        var info = stat()
        #expect(stat(first.home.layout.openHost, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(first.home.layout.open, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(try HomeOrigin(home: first.home).label == a.label)
        // A cookie of one home signs nobody in to the other (the attack of two `open` runs).
        let cookie = try first.signIn()
        #expect(try second.raw("GET / HTTP/1.1\r\nHost: \(second.host)\r\nConnection: close\r\nCookie: \(first.cookieName)=\(cookie)\r\n\r\n").status == 401)
        #expect(try second.raw("GET / HTTP/1.1\r\nHost: \(second.host)\r\nConnection: close\r\nCookie: \(second.cookieName)=\(cookie)\r\n\r\n").status == 401)
        // A second sign-in to the first home leaves the first session signed in.
        _ = try first.signIn()
        #expect(try first.get("/", cookie: cookie).status == 200)
    }

    @Test("a sign-in page is a private file (0600 in a 0700 folder) that carries the token, and goes when it is used")
    func privateSignInPage() throws {
        let web = try WebHarness(tripName: "Secret trip")
        let page = try web.server.newLogin()
        #expect(page.hasPrefix(web.home.layout.open + "/"))
        var info = stat()
        #expect(stat(page, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let html = String(decoding: try Data(contentsOf: URL(fileURLWithPath: page)), as: UTF8.self)
        let match = try #require(html.firstMatch(of: #/url=(http://[a-z0-9]{20}\.localhost:\d+/\?token=([0-9a-f]{64}))/#))
        #expect(String(match.1).hasPrefix(web.server.url))
        let signedIn = try web.get("/?token=" + match.2)
        #expect(signedIn.status == 200 && signedIn.header("set-cookie") != nil)
        #expect(stat(page, &info) != 0)
        // Used: a page (HTML, 403) that says what to do, no cookie, no trip data.
        let used = try web.get("/?token=" + match.2)
        #expect(used.status == 403)
        #expect(used.header("content-type")?.hasPrefix("text/html") == true)
        #expect(used.body.contains("tripsync open") && used.body.contains("app menu"))
        #expect(used.header("set-cookie") == nil)
        #expect(!used.body.contains("Secret trip"))
        // Unused pages are removed when the server stops.
        let unused = try web.server.newLogin()
        web.server.stop()
        #expect(stat(unused, &info) != 0)
    }

    @Test("a stale sign-in link gives the same page that says what to do")
    func staleLink() throws {
        let web = try WebHarness()
        web.server.app.security.loginLifetime = .zero
        let token = web.server.app.security.mintLogin()
        let stale = try web.get("/?token=" + token)
        #expect(stale.status == 403)
        #expect(stale.body.contains("<h1 dir=\"auto\">This sign-in link is used up</h1>"))
        #expect(stale.header("set-cookie") == nil)
        // Without a session, the pages say the same way in (HTML, 401).
        let none = try web.get("/")
        #expect(none.status == 401)
        #expect(none.body.contains("tripsync open"))
    }

    @Test("a second open reaches the running server through the home's control socket and gets a fresh sign-in")
    func controlSocket() throws {
        let web = try WebHarness()
        let origin = web.server.app.security.origin
        let server = web.server
        let control = try ControlSocket(path: origin.controlPath) {
            do { return server.url + "\t" + (try server.newLogin()) } catch { return "" }
        }
        defer { control.stop() }
        var info = stat()
        #expect(stat(origin.controlPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        // A second listener on the same home is refused while the first runs.
        #expect(throws: WebServerError.self) { try ControlSocket(path: origin.controlPath) { "" } }
        let answer = try #require(ControlSocket.ask(origin.controlPath))
        let parts = answer.split(separator: "\t").map(String.init)
        #expect(parts.count == 2 && parts[0] == web.server.url)
        #expect(stat(parts[1], &info) == 0)
        control.stop()
        #expect(ControlSocket.ask(origin.controlPath) == nil)
        #expect(stat(origin.controlPath, &info) != 0)
    }

    @Test("64 half-open connections sending a byte now and then do not stop the page")
    func slowClients() throws {
        let web = try WebHarness(tripName: "Lisbon 2027")
        let cookie = try web.signIn()
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for _ in 0..<64 {
            let fd = try web.connection()
            sockets.append(fd)
            _ = Array("GET / HTTP/1.1\r\nHost: \(web.host)\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        // A trickle keeps them alive as the attack did (a byte each, well inside the idle time).
        for fd in sockets { _ = Array("X".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        let started = ContinuousClock.now
        let page = try web.get("/", cookie: cookie)
        #expect(page.status == 200)
        #expect(page.body.contains("Lisbon 2027"))
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a body that trickles in, a byte a second inside the idle time, is cut off when its time is up; the page still answers")
    func tricklingBodyCutOff() throws {
        // Two seconds here instead of the two minutes `open` allows, so the test runs in seconds.
        let web = try WebHarness(bodyTime: .seconds(2))
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let fd = try web.connection()
        defer { close(fd) }
        let head = "POST /trips/\(web.trip)/items HTTP/1.1\r\nHost: \(web.host)\r\nCookie: \(web.cookieName)=\(cookie)\r\n"
            + "Origin: \(web.origin)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncsrf=\(csrf)&title="
        _ = Array(head.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let started = ContinuousClock.now
        var closedAfter: Duration?
        var buffer = [UInt8](repeating: 0, count: 512)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A byte a second for up to 8 s: well inside the 10 s idle time, so only the body's
        // own time limit can end it.
        for _ in 0..<8 where closedAfter == nil {
            let sent = Array("a".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            for _ in 0..<10 where closedAfter == nil {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || sent < 0 { closedAfter = ContinuousClock.now - started }
            }
        }
        let cutOff = try #require(closedAfter, "the trickling body was still being read after 8 s")
        #expect(cutOff >= .seconds(2) && cutOff < .seconds(6))
        // Nothing was added, and the page answers as before.
        let page = try web.get("/trips/\(web.trip)", cookie: cookie)
        #expect(page.status == 200)
        #expect(try web.document.items.isEmpty)
    }

    @Test("a connection that stays silent is closed after the idle time")
    func idleClosed() throws {
        let web = try WebHarness()
        let fd = try web.connection()
        defer { close(fd) }
        _ = Array("GET / HTTP/1.1\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: Int(WebServer.idleSeconds) + 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let started = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &buffer, buffer.count, 0)
        #expect(count == 0)  // closed by the server, not timed out here
        #expect(ContinuousClock.now - started < .seconds(Int(WebServer.idleSeconds) + 8))
    }
}
