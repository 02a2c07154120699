import Foundation
import Testing
import TripSync
import TripSyncCore

/// Hand-built trips for the itinerary page and the team metrics: every rev chosen by hand.
enum PageFixture {
    static let trip = TripID(high: 0x7a11_0000_0000_4000, low: 0x8000_0000_0000_0019)
    static let alex = DeviceID(high: 0xa1e0_0000_0000_4000, low: 0x8000_0000_0000_0001)
    static let sam = DeviceID(high: 0x5a30_0000_0000_4000, low: 0x8000_0000_0000_0002)
    static let kim = DeviceID(high: 0x0c10_0000_0000_4000, low: 0x8000_0000_0000_0003)

    /// 2025-11-29T07:06:40Z in milliseconds, the counter of the first write.
    static let t0: UInt64 = 1_764_400_000_000

    static func id(_ number: UInt64) -> ItemID { ItemID(high: 0x1000_0000_0000_4000 + number << 16, low: 0x8000_0000_0000_0000 + number) }

    static func rev(_ counter: UInt64, _ device: DeviceID) -> Rev { Rev(counter: counter, device: device) }

    static func at(_ text: String, _ zone: String) throws -> TripTime {
        .local(try #require(LocalDateParsing.dateTime(text)), zone: zone)
    }

    static func day(_ text: String) throws -> TripTime { .date(try #require(LocalDateParsing.date(text))) }

    /// An item all of whose fields were written by one write of `device` at `counter`.
    static func item(
        _ title: String, start: TripTime?, end: TripTime? = nil, place: String? = nil, note: String? = nil, sortKey: String = "V",
        by device: DeviceID = alex, counter: UInt64 = t0
    ) -> ItemFields {
        let stamp = rev(counter, device)
        return ItemFields(
            title: Register(value: title, rev: stamp), sortKey: Register(value: sortKey, rev: stamp), start: Register(value: start, rev: stamp),
            end: Register(value: end, rev: stamp), place: Register(value: place, rev: stamp), note: Register(value: note, rev: stamp))
    }

    static func document(
        name: String = "Lisbon 2027", items: [ItemID: ItemFields], tombstones: [ItemID: Tombstone] = [:], me: DeviceID = alex,
        acks: [DeviceID: VersionVector] = [:], extraClock: [DeviceID: UInt64] = [:]
    ) -> TripDocument {
        var clock = VersionVector()
        let nameRev = rev(t0, alex)
        var revs: [Rev] = [nameRev, rev(t0, alex), rev(t0, sam)]
        for fields in items.values { revs += fields.dots.map(\.rev) }
        for tombstone in tombstones.values { revs += tombstone.item.dots.map(\.rev) + tombstone.deleted.versions.map(\.rev) }
        for stamp in revs { clock.include(stamp) }
        for (device, counter) in extraClock { clock.include(rev(counter, device)) }
        return TripDocument(
            tripID: trip, deviceID: me, clock: clock, trip: TripInfo(name: Register(value: name, rev: nameRev)),
            devices: [
                alex: DeviceInfo(name: Register(value: "Alex's laptop", rev: rev(t0, alex))),
                sam: DeviceInfo(name: Register(value: "Sam's laptop", rev: rev(t0, sam))),
            ],
            items: items, tombstones: tombstones, acks: acks)
    }
}

/// The itinerary page (`ItineraryPage`, `tripsync export --html`), read as text. The browser
/// test (Tests/browser) loads the same kind of page in Chromium.
@Suite struct ItineraryPageTests {
    typealias F = PageFixture
    static let made = UTCTimestamp(secondsSinceEpoch: 1_796_292_000)  // 2026-12-03T10:00:00Z

    static func page(_ document: TripDocument) -> String { ItineraryPage(document, generatedAt: made).html }

    /// The text of the `<li>` of one item (from its opening tag to the next item's).
    static func itemHTML(_ html: String, _ id: ItemID) throws -> String {
        let attribute = try #require(html.range(of: "data-item=\"\(id)\""))
        let start = try #require(html[..<attribute.lowerBound].range(of: "<li ", options: .backwards))
        let rest = html[start.lowerBound...]
        let end = rest.range(of: "</li>\n<li class=\"item")?.lowerBound ?? rest.range(of: "</ol>")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func aFlightAcrossZonesShowsItsDurationByInstants() throws {
        let flight = F.id(1)
        let document = F.document(items: [
            flight: F.item(
                "TP 201 Lisbon → New York", start: try F.at("2027-06-10T10:00", "Europe/Lisbon"), end: try F.at("2027-06-10T13:00", "America/New_York"))
        ])
        let html = Self.page(document)
        let item = try Self.itemHTML(html, flight)
        #expect(item.contains("data-kind=\"travel\""))
        #expect(item.contains("data-duration-minutes=\"480\""))
        #expect(item.contains("<span class=\"dur duration\">8 h</span>"))
        // Departure and arrival, each at its own local time and zone, with the instant.
        #expect(item.contains("<time class=\"clock\" datetime=\"2027-06-10T09:00:00Z\" data-day=\"2027-06-10\"><span class=\"v v0\"><span class=\"hm\">10:00</span> <abbr title=\"Europe/Lisbon\">WEST</abbr></span>"))
        #expect(item.contains("datetime=\"2027-06-10T17:00:00Z\" data-day=\"2027-06-10\"><span class=\"v v0\"><span class=\"hm\">13:00</span> <abbr title=\"America/New_York\">EDT</abbr></span>"))
        #expect(item.contains("<span class=\"city\">Lisbon</span>") && item.contains("<span class=\"city\">New York</span>"))
        // The switch: Lisbon, New York, UTC; in UTC the arrival reads 17:00 UTC, in New York the departure 05:00 EDT.
        #expect(html.contains("<label for=\"vz-1\" title=\"Europe/Lisbon\">Lisbon</label>"))
        #expect(html.contains("<label for=\"vz-2\" title=\"America/New_York\">New York</label>"))
        #expect(html.contains("<label for=\"vz-3\" title=\"UTC\">UTC</label>"))
        // A chosen zone's time is written beside the local one ("10:00 WEST · 05:00 EDT yours"):
        // in UTC the arrival reads 17:00 UTC, in New York the departure 05:00 EDT.
        #expect(item.contains(Self.yours(3, "17:00", "UTC", "UTC")))
        #expect(item.contains(Self.yours(2, "05:00", "America/New_York", "EDT")))
        #expect(html.contains("#vz-3:checked~main .v3{display:inline}"))
    }

    /// A chosen zone's reading as the page writes it beside a time's own.
    static func yours(_ index: Int, _ clock: String, _ zone: String, _ abbreviation: String) -> String {
        "<span class=\"v v\(index)\"><span class=\"yours\"><span class=\"sep\"> ·&nbsp;</span><span class=\"hm\">" + clock
            + "</span> <abbr title=\"" + zone + "\">" + abbreviation + "</abbr> <span class=\"yl\">yours</span></span></span>"
    }

    @Test func aChosenZoneShowsItsTimeBesideTheLocalOneNeverInsteadOfIt() throws {
        let flight = F.id(1)
        let walk = F.id(2)
        let document = F.document(items: [
            flight: F.item(
                "TP 201 Lisbon → New York", start: try F.at("2027-06-10T10:00", "Europe/Lisbon"), end: try F.at("2027-06-10T13:00", "America/New_York")),
            walk: F.item("High Line", start: try F.at("2027-06-11T09:30", "America/New_York")),
        ])
        let html = Self.page(document)
        let item = try Self.itemHTML(html, flight)
        let own = "<time class=\"clock\" datetime=\"2027-06-10T09:00:00Z\" data-day=\"2027-06-10\"><span class=\"v v0\"><span class=\"hm\">10:00</span> <abbr title=\"Europe/Lisbon\">WEST</abbr></span>"
        // The departure in Lisbon: beside it New York's and UTC's readings, not Lisbon's again.
        #expect(item.contains(own + Self.yours(2, "05:00", "America/New_York", "EDT") + Self.yours(3, "09:00", "UTC", "UTC") + "</time>"))
        // The arrival in New York: Lisbon's reading and UTC's; none for New York, which reads the same.
        #expect(item.contains(
            "<span class=\"v v0\"><span class=\"hm\">13:00</span> <abbr title=\"America/New_York\">EDT</abbr></span>"
                + Self.yours(1, "18:00", "Europe/Lisbon", "WEST") + Self.yours(3, "17:00", "UTC", "UTC") + "</time>"))
        // 09:30 EDT on the 11th is 14:30 WEST the same day; a reading on another date is marked.
        let morning = try Self.itemHTML(html, walk)
        #expect(morning.contains(Self.yours(1, "14:30", "Europe/Lisbon", "WEST")))
        #expect(item.contains(Self.yours(1, "18:00", "Europe/Lisbon", "WEST")))
        // The local time stays visible whichever zone is chosen: the stylesheet never hides .v0,
        // and shows the chosen zone's readings beside it; the header says which zone is "yours".
        #expect(!html.contains(".v0{display:none}") && !html.contains("~main .v0"))
        #expect(html.contains("#vz-2:checked~main .v2{display:inline}"))
        #expect(html.contains("<span class=\"zn zn-2\">; yours: America/New_York</span>"))
        // No zone of the machine: only the trip's zones and UTC are offered (4 radios), "local only" checked.
        #expect(html.contains("<input type=\"radio\" class=\"vz\" name=\"viewer-zone\" id=\"vz-0\" checked>"))
        #expect(html.components(separatedBy: "class=\"vz\"").count == 5)
    }

    @Test func aReadingOnAnotherDateIsMarkedBesideTheLocalTime() throws {
        let flight = F.id(2)
        let html = Self.page(F.document(items: [
            flight: F.item(
                "TP 210 New York → Lisbon", start: try F.at("2027-06-14T22:15", "America/New_York"), end: try F.at("2027-06-15T10:20", "Europe/Lisbon"))
        ]))
        let item = try Self.itemHTML(html, flight)
        // 22:15 EDT on the 14th is 03:15 WEST on the 15th: "22:15 EDT · 03:15+1 WEST yours".
        #expect(item.contains(
            "<span class=\"v v0\"><span class=\"hm\">22:15</span> <abbr title=\"America/New_York\">EDT</abbr></span><span class=\"v v2\"><span class=\"yours\"><span class=\"sep\"> ·&nbsp;</span><span class=\"hm\">03:15<sup class=\"shift\" title=\"Tuesday 15 June 2027\">+1</sup></span> <abbr title=\"Europe/Lisbon\">WEST</abbr> <span class=\"yl\">yours</span></span></span>"))
    }

