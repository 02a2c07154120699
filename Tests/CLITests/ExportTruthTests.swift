import Foundation
import Testing

/// Exports and `show` as a person meets them (issue 29): a conflicted flight is not presented as
/// settled in the calendar, stays count nights, places link to a map that a hostile place cannot
/// bend, and times show "local and yours" side by side.
@Suite struct ExportTruthTests {
    /// A home with one trip in Europe/Lisbon; returns the home.
    static func home() throws -> String {
        let home = CLI.alexHome()
        let made = try CLI.run(["--home", home, "new", "Lisbon 2027", "--zone", "Europe/Lisbon"])
        #expect(made.status == 0, "\(made.stderr)")
        return home
    }

    /// Adds an item and returns its id (the first word `add` prints that looks like one).
    static func add(_ home: String, _ arguments: [String]) throws -> String {
        let result = try CLI.run(["--home", home, "add"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let words = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ":" })
        return try #require(words.first { $0.count == 36 && $0.filter { $0 == "-" }.count == 4 }.map(String.init), "no id in \(result.stdout)")
    }

    static let hostilePlaces = [
        #""><script>alert(1)</script>"#,
        "javascript:alert(1)",
        "Rua A, 1; Lisboa & co #2 ?q=x/y 'quoted' \\ back",
        "Café Ü 日本 👩‍👩‍👧",
        "https://evil.example/%2e%2e",
    ]

