import Foundation
import Testing
import TripSync
import TripSyncWeb
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// What a person does on the pages, through raw HTTP: the forms' labels, Add with typed days and
/// times, Edit and Save, Delete and Restore, Keep this, Sync now, the live version.
@Suite("Web pages")
struct WebPageTests {
    static let labels = ["Title", "Day", "Time", "Ends", "Zone", "Place", "Note"]

    @Test("the trip page has the Add form with every field labelled, Zone defaulting to the trip's zone by place")
    func addFormLabels() throws {
        let web = try WebHarness()
        let page = try web.get("/trips/\(web.trip)", cookie: try web.signIn()).body
        for label in Self.labels {
            let id = "add-" + label.lowercased()
            #expect(page.contains("<label for=\"\(id)\">\(label)</label>"), "\(label)")
            #expect(page.contains("id=\"\(id)\""), "\(label)")
        }
        #expect(page.contains("<option value=\"Europe/Lisbon\" selected>Lisbon — Europe/Lisbon</option>"))
        #expect(page.contains("<button type=\"submit\">Add</button>"))
        #expect(page.contains("<button type=\"submit\">Sync now</button>"))
    }

    /// A request about one trip reads that trip's replica only: a home keeps every past trip,
    /// and the page and each Add used to read them all. The trips list still reads every one.
    @Test func aTripsPageAndItsAddReadThatTripOnly() throws {
        final class Reads: @unchecked Sendable {
            private let lock = NSLock()
            private var paths: [String] = []
            func add(_ path: String) { lock.withLock { paths.append(path) } }
            func take() -> [String] { lock.withLock { defer { paths = [] }; return paths } }
        }
        let reads = Reads()
        let web = try WebHarness(otherTrips: ["Porto 2025", "Rome 2026"], onRead: { reads.add($0) })
        let cookie = try web.signIn()
        let replicas = { (paths: [String]) in paths.filter { $0.hasSuffix(".trip.json.gz") } }
        _ = reads.take()
        #expect(try web.get("/trips/\(web.trip)", cookie: cookie).status == 200)
        #expect(replicas(reads.take()) == [web.home.replicaPath(for: web.trip)])
        let response = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Castelo"), ("day", "10 Jun 2027")])
        #expect(response.status == 303)
        #expect(Set(replicas(reads.take())) == [web.home.replicaPath(for: web.trip)])
        #expect(try web.document.items.values.contains { $0.title?.value == "Castelo" })
        _ = try web.get("/", cookie: cookie)
        #expect(replicas(reads.take()).count == 3)
    }

