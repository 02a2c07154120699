import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncWeb
import TripSyncCore

/// The server's rules (docs/DESIGN.md, "The server"), each checked with raw HTTP as an attacker
/// would send it: refused, with no trip data, and the trip unchanged.
@Suite("Web security")
struct WebSecurityTests {
    @Test("a request without the session cookie gets 401 and no trip data")
    func noCookie() throws {
        let web = try WebHarness(tripName: "Secret trip")
        for path in ["/", "/trips/\(web.trip)", "/trips/\(web.trip)/version", "/static/app.js"] {
            let response = try web.get(path)
            #expect(response.status == 401, "\(path)")
            #expect(!response.body.contains("Secret trip"))
        }
        let wrongCookie = try web.get("/trips/\(web.trip)", cookie: "0123")
        #expect(wrongCookie.status == 401)
        #expect(!wrongCookie.body.contains("Secret trip"))
    }

    @Test("a sign-in token becomes an HttpOnly SameSite=Strict host-only cookie of the home's own name, with a redirect to a URL without it, once")
    func tokenExchange() throws {
        let web = try WebHarness()
        let token = web.server.app.security.mintLogin()
        #expect(!web.server.url.contains(token))
        let wrong = try web.get("/?token=" + String(repeating: "0", count: token.count))
        #expect(wrong.status == 403)
        #expect(wrong.header("set-cookie") == nil)
        let first = try web.get("/?token=" + token)
        #expect(first.status == 200)
        #expect(first.body.contains("<meta http-equiv=\"refresh\" content=\"0;url=/\">"))
        let cookie = try #require(first.header("set-cookie"))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Strict"))
        // Host-only: no Domain, so the browser sends it to LABEL.localhost alone, never to 127.0.0.1.
        #expect(!cookie.lowercased().contains("domain"))
        #expect(cookie.hasPrefix("tripsync_" + web.server.app.security.origin.label + "="))
        let again = try web.get("/?token=" + token)
        #expect(again.status == 403)
        #expect(again.header("set-cookie") == nil)
        // The cookie works.
        let value = String(cookie.dropFirst(web.cookieName.count + 1).prefix { $0 != ";" })
        #expect(try web.get("/", cookie: value).status == 200)
    }

