import Foundation

/// Who may ask (docs/DESIGN.md, "The server"): the one-time token of the printed URL is
/// exchanged for a session cookie (HttpOnly, SameSite=Strict); every other request needs that
/// cookie, names this server exactly in its Host header (DNS rebinding), and a POST carries a
/// same-origin Origin and the session's anti-forgery token. Refusals hold no trip data.
package final class WebGuard: @unchecked Sendable {
    /// The session cookie's name.
    package static let cookieName = "tripsync_session"
    /// The token in the printed URL, good for one exchange.
    package let oneTimeToken: String
    private var tokenUsed = false
    private var sessions: [String: String] = [:]  // cookie value → anti-forgery token
    private let lock = NSLock()

    init() {
        oneTimeToken = Self.randomToken()
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
    /// a refusal, or the cookie for the one-time token.
    func check(_ request: PendingRequest, port: UInt16) -> WebResponse? {
        guard ["GET", "HEAD", "POST"].contains(request.method) else {
            return WebResponse.text(405, "only GET and POST are answered here")
        }
        let host = request.headers["host"] ?? ""
        guard host == "127.0.0.1:\(port)" || host == "[::1]:\(port)" else {
            return WebResponse.text(421, "this server answers only to http://127.0.0.1:\(port)/ (the Host header named another)")
        }
        if request.method == "GET", request.path == "/", let token = request.query["token"] {
            return exchange(token, next: request.query["next"])
        }
        guard let cookie = request.cookies[Self.cookieName], csrf(ofSession: cookie) != nil else {
            return WebResponse.text(401, "not signed in: open the link that 'tripsync open' printed (it works once)")
        }
        if request.method == "POST" {
            guard Self.sameOrigin(request.headers, host: host) else {
                return WebResponse.text(403, "refused: a change must come from this server's own pages (the Origin header is missing or names another site)")
            }
        }
        return nil
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

    /// The one-time token for a session cookie, then a redirect to the URL without the token:
    /// `/`, or `next` when it is a path of this server (`/trips/…`, never `//host`).
    private func exchange(_ token: String, next: String?) -> WebResponse {
        let session: String? = lock.withLock {
            guard !tokenUsed, Self.same(token, oneTimeToken) else { return nil }
            tokenUsed = true
            let cookie = Self.randomToken()
            sessions[cookie] = Self.randomToken()
            return cookie
        }
        guard let session else {
            return WebResponse.text(403, "this link was used already or is wrong: run 'tripsync open' again for a new one")
        }
        var location = "/"
        if let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            next.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        {
            location = next
        }
        var response = WebResponse.seeOther(location)
        response.headers.append(("Set-Cookie", "\(Self.cookieName)=\(session); HttpOnly; SameSite=Strict; Path=/"))
        return response
    }
}