    @Test func anOvernightFlightArrivesOnTheNextDateMarkedPlusOne() throws {
        let flight = F.id(2)
        let document = F.document(items: [
            flight: F.item(
                "TP 210 New York → Lisbon", start: try F.at("2027-06-14T22:15", "America/New_York"), end: try F.at("2027-06-15T10:20", "Europe/Lisbon"))
        ])
        let html = Self.page(document)
        let item = try Self.itemHTML(html, flight)
        // 22:15 EDT is 02:15Z, 10:20 WEST is 09:20Z.
        #expect(item.contains("data-duration-minutes=\"425\""))
        #expect(item.contains(">7 h 5 min<"))
        #expect(item.contains("<span class=\"hm\">10:20<sup class=\"shift\" title=\"Tuesday 15 June 2027\">+1</sup></span> <abbr title=\"Europe/Lisbon\">WEST</abbr>"))
        // It stays under the date it leaves, and shows on the date it lands.
        let landing = try #require(html.range(of: "data-date=\"2027-06-15\""))
        #expect(html[landing.lowerBound...].contains("data-continues=\"\(flight)\""))
        #expect(!html[landing.lowerBound...].contains("data-item=\"\(flight)\""))
        #expect(html[landing.lowerBound...].contains("arrives <time"))
    }

