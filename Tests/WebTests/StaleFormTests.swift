import Foundation
import Testing
import TripSync
import TripSyncWeb
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// The page never loses a keystroke (issue 39): a form left open while someone else changes the
/// item (the CLI, a second tab, another laptop through a sync) saves only what the person
/// changed, and a field both changed keeps both values as a conflict. A form posted twice adds
/// one item. Each request is what a browser sends: every field of the form as the page gave it.
@Suite("Stale forms")
struct StaleFormTests {
    /// A trip with one item, signed in, with the item's id.
    static func itemOnPage() throws -> (WebHarness, String, String, ItemID) {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let csrf = try web.csrf(cookie: cookie)
        let added = try web.post(
            "/trips/\(web.trip)/items", cookie: cookie, origin: web.origin,
            form: [("csrf", csrf), ("title", "Castelo"), ("day", "10 Jun 2027"), ("time", "10:00"), ("zone", "Europe/Lisbon"), ("note", "tickets online")])
        #expect(added.status == 303)
        let id = try #require(try web.document.items.first { $0.value.title?.value == "Castelo" }?.key)
        return (web, cookie, csrf, id)
    }

    /// The fields of the Edit form as the page renders it now (what the tab holds).
    static func openEdit(_ web: WebHarness, cookie: String, id: ItemID) throws -> [(String, String)] {
        let page = try web.get("/trips/\(web.trip)/items/\(id)/edit", cookie: cookie)
        #expect(page.status == 200)
        return FormFields.of(page.body, action: "/trips/\(web.trip)/items/\(id)")
    }

    /// Posts the form with `changes` typed over it.
    static func save(_ web: WebHarness, cookie: String, id: ItemID, form: [(String, String)], _ changes: [String: String]) throws -> RawResponse {
        let typed = form.map { ($0.0, changes[$0.0] ?? $0.1) }
        return try web.post("/trips/\(web.trip)/items/\(id)", cookie: cookie, origin: web.origin, form: typed)
    }

    /// Another writer on the same home: the CLI's `edit`, one command in its own process.
    static func cliEdit(_ web: WebHarness, _ id: ItemID, _ field: ItemField, _ text: String) throws {
        let store = try TripStore.open(web.trip.description, in: web.home)
        try store.edit { try $0.set(field, of: id, to: .text(text)) }
    }

    @Test("a note typed in the CLI while the form is open stays when the page saves the title")
    func cliEditWhileFormOpen() throws {
        let (web, cookie, _, id) = try Self.itemOnPage()
        let form = try Self.openEdit(web, cookie: cookie, id: id)
        try Self.cliEdit(web, id, .note, "tickets at the door")
        let saved = try Self.save(web, cookie: cookie, id: id, form: form, ["title": "Castelo de São Jorge"])
        #expect(saved.status == 303)
        let item = try #require(try web.document.items[id])
        #expect(item.title?.value == "Castelo de São Jorge")
        #expect(item.note?.value == "tickets at the door")
        #expect(item.note?.conflicts.isEmpty == true)
    }

    @Test("a place saved from a second tab stays when the first tab saves")
    func secondTab() throws {
        let (web, cookie, _, id) = try Self.itemOnPage()
        let first = try Self.openEdit(web, cookie: cookie, id: id)
        let second = try Self.openEdit(web, cookie: cookie, id: id)
        #expect(try Self.save(web, cookie: cookie, id: id, form: second, ["place": "Alfama"]).status == 303)
        #expect(try Self.save(web, cookie: cookie, id: id, form: first, ["time": "11:00"]).status == 303)
        let item = try #require(try web.document.items[id])
        #expect((item.place?.value ?? nil) == "Alfama")
        guard case .local(let local, _)? = item.start?.value ?? nil else {
            Issue.record("the start lost its time")
            return
        }
        #expect(local.hour == 11)
    }