    @Test("Add takes a day and time as people type them", arguments: [
        ("10 Jun 2027", "9:30", "2027-06-10T09:30"), ("2027-06-10", "21:05", "2027-06-10T21:05"), ("Jun 10 2027", "9:30pm", "2027-06-10T21:30"),
    ])
    func addTyped(_ day: String, _ time: String, _ expected: String) throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let response = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Castelo"), ("day", day), ("time", time), ("zone", "Europe/Lisbon"), ("place", "Alfama")])
        #expect(response.status == 303)
        let item = try #require(try web.document.items.values.first { $0.title?.value == "Castelo" })
        guard case .local(let local, let zone)? = item.start?.value ?? nil else {
            Issue.record("no timed start")
            return
        }
        #expect(local.description == expected)
        #expect(zone == "Europe/Lisbon")
        #expect((item.place?.value ?? nil) == "Alfama")
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains(">Castelo</a>"))
    }

    @Test("a day without a year is read near the trip's days; an end typed as a time is on the start's day")
    func yearAndEnd() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        _ = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("title", "First"), ("day", "2031-06-08")])
        _ = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Fado"), ("day", "10 Jun"), ("time", "21:00"), ("ends", "23:30"), ("zone", "Europe/Lisbon")])
        let item = try #require(try web.document.items.values.first { $0.title?.value == "Fado" })
        #expect((item.start?.value ?? nil)?.localDate.description == "2031-06-10")
        guard case .local(let end, _)? = item.end?.value ?? nil else {
            Issue.record("no timed end")
            return
        }
        #expect(end.description == "2031-06-10T23:30")
    }

    @Test("refused input shows the library's error in words, keeps what was typed, and saves nothing")
    func refusedAddKeepsForm() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let before = try web.document.fingerprint
        let response = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Castelo <b>"), ("day", "31 Feb 2027"), ("time", "9:30")])
        #expect(response.status == 422)
        #expect(response.body.contains("role=\"alert\""))
        #expect(response.body.contains("Day: cannot read"))
        #expect(response.body.contains("value=\"Castelo &lt;b&gt;\""))
        #expect(response.body.contains("value=\"31 Feb 2027\""))
        let late = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", try web.csrf(cookie: cookie)), ("title", "Late"), ("day", "10 Jun 2027"), ("time", "10:00"), ("ends", "9:00"), ("zone", "Europe/Lisbon")])
        #expect(late.status == 422)
        #expect(late.body.contains("role=\"alert\""))
        #expect(try web.document.fingerprint == before)
    }

    @Test("an item opens by its title; Edit shows its values; Save writes only what changed; Delete and Restore")
    func editDeleteRestore() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        _ = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Castelo"), ("day", "10 Jun 2027"), ("time", "10:00"), ("zone", "Europe/Lisbon"), ("note", "tickets online")])
        let id = try #require(try web.document.items.first { $0.value.title?.value == "Castelo" }?.key)
        let trip = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(trip.contains("href=\"/trips/\(web.trip)/items/\(id)\">Castelo</a>"))
        let item = try web.get("/trips/\(web.trip)/items/\(id)", cookie: cookie).body
        #expect(item.contains(">Edit</a>"))
        #expect(item.contains("<button type=\"submit\">Delete</button>"))
        let edit = try web.get("/trips/\(web.trip)/items/\(id)/edit", cookie: cookie).body
        for label in Self.labels { #expect(edit.contains("<label for=\"edit-\(label.lowercased())\">\(label)</label>")) }
        #expect(edit.contains("value=\"10:00\""))
        #expect(edit.contains("<button type=\"submit\">Save</button>"))
        let startRev = try web.document.items[id]?.start?.rev
        // The form as a browser sends it (with what it showed, issue 39), the title typed over.
        let fields = FormFields.of(edit, action: "/trips/\(web.trip)/items/\(id)").map { ($0.0, $0.0 == "title" ? "Castelo de São Jorge" : $0.1) }
        let saved = try web.post("/trips/\(web.trip)/items/\(id)", cookie: cookie, origin: web.origin, form: fields)
        #expect(saved.status == 303)
        // A Save without what the form showed cannot tell what the person changed: refused, nothing written.
        let blind = try web.post(
            "/trips/\(web.trip)/items/\(id)", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Castelo"), ("day", "2027-06-10"), ("time", "10:00"), ("ends", ""), ("zone", "Europe/Lisbon"),
                ("place", ""), ("note", "tickets online")])
        #expect(blind.status == 422)
        #expect(try web.document.items[id]?.title?.value == "Castelo de São Jorge")
        #expect(try web.document.items[id]?.start?.rev == startRev)
        let deleted = try web.post("/trips/\(web.trip)/items/\(id)/delete", cookie: cookie, origin: web.origin, form: [("csrf", csrf)])
        #expect(deleted.status == 303)
        #expect(try web.document.items[id] == nil)
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains("action=\"/trips/\(web.trip)/items/\(id)/restore\""))
        #expect(page.contains("<button type=\"submit\">Restore</button>"))
        let restored = try web.post("/trips/\(web.trip)/items/\(id)/restore", cookie: cookie, origin: web.origin, form: [("csrf", csrf)])
        #expect(restored.status == 303)
        #expect(try web.document.items[id]?.title?.value == "Castelo de São Jorge")
    }

    @Test("a conflict shows each value with who wrote it and when, and Keep this settles it; Sync now uses the folder")
    func conflictKeepThis() throws {
        let web = try WebHarness()
        let folder = web.folder + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        _ = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("title", "Dinner")])
        // Sync now with a folder typed in.
        let synced = try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)])
        #expect(synced.status == 303)
        let afterSync = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(afterSync.contains("Synced with"))
        #expect(afterSync.contains("the folder this trip last synced with"))
        // A second laptop, invited as an editor, renames the same item at the same time.
        let other = try web.joinSecondLaptop(through: folder)
        let id = try #require(try web.document.items.first { $0.value.title?.value == "Dinner" }?.key)
        try {
            let theirs = try TripStore.open(web.trip.description, in: other)
            try theirs.edit { try $0.set(.title, of: id, to: .text("Dinner at Ramiro")) }
            _ = try theirs.sync(with: folder)
        }()
        try {
            let mine = try TripStore.open(web.trip.description, in: web.home)
            try mine.edit { try $0.set(.title, of: id, to: .text("Dinner at Zé")) }
        }()
        let again = try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)])
        #expect(again.status == 303)
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains("Dinner at Ramiro"))
        #expect(page.contains("Dinner at Zé"))
        #expect(page.components(separatedBy: "<button type=\"submit\">Keep this</button>").count == 3)
        #expect(page.contains(" UTC</span>"))
        let alternative = try #require(ConflictList(try web.document).fields.first?.alternatives.first?.text)
        let kept = try web.post(
            "/trips/\(web.trip)/resolve", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("item", id.description), ("field", "title"), ("choice", "1")])
        #expect(kept.status == 303)
        #expect(ConflictList(try web.document).fields.isEmpty)
        #expect(try web.document.items[id]?.title?.value == alternative)
    }

    @Test("the live itinerary is the exported page's renderer: a place links to its map, a stay shows on each of its days")
    func oneItineraryRenderer() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let place = "Rua das Carmelitas 144, Porto"
        _ = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Livraria Lello"), ("day", "10 Jun 2027"), ("time", "9:30"), ("zone", "Europe/Lisbon"), ("place", place)])
        _ = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Torel Avantgarde"), ("day", "10 Jun 2027"), ("ends", "12 Jun 2027"), ("zone", "Europe/Lisbon")])
        let stay = try #require(try web.document.items.first { $0.value.title?.value == "Torel Avantgarde" }?.key)
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        let map = try #require(MapLink.url(for: place))
        #expect(page.contains("href=\"" + HTMLText.escape(map) + "\""))
        // The stay is on the 10th, then on the 11th and the 12th as it runs.
        #expect(page.components(separatedBy: "data-continues=\"\(stay)\"").count == 3)
        #expect(page.contains("<a href=\"/trips/\(web.trip)/items/\(stay)\">Torel Avantgarde</a>"))
        // The exported page draws the same days the same way.
        let exported = ItineraryPage(try web.document, generatedAt: .now).html
        #expect(exported.components(separatedBy: "data-continues=\"\(stay)\"").count == 3)
        #expect(exported.contains("href=\"" + HTMLText.escape(map) + "\""))
        // No command-line hint on the live page: conflicts are settled with Keep this.
        #expect(!page.contains("tripsync resolve"))
    }

    @Test("the version a page polls changes when the trip is saved by anyone (another store, like the CLI)")
    func versionChanges() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let first = try web.get("/trips/\(web.trip)/version", cookie: cookie)
        #expect(first.status == 200)
        #expect(try web.get("/trips/\(web.trip)/version", cookie: cookie).body == first.body)
        try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            try store.edit { try $0.addItem(NewItem(title: "From the CLI", sortKey: ""), at: .last) }
        }()
        #expect(try web.get("/trips/\(web.trip)/version", cookie: cookie).body != first.body)
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains("data-version-url=\"/trips/\(web.trip)/version\""))
        #expect(page.contains("From the CLI"))
    }

    @Test("an upload is attached; the form says before the upload that a photo's location is removed unless kept on purpose")
    func uploadAttachment() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        _ = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("title", "Tickets")])
        let id = try #require(try web.document.items.first?.key)
        let page = try web.get("/trips/\(web.trip)/items/\(id)", cookie: cookie).body
        #expect(page.contains("<label for=\"upload-keep\">Keep where it was taken</label>"))
        // The reason sits by the file field, tied to it, before anything is sent.
        let hint = try #require(page.range(of: "id=\"upload-file-hint\">"))
        let field = try #require(page.range(of: "<input type=\"file\""))
        #expect(hint.lowerBound < field.lowerBound)
        #expect(page.contains("aria-describedby=\"upload-file-hint\""))
        #expect(page[hint.upperBound...].hasPrefix("Photos often record where they were taken. TripSync removes that"))
        let response = try web.upload(
            "/trips/\(web.trip)/items/\(id)/attachments", cookie: cookie, fields: [("csrf", csrf), ("caption", "the ticket")],
            file: ("ticket.pdf", Array("%PDF-1.4 hello".utf8)))
        #expect(response.status == 303)
        let after = try web.get("/trips/\(web.trip)/items/\(id)", cookie: cookie).body
        #expect(after.contains("ticket.pdf"))
        #expect(after.contains("not yet shared"))
    }

    @Test("while a page polls, the server syncs by itself with the last folder: another laptop's change arrives")
    func automaticSync() throws {
        let web = try WebHarness()
        let folder = web.folder + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        #expect(try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)]).status == 303)
        let other = try web.joinSecondLaptop(through: folder)
        try {
            let theirs = try TripStore.open(web.trip.description, in: other)
            try theirs.edit { try $0.addItem(NewItem(title: "From Sam", sortKey: ""), at: .last) }
            _ = try theirs.sync(with: folder)
        }()
        // The page is open: it polls the version, and nobody presses Sync now.
        let deadline = Date().addingTimeInterval(15)
        var arrived = false
        while Date() < deadline && !arrived {
            _ = try web.get("/trips/\(web.trip)/version", cookie: cookie)
            arrived = try web.document.items.values.contains { $0.title?.value == "From Sam" }
            if !arrived { Thread.sleep(forTimeInterval: 0.5) }
        }
        #expect(arrived)
    }

    @Test("Invite shows a code to copy, one the library reads back; Set role is offered to the owner")
    func invite() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let members = try web.get("/trips/\(web.trip)/members", cookie: cookie).body
        #expect(members.contains("<label for=\"invite-role\">Role</label>"))
        #expect(members.contains("<button type=\"submit\">Invite</button>"))
        let csrf = try #require(members.range(of: "name=\"csrf\" value=\"").map { String(members[$0.upperBound...].prefix { $0 != "\"" }) })
        let response = try web.post("/trips/\(web.trip)/members/invite", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("role", "viewer")])
        #expect(response.status == 303)
        let page = try web.get("/trips/\(web.trip)/members", cookie: cookie).body
        #expect(page.contains("<label for=\"invite-code\">Invite code</label>"))
        #expect(page.contains("data-copy=\"invite-code\">Copy</button>"))
        let start = try #require(page.range(of: "id=\"invite-code\" readonly value=\""))
        let code = try InviteCode(parsing: String(page[start.upperBound...].prefix { $0 != "\"" }))
        #expect(code.role == .viewer)
        #expect(code.trip == web.trip)
        let refused = try web.post("/trips/\(web.trip)/members/invite", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("role", "owner")])
        #expect(refused.status == 422)
        #expect(refused.body.contains("Role: choose editor or viewer"))
    }

    @Test("a request answering a spent invite waits under Asking to join, with Approve and Decline; Decline refuses it")
    func approveDecline() throws {
        let web = try WebHarness()
        let folder = web.folder + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        #expect(try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)]).status == 303)
        let code: InviteCode = try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            return try store.invite(role: .editor)
        }()
        for name in ["first", "second"] {
            let home = Home(path: web.folder + "/" + name)
            _ = try home.openIdentity()
            _ = try TripStore.join(code: code, folder: folder, in: home)
            _ = try FolderSync(home: web.home, folder: folder).run()
        }
        let page = try web.get("/trips/\(web.trip)/members", cookie: cookie).body
        #expect(page.contains("<button type=\"submit\">Approve</button>"))
        #expect(page.contains("<button type=\"submit\">Decline</button>"))
        let pending = try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            return try store.members().filter(\.pending)
        }()
        let device = try #require(pending.first?.device)
        let declined = try web.post("/trips/\(web.trip)/members/decline", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("device", device.description)])
        #expect(declined.status == 303)
        let after = try {
            let store = try TripStore.open(web.trip.description, in: web.home)
            return try store.members().filter(\.pending)
        }()
        #expect(!after.contains { $0.device == device })
    }
}