    @Test func wholeDayAndMultiDayItemsAreBandsThatContinue() throws {
        let hotel = F.id(3)
        let pack = F.id(4)
        let walk = F.id(5)
        let document = F.document(items: [
            hotel: F.item("Casa do Patio", start: try F.day("2027-06-07"), end: try F.day("2027-06-10"), sortKey: "A"),
            pack: F.item("Pack", start: try F.day("2027-06-09"), sortKey: "B"),
            walk: F.item("Walk", start: try F.at("2027-06-09T08:00", "Europe/Lisbon")),
        ])
        let html = Self.page(document)
        let band = try Self.itemHTML(html, hotel)
        #expect(band.contains("class=\"item allday multi\""))
        #expect(band.contains("<span class=\"tag\">3 nights</span>"))  // June 7 to June 10: 3 nights, never "4 days"
        #expect(band.contains("<time datetime=\"2027-06-07\">Mon 7 Jun</time> – <time datetime=\"2027-06-10\">Thu 10 Jun</time>"))
        for (date, number) in [("2027-06-08", 2), ("2027-06-09", 3), ("2027-06-10", 4)] {
            let section = try #require(html.range(of: "<section class=\"day\" id=\"day-\(date)\""))
            let rest = html[section.lowerBound...]
            let end = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
            #expect(rest[..<end].contains("data-continues=\"\(hotel)\"><a href=\"#item-\(hotel)\"><span class=\"cont-title\" dir=\"auto\">Casa do Patio</span> <span class=\"cont-when\">day \(number) of 4</span>"))
            #expect(rest[..<end].contains("<h2 id=\"h-\(date)\">"))
        }
        // On the 9th: the whole-day item first, then the timed one; a heading and a date.
        let ninth = try #require(html.range(of: "id=\"day-2027-06-09\""))
        let packAt = try #require(html.range(of: "data-item=\"\(pack)\""))
        let walkAt = try #require(html.range(of: "data-item=\"\(walk)\""))
        #expect(ninth.lowerBound < packAt.lowerBound && packAt.lowerBound < walkAt.lowerBound)
        #expect(html.contains("<h2 id=\"h-2027-06-09\"><span class=\"dow\">Wednesday</span> <time datetime=\"2027-06-09\">9 June 2027</time></h2>"))
        #expect(try Self.itemHTML(html, pack).contains("<span class=\"tag\">All day</span>"))
    }

