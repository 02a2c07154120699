import Foundation
import Testing
import TripSync
import TripSyncWeb
import TripSyncCore

/// What the friend who never opens a terminal does on the pages (docs/DESIGN.md, "The browser
/// app on a shared machine"): join, a live trips list, the downloads, every wrong field at once.
@Suite("Web pages for the friend without a terminal")
struct WebFriendTests {
    @Test("Join with a wrong code and a folder that is not a path marks both fields at once and writes nothing")
    func joinMarksEveryField() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let page = try web.get("/", cookie: cookie).body
        #expect(page.contains("<label for=\"join-code\">Invite code</label>"))
        #expect(page.contains("<label for=\"join-folder\">Shared folder</label>"))
        let csrf = try #require(page.range(of: "name=\"csrf\" value=\"").map { String(page[$0.upperBound...].prefix { $0 != "\"" }) })
        let response = try web.post("/join", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("code", "not a code"), ("folder", "Dropbox/Trips")])
        #expect(response.status == 422)
        #expect(response.body.contains("id=\"join-code\" name=\"code\" rows=\"3\" aria-describedby=\"join-code-error join-code-hint\" aria-invalid=\"true\""))
        #expect(response.body.contains("aria-invalid=\"true\" required>") && response.body.contains("id=\"join-folder-error\""))
        #expect(response.body.contains("2 fields need a change"))
        #expect(response.body.contains(">not a code</textarea>"))  // what was typed comes back
        let missing = try web.post(
            "/join", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("code", "not a code"), ("folder", web.folder + "/no such folder")])
        #expect(missing.body.contains("there is no folder"))
    }

    @Test("the trips list is live: its stamp changes when a trip arrives")
    func tripsListLive() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let page = try web.get("/", cookie: cookie).body
        #expect(page.contains("data-version-url=\"/version\""))
        #expect(page.contains("<section id=\"trips\" data-live"))
        let before = try web.get("/version", cookie: cookie).body
        _ = try TripStore.create(name: "Another trip", in: web.home)
        let after = try web.get("/version", cookie: cookie).body
        #expect(before != after)
        #expect(try web.get("/", cookie: cookie).body.contains("Another trip"))
    }

    @Test("the calendar and the printable page download as export --ics and --html make them")
    func downloads() throws {
        let web = try WebHarness(tripName: "Lisbon 2027")
        let cookie = try web.signIn()
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains("<a href=\"/trips/\(web.trip)/calendar.ics\" download>Download the calendar (.ics)</a>"))
        #expect(page.contains("<a href=\"/trips/\(web.trip)/itinerary.html\" download>Download the printable page</a>"))
        let calendar = try web.get("/trips/\(web.trip)/calendar.ics", cookie: cookie)
        #expect(calendar.status == 200)
        #expect(calendar.header("content-type") == "text/calendar; charset=utf-8")
        #expect(calendar.header("content-disposition")?.hasPrefix("attachment; filename=\"Lisbon 2027.ics\"") == true)
        #expect(calendar.body == ICalendarExporter().calendar(try web.document).text)
        let printable = try web.get("/trips/\(web.trip)/itinerary.html", cookie: cookie)
        #expect(printable.status == 200)
        #expect(printable.header("content-disposition")?.hasPrefix("attachment;") == true)
        #expect(printable.body.hasPrefix("<!DOCTYPE html>") && printable.body.contains("Lisbon 2027"))
        // Not without the session.
        #expect(try web.get("/trips/\(web.trip)/calendar.ics").status == 401)
    }

    @Test("an Add with three wrong fields marks all three at once, each with its message, and adds nothing")
    func everyWrongField() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let response = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "  "), ("day", "10 Jun"), ("time", "25:99"), ("zone", "Mars/Olympus")])
        #expect(response.status == 422)
        for field in ["add-title", "add-time", "add-zone"] {
            #expect(response.body.contains("id=\"\(field)-error\""), "\(field)")
        }
        #expect(response.body.components(separatedBy: "aria-invalid=\"true\"").count - 1 == 3)
        #expect(response.body.contains("3 fields need a change"))
        #expect(response.body.contains("tabindex=\"-1\" autofocus data-focus"))
        #expect(try web.document.items.isEmpty)
    }
}
