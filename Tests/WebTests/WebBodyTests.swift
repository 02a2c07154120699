import Foundation
import Testing
import TripSync
import TripSyncWeb

/// Request bodies (docs/DESIGN.md, "Slow clients"): read in linear time, one cap for the whole
/// request, empty names counted; and names that could reorder a line shown escaped.
@Suite("Web request bodies")
struct WebBodyTests {
    /// A signed-in harness with one item; its id.
    static func itemHarness() throws -> (WebHarness, String, String, String) {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        _ = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("title", "Tickets")])
        let id = try #require(try web.document.items.first?.key)
        return (web, cookie, csrf, id.description)
    }

    @Test("a 48 MB upload is read in linear time: it is attached (it took 90 s, read quadratically)")
    func largeUpload() throws {
        let (web, cookie, csrf, id) = try Self.itemHarness()
        var bytes = [UInt8](repeating: 0, count: 48_000_000)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let response = try web.upload(
            "/trips/\(web.trip)/items/\(id)/attachments", cookie: cookie, fields: [("csrf", csrf)], files: [("file", "big.bin", bytes)], seconds: 40)
        #expect(response.status == 303)
        #expect(try web.get("/trips/\(web.trip)/items/\(id)", cookie: cookie).body.contains("big.bin"))
    }

    @Test("one cap for the whole request: two files under the cap each but over it together are refused (413)")
    func oneCapPerRequest() throws {
        let (web, cookie, csrf, id) = try Self.itemHarness()
        let half = [UInt8](repeating: 0x41, count: (64 << 20) / 2 + 1024)  // the cap is 64 MiB
        let response = try web.upload(
            "/trips/\(web.trip)/items/\(id)/attachments", cookie: cookie, fields: [("csrf", csrf)],
            files: [("file", "a.bin", half), ("other", "b.bin", half)], seconds: 40)
        #expect(response.status == 413)
        #expect(try web.document.attachments.isEmpty)
    }

    @Test("empty and value-less names count against the text cap (they once cost nothing)")
    func emptyKeys() throws {
        let (web, cookie, csrf, _) = try Self.itemHarness()
        // 300,000 names without values: 1.5 MB of body, far more once kept.
        var body = "csrf=" + csrf + "&title=Flood"
        body.reserveCapacity(1_600_000)
        for index in 0..<300_000 { body += "&" + String(index, radix: 36) }
        body += "&=&=&&"
        let request = "POST /trips/\(web.trip)/items HTTP/1.1\r\nHost: \(web.host)\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nCookie: \(web.cookieName)=\(cookie)\r\nOrigin: \(web.origin)\r\n\r\n" + body
        let response = try web.raw(request)
        #expect(response.status == 413)
        #expect(!(try web.document.items.values.contains { $0.title?.value == "Flood" }))
    }

    @Test("a right-to-left override in an attachment's name is shown as its code, not obeyed")
    func bidiName() throws {
        let (web, cookie, csrf, id) = try Self.itemHarness()
        let name = "photo\u{202E}gpj.exe"
        let response = try web.upload(
            "/trips/\(web.trip)/items/\(id)/attachments", cookie: cookie, fields: [("csrf", csrf)], files: [("file", name, Array("%PDF-1.4".utf8))])
        #expect(response.status == 303)
        let page = try web.get("/trips/\(web.trip)/items/\(id)", cookie: cookie).body
        #expect(page.contains("photo\u{27E8}U+202E\u{27E9}gpj.exe"))
        #expect(!page.unicodeScalars.contains { HTMLText.isBidiControl($0) })
    }
}