    @Test func hostileTextStaysText() throws {
        let payloads = [
            "<img src=x onerror=alert(1)>", "</style><script>alert(1)</script>", "\"><svg onload=alert(1)>", "' onmouseover='alert(1)",
            "</title><script>alert(2)</script>", "&lt;b&gt; stays &amp; as typed",
        ]
        var items: [ItemID: ItemFields] = [:]
        for (index, payload) in payloads.enumerated() {
            items[F.id(UInt64(10 + index))] = F.item(
                payload, start: try F.at("2027-06-09T1\(index):00", "Europe/Lisbon"), place: payload, note: payload + "\nline two")
        }
        items[F.id(30)] = F.item(payloads[1], start: nil)
        let document = F.document(name: "</title><script>alert(3)</script>", items: items)
        let html = Self.page(document)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<svg"))
        #expect(!html.contains("' onmouseover='"))
        #expect(html.contains("<h3 class=\"title\" dir=\"auto\">&lt;img src=x onerror=alert(1)&gt;</h3>"))
        #expect(html.contains("<h3 class=\"title\" dir=\"auto\">&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h3>"))
        #expect(html.contains("&quot;&gt;&lt;svg onload=alert(1)&gt;"))
        #expect(html.contains("&#39; onmouseover=&#39;alert(1)"))
        #expect(html.contains("&amp;lt;b&amp;gt; stays &amp;amp; as typed"))
        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt; · itinerary</title>"))
        // The one style element holds no trip text, and nothing can load.
        let style = try #require(html.range(of: "<style>")).upperBound
        let styleEnd = try #require(html.range(of: "</style>")).lowerBound
        #expect(!html[style..<styleEnd].contains("alert"))
        #expect(html.components(separatedBy: "</style>").count == 2)
        #expect(html.contains("content=\"default-src &#39;none&#39;; style-src &#39;sha256-"))
        #expect(html.contains("script-src &#39;none&#39;"))
        #expect(!html.contains("src=\"") && !html.contains("url(") && !html.contains("http://"))
        // The only absolute links are places' map searches, which navigate and load nothing.
        #expect(html.components(separatedBy: "https://").count == html.components(separatedBy: "href=\"https://www.openstreetmap.org/search?query=").count)
    }

