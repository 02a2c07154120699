import Foundation
import Testing
import TripSync
import TripSyncWeb

/// A browser's own form POST from a page sent with `Referrer-Policy: no-referrer` carries
/// `Origin: null` (Fetch, "append a request Origin header"; Chromium does so, found by
/// Tests/webapp, where every click on Add was refused). The guard takes it only with
/// `Sec-Fetch-Site: same-origin`, which no page can set; `null` from another site, or from another
/// port of this host (`same-site`), stays refused.
@Suite("Web Origin null")
struct WebOriginNullTests {
    private func post(_ web: WebHarness, cookie: String, title: String, headers: [String]) throws -> RawResponse {
        let body = [("csrf", try web.csrf(cookie: cookie)), ("title", title)]
            .map { WebHarness.encode($0.0) + "=" + WebHarness.encode($0.1) }.joined(separator: "&")
        let lines = [
            "POST /trips/\(web.trip)/items HTTP/1.1", "Host: \(web.host)", "Connection: close",
            "Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)",
            "Cookie: \(WebGuard.cookieName)=\(cookie)",
        ] + headers
        return try web.raw(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
    }

    @Test("Origin: null with Sec-Fetch-Site: same-origin is the page's own form and is taken")
    func nullFromThisPage() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let response = try post(web, cookie: cookie, title: "From the page", headers: ["Origin: null", "Sec-Fetch-Site: same-origin"])
        #expect(response.status == 303)
        #expect(try web.document.items.values.contains { $0.title?.value == "From the page" })
    }

    @Test("Origin: null from another site, another port of this host, or without Sec-Fetch-Site is refused")
    func nullFromElsewhere() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let before = try web.document.fingerprint
        for site in ["cross-site", "same-site", "none", nil] as [String?] {
            let headers = ["Origin: null"] + (site.map { ["Sec-Fetch-Site: \($0)"] } ?? [])
            let response = try post(web, cookie: cookie, title: "Forged", headers: headers)
            #expect(response.status == 403, "Sec-Fetch-Site: \(site ?? "absent")")
        }
        // A real Origin of another site is refused whatever Sec-Fetch-Site claims.
        let lying = try post(web, cookie: cookie, title: "Forged", headers: ["Origin: http://evil.example", "Sec-Fetch-Site: same-origin"])
        #expect(lying.status == 403)
        #expect(try web.document.fingerprint == before)
    }
}