    /// The percent-encoding every map link must carry: every UTF-8 byte outside `A-Za-z0-9-._~`.
    static func encoded(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let unreserved = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || "-._~".utf8.contains(byte)
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    @Test func hostilePlacesLinkToAnOpenStreetMapSearchAndNothingElse() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        var ids: [String] = []
        for (number, place) in Self.hostilePlaces.enumerated() {
            ids.append(try Self.add(home, ["Stop \(number)", "--day", "2027-06-08", "--at", "1\(number):00", "--place", place]))
        }
        let page = try CLI.run(["--home", home, "export", "--html", "-"])
        #expect(page.status == 0, "\(page.stderr)")
        // Every link of the page is an in-page anchor or an OpenStreetMap search.
        var hrefs: [String] = []
        var rest = Substring(page.stdout)
        while let range = rest.range(of: "href=\"") {
            let tail = rest[range.upperBound...]
            guard let close = tail.firstIndex(of: "\"") else { break }
            hrefs.append(String(tail[..<close]))
            rest = tail[close...]
        }
        #expect(hrefs.allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("https://www.openstreetmap.org/search?query=") }, "\(hrefs)")
        for (id, place) in zip(ids, Self.hostilePlaces) {
            let url = "https://www.openstreetmap.org/search?query=" + Self.encoded(place)
            #expect(hrefs.contains(url), "no map link for \(place)")
            #expect(!Self.encoded(place).contains { "\"'<>&#:/ ?\\".contains($0) })

            let text = try CLI.run(["--home", home, "show", id])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("\n           map: " + url + "\n"), "\(text.stdout)")
            let json = try CLI.run(["--home", home, "show", id, "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["mapURL"] as? String == url)
        }
        #expect(!page.stdout.contains("<script>alert"))
        // An item without a place has no map link.
        let bare = try Self.add(home, ["No place", "--day", "2027-06-09"])
        let json = try CLI.run(["--home", home, "show", bare, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["mapURL"] is NSNull)
    }

    @Test func staysCountNightsInShowThePageAndTheCalendar() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try Self.add(home, ["Casa do Príncipe Real", "--day", "2027-06-07", "--end", "2027-06-10"])
        _ = try Self.add(home, ["The Jane", "--day", "2027-06-10", "--at", "15:00", "--end", "2027-06-13T11:00"])
        _ = try Self.add(home, ["Dinner", "--day", "2027-06-08", "--at", "20:30"])
        let show = try CLI.run(["--home", home, "show"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("Casa do Príncipe Real  → Thu 2027-06-10 (3 nights)"), "\(show.stdout)")
        #expect(show.stdout.contains("The Jane  → 11:00 WEST (10:00 UTC your time) on Sun 2027-06-13 (3 nights)"), "\(show.stdout)")
        #expect(!show.stdout.contains("68 h"))
        let page = try CLI.run(["--home", home, "export", "--html", "-"])
        #expect(page.stdout.contains("<span class=\"tag\">3 nights</span>"))
        #expect(page.stdout.contains(" · 3 nights</p>"))
        #expect(!page.stdout.contains("4 days"))
        let calendar = try CLI.run(["--home", home, "export", "--ics", "-"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        #expect(calendar.stdout.contains("DTSTART;VALUE=DATE:20270607\r\nDTEND;VALUE=DATE:20270610\r\n"))
        #expect(calendar.stdout.contains("DTSTART;TZID=Europe/Lisbon:20270610T150000\r\nDTEND;TZID=Europe/Lisbon:20270613T110000\r\n"))
        // The dinner has no end: a default hour, not a zero-length event.
        #expect(calendar.stdout.contains("DTSTART;TZID=Europe/Lisbon:20270608T203000\r\nDURATION:PT1H\r\n"))
    }

    @Test func aConflictedItemIsTentativeInTheCalendar() throws {
        let home = try ItineraryPageCLITests.sampleHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let calendar = try CLI.run(["--home", home, "export", "--ics", "-"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let unfolded = calendar.stdout.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("SUMMARY:⚠ conflict: Lunch at Time Out Market\r\nSTATUS:TENTATIVE\r\n"), "\(unfolded)")
        #expect(unfolded.components(separatedBy: "STATUS:TENTATIVE").count == 2, "only the conflicted item is tentative")
    }

    @Test func timesShowLocalAndYoursSideBySide() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let id = try Self.add(home, ["Fado", "--day", "2027-06-08", "--at", "21:00"])
        // This machine in New York: Lisbon's 21:00 is 16:00 there.
        let newYork = try CLI.run(["--home", home, "show"], environment: ["TZ": "America/New_York"])
        #expect(newYork.stdout.contains("21:00 WEST (16:00 EDT your time) Fado"), "\(newYork.stdout)")
        let item = try CLI.run(["--home", home, "show", id], environment: ["TZ": "America/New_York"])
        #expect(item.stdout.contains("Tue 2027-06-08 21:00 WEST (Europe/Lisbon) (16:00 EDT your time)"), "\(item.stdout)")
        // In Lisbon the time reads the same: shown once.
        let lisbon = try CLI.run(["--home", home, "show"], environment: ["TZ": "Europe/Lisbon"])
        #expect(lisbon.stdout.contains("21:00 WEST") && !lisbon.stdout.contains("your time"), "\(lisbon.stdout)")
        // --in names the viewer's zone; a later date there says its weekday.
        let tokyo = try CLI.run(["--home", home, "show", "--in", "Asia/Tokyo"], environment: ["TZ": "Europe/Lisbon"])
        #expect(tokyo.stdout.contains("21:00 WEST (05:00 JST Wed, your time) Fado"), "\(tokyo.stdout)")
        let tokyoItem = try CLI.run(["--home", home, "show", id, "--in", "Asia/Tokyo"])
        #expect(tokyoItem.status == 0, "\(tokyoItem.stderr)")
        #expect(tokyoItem.stdout.contains("(05:00 JST Wed, your time)"), "\(tokyoItem.stdout)")
    }

    @Test func thePageShowsYoursBesideTheLocalTimeAndNoMachineZone() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        _ = try Self.add(home, ["Fado", "--day", "2027-06-08", "--at", "21:00"])
        _ = try Self.add(home, ["High Line", "--day", "2027-06-11", "--at", "09:30", "--zone", "America/New_York"])
        let fixed = ["SOURCE_DATE_EPOCH": "1796292000"]
        let page = try CLI.run(["--home", home, "export", "--html", "-"], environment: fixed.merging(["TZ": "Asia/Tokyo"]) { $1 })
        #expect(page.status == 0, "\(page.stderr)")
        // 21:00 WEST keeps its local time; with New York chosen (vz-2) 16:00 EDT is written beside it.
        #expect(page.stdout.contains(
            "<span class=\"v v0\"><span class=\"hm\">21:00</span> <abbr title=\"Europe/Lisbon\">WEST</abbr></span><span class=\"v v2\"><span class=\"yours\"><span class=\"sep\"> ·&nbsp;</span><span class=\"hm\">16:00</span> <abbr title=\"America/New_York\">EDT</abbr> <span class=\"yl\">yours</span></span></span>"),
            "\(page.stdout)")
        #expect(page.stdout.contains("#vz-2:checked~main .v2{display:inline}") && !page.stdout.contains("~main .v0"))
        // The machine's zone (Tokyo) is nowhere: the bytes are those made in UTC.
        #expect(!page.stdout.contains("Asia/Tokyo") && !page.stdout.contains("JST"))
        let utc = try CLI.run(["--home", home, "export", "--html", "-"], environment: fixed.merging(["TZ": "UTC"]) { $1 })
        #expect(utc.stdout == page.stdout)
    }
}
