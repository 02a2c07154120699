import Foundation
import TripSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who may ask (docs/DESIGN.md, "The server" and "One origin per home"): a one-time sign-in
/// token, handed to the browser through a private page (`LoginPage`), is exchanged for a session
/// cookie of this home's own name (HttpOnly, SameSite=Strict, host-only on the home's
/// `LABEL.localhost`); every other request needs that cookie and names exactly that host and
/// port in its Host header (DNS rebinding, and no page on another port of 127.0.0.1 shares the
/// cookie), and a POST carries a same-origin Origin and the session's anti-forgery token.
/// Refusals hold no trip data.
package final class WebGuard: @unchecked Sendable {
    /// How long a sign-in token is good for, unused (ten minutes; a test shortens it).
    package var loginLifetime: Duration {
        get { lock.withLock { lifetime } }
        set { lock.withLock { lifetime = newValue } }
    }
    private var lifetime: Duration = .seconds(600)
    /// The home's host name and cookie name.
    package let origin: HomeOrigin
    /// The session cookie's name (the home's own).
    package var cookieName: String { origin.cookieName }
    private var logins: [String: (expires: ContinuousClock.Instant, page: String?)] = [:]
    private var sessions: [String: String] = [:]  // cookie value → anti-forgery token
    private let lock = NSLock()

    init(origin: HomeOrigin) {
        self.origin = origin
    }

    /// A fresh one-time sign-in token, good once within `loginLifetime`; `page` is the private
    /// file that carries it, removed when the token is used.
    package func mintLogin(page: String? = nil) -> String {
        let token = Self.randomToken()
        lock.withLock { logins[token] = (ContinuousClock.now + lifetime, page) }
        return token
    }

    /// Records the page that carries `token` (written after the token was made).
    func attach(page: String, to token: String) {
        lock.withLock { logins[token]?.page = page }
    }

    /// The sign-in pages not used yet (removed when the server stops).
    func unusedPages() -> [String] {
        lock.withLock { logins.values.compactMap(\.page) }
    }

    /// 32 random bytes as hex (the system's secure generator).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Equal strings, compared in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// The anti-forgery token of the session `cookie` names, if it is one.
    func csrf(ofSession cookie: String) -> String? {
        lock.withLock { sessions.first { Self.same($0.key, cookie) }?.value }
    }

    /// The answer to send instead of the page, or nil to let the request through to the app:
    /// a refusal, or the cookie for a sign-in token. The stylesheet is served without a session
    /// (it is the same for everyone), so the refusal pages look like the others.
    func check(_ request: PendingRequest, port: UInt16) -> WebResponse? {
        guard ["GET", "HEAD", "POST"].contains(request.method) else {
            return WebResponse.text(405, "only GET and POST are answered here")
        }
        let host = request.headers["host"] ?? ""
        guard host == "\(origin.hostName):\(port)" else {
            return WebResponse.text(421, "this server answers only to http://\(origin.hostName):\(port)/ (the Host header named another)")
        }
        if request.method == "GET", request.path == "/", let token = request.query["token"] {
            return exchange(token, next: request.query["next"])
        }
        if request.method == "GET", request.path == "/static/app.css" { return nil }
        guard let cookie = request.cookies[cookieName], csrf(ofSession: cookie) != nil else {
            return Self.signInPage(
                401, heading: "Not signed in",
                "This browser is not signed in to TripSync. Click TripSync in your app menu again, or run <code>tripsync open</code> again: it signs this browser in.")
        }
        if request.method == "POST" {
            guard Self.sameOrigin(request.headers, host: host) else {
                return WebResponse.text(403, "refused: a change must come from this server's own pages (the Origin header is missing or names another site)")
            }
        }
        return nil
    }

    /// A page that says what to do to get in (no trip data, no form).
    static func signInPage(_ status: Int, heading: String, _ advice: HTML) -> WebResponse {
        let body: HTML = "<div class=\"error\" role=\"alert\" tabindex=\"-1\" autofocus><p>\(advice)</p></div>\n"
        return WebResponse.html(status, Page.frame(title: heading, heading: heading, body: body))
    }

    /// Whether a POST comes from this server's own pages: its Origin is this server's. Under
    /// the pages' `Referrer-Policy: no-referrer` a browser sends `Origin: null` for a form it
    /// submits, so `null` counts only with `Sec-Fetch-Site: same-origin`, which the browser sets
    /// and no page can (a cross-site form sends `cross-site`, whatever its own policy).
    static func sameOrigin(_ headers: [String: String], host: String) -> Bool {
        switch headers["origin"] {
        case ("http://" + host)?: return true
        case "null"?: return headers["sec-fetch-site"] == "same-origin"
        default: return false
        }
    }

    /// A POST's anti-forgery token, checked once its form is read.
    func checkForm(_ request: WebRequest) -> WebResponse? {
        guard request.method == "POST" else { return nil }
        guard !request.csrf.isEmpty, let sent = request.form["csrf"], Self.same(sent, request.csrf) else {
            return WebResponse.text(403, "refused: the form's anti-forgery token is missing or wrong (reload the page and try again)")
        }
        return nil
    }

    /// The one-time token for a session cookie, then a page that goes on to the URL without the
    /// token: `/`, or `next` when it is a path of this server (`/trips/…`, never `//host`). A token
    /// used, expired or never made gets a page that says how to get a new one.
    private func exchange(_ token: String, next: String?) -> WebResponse {
        let now = ContinuousClock.now
        let outcome: (session: String?, page: String?) = lock.withLock {
            guard let key = logins.keys.first(where: { Self.same($0, token) }), let login = logins.removeValue(forKey: key) else { return (nil, nil) }
            guard login.expires > now else { return (nil, login.page) }
            let cookie = Self.randomToken()
            sessions[cookie] = Self.randomToken()
            return (cookie, login.page)
        }
        // The page did its one job: it goes (our own file in our own folder; gone already is fine).
        if let page = outcome.page { unlink(page) }
        guard let session = outcome.session else {
            return Self.signInPage(
                403, heading: "This sign-in link is used up",
                "Each sign-in link works once, for ten minutes, and this one was used already or is too old. Click TripSync in your app menu again, or run <code>tripsync open</code> again: it opens a fresh one.")
        }
        var location = "/"
        if let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            next.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        {
            location = next
        }
        // A page that goes on by itself, not a redirect: the sign-in page the browser was given
        // is a file, so a redirect would continue that cross-site navigation, and a browser sends
        // no SameSite=Strict cookie on it (the pages would say "not signed in" until a reload).
        // A step from this page is same-site, and the cookie goes with it.
        let page: HTML = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="0;url=\(location)">
            <title>Signed in · TripSync</title></head>
            <body><main><p>Signed in. <a href="\(location)">Continue to your trips</a>.</p></main></body></html>

            """
        var response = WebResponse.html(200, page)
        // Host-only (no Domain): sent to LABEL.localhost alone, never to 127.0.0.1 or another name.
        response.headers.append(("Set-Cookie", "\(cookieName)=\(session); HttpOnly; SameSite=Strict; Path=/"))
        return response
    }
}
