import Testing
import TripSync
import TripSyncWeb
import TripSyncCore

/// The pages' markup is safe by construction (issue 39): a value interpolated into `HTML` is
/// escaped, markup joins only as `HTML` or through the visible `HTML.trusted`.
@Suite("HTML")
struct HTMLTests {
    @Test("an interpolated text cannot open a tag or leave an attribute")
    func interpolationEscapes() {
        let title = "\"><script>alert(1)</script>"
        let html: HTML = "<a title=\"\(title)\">\(title)</a>"
        #expect(html.description == "<a title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>")
    }

    @Test("markup joins as HTML unescaped, only by name when it is a string; values by their description")
    func markupJoins() {
        let inner: HTML = "<b>\("a & b")</b>"
        let outer: HTML = "<p>\(inner) \(HTML.trusted("<i>ok</i>")) \(42)</p>"
        #expect(outer.description == "<p><b>a &amp; b</b> <i>ok</i> 42</p>")
        #expect((inner + "<br>").description == "<b>a &amp; b</b><br>")
    }

    @Test("a control that reorders the line is shown as its code, in text and in attributes, on every page (one escaping)")
    func bidiControls() {
        let name = "photo\u{202E}gpj.exe \u{2067}x\u{2069} \u{200F}\u{061C}"
        let html: HTML = "<a title=\"\(name)\">\(name)</a>"
        #expect(!html.description.unicodeScalars.contains { HTMLText.isBidiControl($0) })
        #expect(html.description.contains("photo\u{27E8}U+202E\u{27E9}gpj.exe \u{27E8}U+2067\u{27E9}x\u{27E8}U+2069\u{27E9} \u{27E8}U+200F\u{27E9}\u{27E8}U+61C\u{27E9}"))
        // Right-to-left text itself is left alone: only the invisible controls are shown.
        #expect(HTMLText.escape("שלום עולם") == "שלום עולם")
    }

    @Test("an attribute's value cannot leave it; pieces join with a separator that is markup")
    func attributesAndJoins() {
        let href = "\" onmouseover=\"alert(1)"
        #expect(HTML.attribute("href", href).description == " href=\"&quot; onmouseover=&quot;alert(1)\"")
        let names: [HTML] = ["<bdi>\("Sam <b>")</bdi>", "<bdi>\("Alex")</bdi>"]
        #expect(HTML.joined(names, separator: " and ").description == "<bdi>Sam &lt;b&gt;</bdi> and <bdi>Alex</bdi>")
    }
}

/// A route is a value read once from the method and path, and written back as the same path.
@Suite("Routes")
struct RouteTests {
    @Test("every route reads back from its own path; a wrong method, id or action is none")
    func roundTrip() throws {
        let trip = try #require(TripID("518f24af-7a6a-40e8-b76e-e39001eb1451"))
        let item = try #require(ItemID("28d4f9c6-01f3-45cc-a453-e255425eef68"))
        let reads: [Route] = [
            .trips, .homeVersion, .trip(trip), .version(trip), .calendar(trip), .printable(trip), .members(trip), .item(trip, item), .editItem(trip, item),
            .attachment(trip, "ab12cd34"),
        ]
        let writes: [Route] = [.join, .addItem(trip), .resolve(trip), .sync(trip), .membersAction(trip, "invite"), .saveItem(trip, item), .deleteItem(trip, item),
            .restoreItem(trip, item), .upload(trip, item)]
        for route in reads { #expect(Route(.get, route.path) == route) }
        for route in writes { #expect(Route(.post, route.path) == route) }
        #expect(Route(.post, "/trips/\(trip)") == nil)
        #expect(Route(.get, "/trips/\(trip)/items/\(item)/delete") == nil)
        #expect(Route(.get, "/trips/not-an-id") == nil)
        #expect(Route(.post, "/trips/\(trip)/items/\(item)/explode") == nil)
    }
}