    @Test func conflictsShowEveryValueAndWhoWroteIt() throws {
        let fado = F.id(40)
        var fields = F.item("Fado night", start: try F.at("2027-06-08T21:00", "Europe/Lisbon"), place: "Alfama")
        fields.title = Register(versions: [
            Versioned(value: "Fado at Clube de Fado", rev: F.rev(F.t0 + 5_000, F.alex)),
            Versioned(value: "Fado night at Tasca do Chico", rev: F.rev(F.t0 + 6_000, F.sam)),
        ])
        fields.place = Register(versions: [
            Versioned(value: "Alfama", rev: F.rev(F.t0 + 5_000, F.alex)), Versioned(value: "Mouraria", rev: F.rev(F.t0 + 6_000, F.sam)),
        ])
        let html = Self.page(F.document(items: [fado: fields]))
        let item = try Self.itemHTML(html, fado)
        #expect(item.contains("class=\"item timed has-conflict\""))
        #expect(item.contains("<div class=\"conflicts\" id=\"conflict-1\" role=\"note\">"))
        #expect(item.contains("<div class=\"c-field\" data-field=\"title\"><p class=\"c-name\">Title</p>"))
        #expect(item.contains("<li class=\"c-current\"><span class=\"c-val\" dir=\"auto\">“Fado night at Tasca do Chico”</span> <span class=\"c-by\">by <bdi>Sam&#39;s laptop</bdi></span> <span class=\"c-badge\">shown</span></li>"))
        #expect(item.contains("<li><span class=\"c-val\" dir=\"auto\">“Fado at Clube de Fado”</span> <span class=\"c-by\">by <bdi>Alex&#39;s laptop</bdi></span></li>"))
        #expect(item.contains("data-field=\"place\""))
        #expect(item.contains("tripsync resolve " + String(fado.description.prefix(8)) + " title --keep current|mine|N"))
        #expect(html.contains("<li class=\"warn\"><a href=\"#conflict-1\"><b>2</b> conflicts to settle</a></li>"))
    }

