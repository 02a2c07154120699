import TripSync

/// A response: status, headers and body. `WebServer` adds `securityHeaders` to every one.
package struct WebResponse: Sendable {
    /// The HTTP status.
    package var status: Int
    /// Headers besides the security headers.
    package var headers: [(String, String)]
    /// The body.
    package var body: [UInt8]

    /// Sent with every response, pages, files and refusals alike (docs/DESIGN.md, "The server"):
    /// no script but the server's own files, no framing, no sniffing, no referrer, no caching.
    /// No CORS header is ever sent.
    package static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ]

    /// The policy: everything from this origin only, no inline script or style, no framing.
    package static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    /// An HTML page.
    static func html(_ page: HTML) -> WebResponse { html(200, page) }

    /// An HTML page with `status` (a refused form: 422).
    static func html(_ status: Int, _ page: HTML) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page.description.utf8))
    }

    /// Plain text (refusals: no trip data in them).
    static func text(_ status: Int, _ text: String) -> WebResponse {
        WebResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
    }

    /// A redirect after a POST (303: the browser GETs `location`).
    static func seeOther(_ location: String) -> WebResponse {
        WebResponse(status: 303, headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")], body: Array("see \(location)\n".utf8))
    }
}