    @Test(
        "a Host header other than the home's own LABEL.localhost:PORT is refused (DNS rebinding; the bare loopback address, whose cookies every local port shares)",
        arguments: ["evil.example", "localhost:PORT", "127.0.0.1", "127.0.0.1:1", "evil.example:PORT", "127.0.0.1:PORT", "[::1]:PORT", "LABEL.localhost", "LABEL.localhost:1",
            "x.LABEL.localhost:PORT", "aaaaaaaaaaaaaaaaaaaa.localhost:PORT"])
    func foreignHost(_ host: String) throws {
        let web = try WebHarness(tripName: "Secret trip")
        let cookie = try web.signIn()
        let named = host.replacingOccurrences(of: "PORT", with: "\(web.port)").replacingOccurrences(of: "LABEL", with: web.server.app.security.origin.label)
        let response = try web.get("/trips/\(web.trip)", cookie: cookie, host: named)
        #expect(response.status == 421)
        #expect(!response.body.contains("Secret trip"))
        let before = try web.document.items.count
        let write = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: "http://" + named, form: [("csrf", try web.csrf(cookie: cookie)), ("title", "x")], host: named)
        #expect(write.status == 421)
        #expect(try web.document.items.count == before)
        #expect(try web.get("/", cookie: cookie).status == 200)
    }

    @Test("a POST from another origin, or with none, is refused and changes nothing")
    func crossSitePost() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let before = try web.document.fingerprint
        for origin in ["http://evil.example", "null", "http://127.0.0.1:1", "http://127.0.0.1:\(web.port)", "https://\(web.host)"] as [String?] + [nil] {
            let response = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: origin, form: [("csrf", csrf), ("title", "Forged")])
            #expect(response.status == 403, "\(origin ?? "no Origin")")
        }
        // A cross-site form whose page asks for no referrer arrives with Origin null: refused too.
        for site in ["cross-site", "same-site", "none"] {
            let response = try web.post(
                "/trips/\(web.trip)/items", cookie: cookie, origin: "null", form: [("csrf", csrf), ("title", "Forged")], extra: ["Sec-Fetch-Site: \(site)"])
            #expect(response.status == 403, "\(site)")
        }
        #expect(try web.document.fingerprint == before)
    }

    @Test("the pages' own forms are taken: the browser sends Origin null under no-referrer, with Sec-Fetch-Site same-origin")
    func ownFormUnderNoReferrer() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let response = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: "null", form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Mine")],
            extra: ["Sec-Fetch-Site: same-origin"])
        #expect(response.status == 303)
        #expect(try web.document.items.values.contains { $0.title?.value == "Mine" })
    }

    @Test("a POST without the anti-forgery token, or with a wrong one, is refused and changes nothing")
    func missingAntiForgeryToken() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let before = try web.document.fingerprint
        for form in [[("title", "Forged")], [("csrf", ""), ("title", "Forged")], [("csrf", String(repeating: "a", count: 64)), ("title", "Forged")]] {
            let response = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: form)
            #expect(response.status == 403)
        }
        #expect(try web.document.fingerprint == before)
        // With both, the same request is taken.
        let taken = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Real")])
        #expect(taken.status == 303)
        #expect(try web.document.items.values.contains { $0.title?.value == "Real" })
    }

    @Test("every response carries the security headers and no CORS header")
    func securityHeaders() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let responses = [
            try web.get("/"), try web.get("/", cookie: cookie), try web.get("/trips/\(web.trip)", cookie: cookie),
            try web.get("/static/app.css", cookie: cookie), try web.get("/static/app.js", cookie: cookie), try web.get("/nothing", cookie: cookie),
            try web.get("/trips/\(web.trip)", cookie: cookie, extra: ["Origin: http://evil.example"]),
            try web.get("/", host: "evil.example"),
            try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: "http://evil.example", form: [("title", "x")]),
        ]
        for response in responses {
            #expect(
                response.header("content-security-policy")
                    == "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
            #expect(response.header("x-content-type-options") == "nosniff")
            #expect(response.header("referrer-policy") == "no-referrer")
            #expect(response.header("x-frame-options") == "DENY")
            #expect(!response.headers.contains { $0.0.hasPrefix("access-control-") })
        }
    }

    @Test("hostile titles, places, notes and trip names stay text on every page")
    func hostileText() throws {
        let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'&"
        let web = try WebHarness(tripName: hostile)
        let id = try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            try store.edit { try $0.delete(try $0.addItem(NewItem(title: hostile, sortKey: ""), at: .last)) }
            return try store.edit { try $0.addItem(NewItem(title: hostile, sortKey: "", place: hostile, note: hostile), at: .last) }
        }()
        let cookie = try web.signIn()
        for path in ["/", "/trips/\(web.trip)", "/trips/\(web.trip)/items/\(id)", "/trips/\(web.trip)/items/\(id)/edit"] {
            let page = try web.get(path, cookie: cookie).body
            #expect(!page.contains("<script>alert"), "\(path)")
            #expect(!page.contains("<img src=x"), "\(path)")
            #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
        }
    }

    @Test("pages hold no inline script, style attribute or event handler, and load only the server's own files")
    func noInlineScript() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        for path in ["/", "/trips/\(web.trip)", "/trips/\(web.trip)/members"] {
            let page = try web.get(path, cookie: cookie).body
            let scripts = page.components(separatedBy: "<script").dropFirst()
            #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/static/") }, "\(path)")
            #expect(!page.contains(" style="))
            #expect(!page.contains("<style"))
            #expect(page.range(of: #" on[a-z]+="#, options: .regularExpression) == nil)
            #expect(!page.contains("http://") && !page.contains("https://"))
        }
    }

    @Test("attachment bytes are served as an image only when they are one; anything else downloads")
    func attachmentTypes() throws {
        let web = try WebHarness()
        let png = web.folder + "/photo.png"
        let fake = web.folder + "/page.png"
        try Data(PhotoContainerFixture.png(exif: nil)).write(to: URL(fileURLWithPath: png))
        try Data("<html><script>alert(1)</script></html>".utf8).write(to: URL(fileURLWithPath: fake))
        // The store (and the home's lock) ends before the server is asked.
        let (image, page) = try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            let item = try store.edit { try $0.addItem(NewItem(title: "Tickets", sortKey: ""), at: .last) }
            return (
                try store.attach(file: png, to: item, caption: nil, stripLocation: false).entry.id,
                try store.attach(file: fake, to: item, caption: nil, stripLocation: false).entry.id
            )
        }()
        let cookie = try web.signIn()
        let shown = try web.get("/trips/\(web.trip)/attachments/\(image)", cookie: cookie)
        #expect(shown.status == 200)
        #expect(shown.header("content-type") == "image/png")
        #expect(shown.header("content-disposition") == nil)
        let downloaded = try web.get("/trips/\(web.trip)/attachments/\(page)", cookie: cookie)
        #expect(downloaded.status == 200)
        #expect(downloaded.header("content-type") == "application/octet-stream")
        #expect(downloaded.header("content-disposition")?.hasPrefix("attachment;") == true)
        #expect(try web.get("/trips/\(web.trip)/attachments/\(image)").status == 401)
    }
}