    @Test func anItemEditedWhileDeletedIsFlaggedUnderItsDate() throws {
        let museum = F.id(50)
        var body = F.item("Museum", start: try F.at("2027-06-09T10:00", "Europe/Lisbon"))
        body.note = Register(value: "Closed Tuesdays", rev: F.rev(F.t0 + 9_000, F.alex))
        var seen = VersionVector()
        seen.include(F.rev(F.t0 + 1_000, F.sam))
        seen.include(F.rev(F.t0, F.alex))
        let tombstone = Tombstone(
            deleted: Register(value: Deletion(at: UTCTimestamp(secondsSinceEpoch: 1_764_400_001), seen: seen), rev: F.rev(F.t0 + 1_000, F.sam)), item: body)
        let html = Self.page(F.document(items: [F.id(51): F.item("Lunch", start: try F.day("2027-06-10"))], tombstones: [museum: tombstone]))
        let day = try #require(html.range(of: "id=\"day-2027-06-09\""))
        let ghost = try #require(html.range(of: "<li class=\"item ghost\" id=\"deleted-\(museum)\" data-deleted-item=\"\(museum)\">"))
        #expect(day.lowerBound < ghost.lowerBound)
        let rest = html[ghost.lowerBound...]
        #expect(rest.contains("<del>Museum</del>"))
        #expect(rest.contains("Deleted by <bdi>Sam&#39;s laptop</bdi>"))
        #expect(rest.contains("<span class=\"c-name\">Note</span> <span class=\"c-val\" dir=\"auto\">“Closed Tuesdays”</span> <span class=\"c-by\">by <bdi>Alex&#39;s laptop</bdi></span>"))
        #expect(rest.contains("tripsync restore " + String(museum.description.prefix(8))))
        #expect(!html.contains("data-item=\"\(museum)\""))
    }

    @Test func unscheduledItemsUnknownZonesAndGapTimesAreShownAsTheyAre() throws {
        let sim = F.id(60)
        let mars = F.id(61)
        let gap = F.id(62)
        let html = Self.page(
            F.document(items: [
                sim: F.item("Buy a SIM card", start: nil),
                mars: F.item("Base camp", start: try F.at("2027-06-10T10:00", "Mars/Olympus_Mons")),
                gap: F.item("Night bus", start: try F.at("2027-03-28T01:30", "Europe/Lisbon")),
            ]))
        let unscheduled = try #require(html.range(of: "<section class=\"day unscheduled\" id=\"unscheduled\""))
        #expect(html[unscheduled.lowerBound...].contains("data-item=\"\(sim)\""))
        #expect(html.contains("<h2 id=\"h-unscheduled\">Not scheduled yet</h2>"))
        let base = try Self.itemHTML(html, mars)
        #expect(base.contains("<time class=\"clock unknown-zone\" datetime=\"2027-06-10T10:00\" data-day=\"2027-06-10\"><span class=\"hm\">10:00</span> <span class=\"zid\">Mars/Olympus_Mons</span></time>"))
        #expect(base.contains("the zone Mars/Olympus_Mons is unknown to this machine"))
        let bus = try Self.itemHTML(html, gap)
        #expect(bus.contains("datetime=\"2027-03-28T01:30:00Z\""))
        #expect(bus.contains("01:30 does not exist that day (the clocks go forward); moved forward 1 h"))
        // Mars is not a zone the switch can offer.
        #expect(!html.contains("title=\"Mars/Olympus_Mons\">"))
    }

    @Test func thePageIsTheSameBytesEveryTimeAndSaysWhenItWasMade() throws {
        let document = F.document(items: [
            F.id(70): F.item("Lunch", start: try F.at("2027-06-10T12:30", "Europe/Lisbon")),
            F.id(71): F.item("Dinner", start: try F.at("2027-06-10T20:00", "Asia/Kathmandu")),
        ])
        let first = Self.page(document)
        #expect(first == Self.page(document))
        #expect(first.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\""))
        #expect(first.hasSuffix("</body>\n</html>\n"))
        #expect(first.contains("<p class=\"made\">Made <time datetime=\"2026-12-03T10:00:00Z\">2026-12-03 10:00 UTC</time></p>"))
        #expect(first.contains("<span class=\"hm\">20:00</span> <abbr title=\"Asia/Kathmandu\">UTC+5:45</abbr>"))
        let page = ItineraryPage(document, generatedAt: Self.made)
        #expect(page.dayCount == 1)
        #expect(page.itemCount == 2)
    }