    @Test("a place another laptop synced in while the form is open stays, here and on that laptop")
    func otherLaptopSync() throws {
        let (web, cookie, csrf, id) = try Self.itemOnPage()
        let folder = web.folder + "/shared"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)]).status == 303)
        let other = try web.joinSecondLaptop(through: folder)
        let form = try Self.openEdit(web, cookie: cookie, id: id)
        try {
            let theirs = try TripStore.open(web.trip.description, in: other)
            try theirs.edit { try $0.set(.place, of: id, to: .text("Miradouro da Graça")) }
            _ = try theirs.sync(with: folder)
        }()
        #expect(try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)]).status == 303)
        #expect((try web.document.items[id]?.place?.value ?? nil) == "Miradouro da Graça")
        #expect(try Self.save(web, cookie: cookie, id: id, form: form, ["note": "book a guide"]).status == 303)
        #expect((try web.document.items[id]?.place?.value ?? nil) == "Miradouro da Graça")
        #expect((try web.document.items[id]?.note?.value ?? nil) == "book a guide")
        // The save does not travel back to that laptop as a revert either.
        #expect(try web.post("/trips/\(web.trip)/sync", cookie: cookie, origin: web.origin, form: [("csrf", csrf), ("folder", folder)]).status == 303)
        let theirs = try TripStore.open(web.trip.description, in: other)
        _ = try theirs.sync(with: folder)
        #expect((theirs.document.items[id]?.place?.value ?? nil) == "Miradouro da Graça")
        #expect((theirs.document.items[id]?.note?.value ?? nil) == "book a guide")
    }

    @Test("a note changed by the CLI and by the page while the form was open keeps both, with Keep this")
    func sameFieldBoth() throws {
        let (web, cookie, _, id) = try Self.itemOnPage()
        let form = try Self.openEdit(web, cookie: cookie, id: id)
        try Self.cliEdit(web, id, .note, "tickets at the door")
        #expect(try Self.save(web, cookie: cookie, id: id, form: form, ["note": "tickets bought"]).status == 303)
        let note = try #require(try web.document.items[id]?.note)
        #expect(note.value == "tickets bought")
        #expect(note.visibleConflicts.map(\.value) == ["tickets at the door"])
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        #expect(page.contains("tickets at the door"))
        #expect(page.contains("<button type=\"submit\">Keep this</button>"))
    }

    @Test("a refusal answers by its kind: a Save of an item deleted while the form was open 409, of one never here 404, a second Delete 409")
    func refusalsByKind() throws {
        let (web, cookie, csrf, id) = try Self.itemOnPage()
        let form = try Self.openEdit(web, cookie: cookie, id: id)
        #expect(try web.post("/trips/\(web.trip)/items/\(id)/delete", cookie: cookie, origin: web.origin, form: [("csrf", csrf)]).status == 303)
        let stale = try Self.save(web, cookie: cookie, id: id, form: form, ["title": "Castelo de São Jorge"])
        #expect(stale.status == 409)
        #expect(stale.body.contains("role=\"alert\""))
        #expect(stale.body.contains("deleted"))
        #expect(try web.post("/trips/\(web.trip)/items/\(id)/delete", cookie: cookie, origin: web.origin, form: [("csrf", csrf)]).status == 409)
        let never = Identifier.random()
        #expect(try Self.save(web, cookie: cookie, id: never, form: form, ["title": "X"]).status == 404)
    }

    @Test("the same Add posted twice (a double click, a resubmitted form) makes one item and answers alike")
    func doubleAdd() throws {
        let web = try WebHarness()
        let cookie = try web.signIn()
        let page = try web.get("/trips/\(web.trip)", cookie: cookie).body
        var form = FormFields.of(page, action: "/trips/\(web.trip)/items")
        form = form.map { ($0.0, $0.0 == "title" ? "Fado at Tasca do Chico" : $0.1) }
        let first = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: form)
        let second = try web.post("/trips/\(web.trip)/items", cookie: cookie, origin: web.origin, form: form)
        #expect(first.status == 303)
        #expect(second.status == 303)
        let added = try web.document.items.filter { $0.value.title?.value == "Fado at Tasca do Chico" }
        #expect(added.count == 1)
        #expect(first.header("location") == second.header("location"))
        #expect(first.header("location") == "/trips/\(web.trip)#item-\(try #require(added.first?.key))")
    }
}

/// The fields a browser would post from one form of a page: inputs, text areas and the chosen
/// option of each select, in order, with the entities the page escaped read back.
enum FormFields {
    static func of(_ html: String, action: String) -> [(String, String)] {
        guard let start = html.range(of: "action=\"" + action + "\"") else { return [] }
        let rest = html[start.upperBound...]
        let form = rest[..<(rest.range(of: "</form>")?.lowerBound ?? rest.endIndex)]
        var fields: [(String, String)] = []
        var cursor = form.startIndex
        while let open = form[cursor...].firstIndex(of: "<") {
            guard let close = form[open...].firstIndex(of: ">") else { break }
            let tag = String(form[open...close])
            cursor = form.index(after: close)
            if tag.hasPrefix("<input"), let name = attribute("name", tag) {
                fields.append((name, unescape(attribute("value", tag) ?? "")))
            } else if tag.hasPrefix("<textarea"), let name = attribute("name", tag), let end = form[cursor...].range(of: "</textarea>") {
                fields.append((name, unescape(String(form[cursor..<end.lowerBound]))))
                cursor = end.upperBound
            } else if tag.hasPrefix("<select"), let name = attribute("name", tag), let end = form[cursor...].range(of: "</select>") {
                let options = form[cursor..<end.lowerBound].components(separatedBy: "<option")
                let chosen = options.first { $0.contains(" selected") } ?? options.dropFirst().first ?? ""
                fields.append((name, unescape(attribute("value", "<option" + chosen) ?? "")))
                cursor = end.upperBound
            }
        }
        return fields
    }

    static func attribute(_ name: String, _ tag: String) -> String? {
        guard let start = tag.range(of: " " + name + "=\"") else { return nil }
        return String(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