    @Test func attachmentsShowUnderTheirItemAndACaptionConflictShowsEachValue() throws {
        let tram = F.id(1)
        var document = F.document(items: [tram: F.item("Tram 28", start: try F.at("2027-06-08T10:00", "Europe/Lisbon"))])
        func attachment(_ number: UInt64, name: String, type: String, size: Int64, captions: [(String?, Rev)], detached: Bool = false) -> AttachmentID {
            let id = AttachmentID(high: 0xa77a_0000_0000_4000 + number, low: 0x8000_0000_0000_0000 + number)
            let stamp = F.rev(F.t0 + number, F.alex)
            let blob = BlobReference(sha256: String(repeating: String(format: "%02x", number), count: 32), size: size, type: type)
            document.attachments[id] = Attachment(
                item: Register(value: tram, rev: stamp), blob: Register(value: blob, rev: stamp), name: Register(value: name, rev: stamp),
                caption: Register(versions: captions.map { Versioned(value: $0.0, rev: $0.1) }),
                deleted: detached ? Register(value: Deletion(at: UTCTimestamp(secondsSinceEpoch: 1_796_000_000), seen: VersionVector()), rev: stamp) : nil)
            return id
        }
        let ticket = attachment(
            1, name: "<b>ticket</b>.pdf", type: "application/pdf", size: 123_456,
            captions: [("TP 201", F.rev(F.t0 + 10, F.alex)), ("Boarding pass", F.rev(F.t0 + 11, F.sam))])
        _ = attachment(2, name: "photo.jpg", type: "image/jpeg", size: 472, captions: [("At the stop", F.rev(F.t0 + 2, F.alex))])
        _ = attachment(3, name: "old-receipt.png", type: "image/png", size: 10, captions: [(nil, F.rev(F.t0 + 3, F.alex))], detached: true)
        let card = try Self.itemHTML(Self.page(document), tram)
        let ticketAt = try #require(card.range(of: "&lt;b&gt;ticket&lt;/b&gt;.pdf")).lowerBound
        let photoAt = try #require(card.range(of: ">photo.jpg<")).lowerBound
        #expect(ticketAt < photoAt)  // by name
        #expect(!card.contains("<b>ticket"))
        #expect(card.contains("PDF · 120.6 KiB"))
        #expect(card.contains("JPEG photo · 472 bytes</span><span class=\"a-caption\" dir=\"auto\">At the stop</span>"))
        #expect(card.contains("Caption changed on more than one device"))
        #expect(card.contains("\u{201C}Boarding pass\u{201D}</span> <span class=\"c-by\">by <bdi>Sam&#39;s laptop</bdi>"))
        #expect(card.contains("\u{201C}TP 201\u{201D}</span> <span class=\"c-by\">by <bdi>Alex&#39;s laptop</bdi>"))
        #expect(card.contains("tripsync resolve \(ticket.description.prefix(8)) caption --keep current|mine|N"))
        #expect(card.contains("tripsync extract \(ticket.description.prefix(8)) -o FILE"))
        #expect(!card.contains("old-receipt.png"))  // detached: not shown
        #expect(card.components(separatedBy: "data-attachment=").count == 3)
    }

    @Test func anEmptyTripSaysSo() {
        let html = Self.page(F.document(items: [:]))
        #expect(html.contains("<p class=\"empty\">Nothing planned yet.</p>"))
        #expect(html.contains("<label for=\"vz-1\" title=\"UTC\">UTC</label>"))
    }

    @Test(arguments: [
        ("plain", "plain"), ("<&>\"'", "&lt;&amp;&gt;&quot;&#39;"), ("a\u{0}b", "a\u{FFFD}b"), ("é → ✈", "é → ✈"), ("&amp;", "&amp;amp;"),
    ])
    func escapingLeavesNothingThatOpensATagOrEndsAnAttribute(text: String, escaped: String) {
        #expect(HTMLText.escape(text) == escaped)
    }
}
