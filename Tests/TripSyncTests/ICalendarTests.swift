import Foundation
import Testing
import TripSync
import TripSyncCore

/// `ICalendarExporter`: RFC 5545 text, escaping, folding, zones, all-day events, determinism,
/// and a parse by Python's `icalendar` package (`scripts/check-ics.py`).
@Suite struct ICalendarTests {
    // MARK: - Building documents by hand

    static let device = Identifier("a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d")!
    static let trip = Identifier("7f000000-0000-4000-8000-000000000001")!
    static let counter: UInt64 = 1_780_000_000_000  // 2026-05-28T20:26:40Z in HLC milliseconds

    /// An item id from a small number, `00000000-0000-4000-8000-0000000000NN`.
    static func id(_ number: Int) -> ItemID {
        let digits = String(number)
        return Identifier("00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
    }

    static func register<V>(_ value: V, _ counter: UInt64 = counter) -> Register<V> {
        Register(value: value, rev: Rev(counter: counter, device: device))
    }

    /// `local("2027-06-10T10:00", "Europe/Lisbon")`.
    static func local(_ text: String, _ zone: String) -> TripTime {
        .local(dateTime(text), zone: zone)
    }

    static func dateTime(_ text: String) -> LocalDateTime {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        return LocalDateTime(date: LocalDate(year: parts[0], month: parts[1], day: parts[2])!, hour: parts[3], minute: parts[4])!
    }

    static func day(_ text: String) -> TripTime {
        let parts = text.split(separator: "-").map { Int($0)! }
        return .date(LocalDate(year: parts[0], month: parts[1], day: parts[2])!)
    }

    static func item(
        _ title: String, start: TripTime?, end: TripTime? = nil, place: String? = nil, note: String? = nil,
        counter: UInt64 = counter
    ) -> ItemFields {
        ItemFields(
            title: register(title, counter), sortKey: register("V", counter), start: register(start, counter),
            end: register(end, counter), place: register(place, counter), note: register(note, counter))
    }

    static func document(_ items: [(Int, ItemFields)], name: String = "Test trip") -> TripDocument {
        var byID: [ItemID: ItemFields] = [:]
        for (number, fields) in items { byID[id(number)] = fields }
        return TripDocument(
            tripID: trip, deviceID: device, clock: VersionVector([device: counter + 1_000_000]),
            trip: TripInfo(name: register(name)), items: byID)
    }

    // MARK: - Reading the output

    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func sample() throws -> TripDocument {
        try TripFileReader().read(path: root + "/samples/lisbon-new-york.trip.json").document
    }

    /// The logical (unfolded) content lines of a calendar.
    static func contentLines(_ text: String) -> [String] {
        ICalendarText.unfold(text).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    /// The components named `name` (BEGIN:name … END:name), each as its lines.
    static func components(_ name: String, in lines: [String]) -> [[String]] {
        var result: [[String]] = []
        var current: [String]?
        for line in lines {
            if line == "BEGIN:" + name { current = [] }
            current?.append(line)
            if line == "END:" + name, let done = current {
                result.append(done)
                current = nil
            }
        }
        return result
    }

    /// The VEVENT whose UID is `<id>@tripsync`.
    static func event(_ id: String, in text: String) -> [String]? {
        components("VEVENT", in: contentLines(text)).first { $0.contains("UID:\(id)@tripsync") }
    }

    /// The VTIMEZONE of a zone as (kind, DTSTART, TZOFFSETFROM, TZOFFSETTO) per sub-component.
    static func observances(_ zone: String, in text: String) -> [(kind: String, start: String, from: String, to: String)]? {
        guard let block = components("VTIMEZONE", in: contentLines(text)).first(where: { $0.contains("TZID:" + zone) })
        else { return nil }
        return (components("STANDARD", in: block) + components("DAYLIGHT", in: block)).map { sub in
            func value(_ name: String) -> String {
                sub.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) } ?? ""
            }
            return (String(sub[0].dropFirst(6)), value("DTSTART"), value("TZOFFSETFROM"), value("TZOFFSETTO"))
        }.sorted { $0.start < $1.start }
    }

    // MARK: - Escaping and folding

    @Test func escapesTextPerRFC5545() {
        #expect(ICalendarText.escape(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
        #expect(ICalendarText.escape("line 1\nline 2\r\nline 3\rend") == #"line 1\nline 2\nline 3\nend"#)
        #expect(ICalendarText.escape("colon: \"quoted\"\ttab") == "colon: \"quoted\"\ttab")
        #expect(ICalendarText.escape("bell\u{07}gone") == "bellgone")

        let document = Self.document(
            [(1, Self.item("Lunch; then, a walk", start: Self.local("2027-06-10T12:00", "Europe/Lisbon"),
                end: Self.local("2027-06-10T13:00", "Europe/Lisbon"), place: "Rua A, 1; Lisboa", note: "Queue early.\nOrder \\ pay at the counter, please; thanks"))],
            name: "Trips; friends, and \\ more")
        let text = ICalendarExporter().export(document)
        let lines = Self.contentLines(text)
        #expect(lines.contains(#"X-WR-CALNAME:Trips\; friends\, and \\ more"#))
        #expect(lines.contains(#"SUMMARY:Lunch\; then\, a walk"#))
        #expect(lines.contains(#"LOCATION:Rua A\, 1\; Lisboa"#))
        #expect(lines.contains(#"DESCRIPTION:Queue early.\nOrder \\ pay at the counter\, please\; thanks"#))
    }

    @Test func foldsAt75OctetsExactly() {
        // A cluster longer than a line (a letter with 40 combining accents) breaks between scalars.
        let accents = "e" + String(repeating: "\u{301}", count: 40)
        let brokenCluster = ICalendarText.fold("X:" + accents)
        #expect(brokenCluster.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(ICalendarText.unfold(brokenCluster) == "X:" + accents)
        let exact = String(repeating: "x", count: 75)
        #expect(ICalendarText.fold(exact) == exact)
        let longer = String(repeating: "x", count: 76)
        #expect(ICalendarText.fold(longer) == String(repeating: "x", count: 75) + "\r\n x")
        // 4-octet scalars: 18 fit on the first line (72 octets), 18 on the next (1 + 72).
        let emoji = String(repeating: "🗺", count: 40)
        let folded = ICalendarText.fold(emoji)
        let physical = folded.components(separatedBy: "\r\n")
        #expect(physical.map { $0.utf8.count } == [72, 73, 17])
        #expect(ICalendarText.unfold(folded) == emoji)
    }

    @Test func longMultibyteNoteFoldsAndUnfoldsBack() throws {
        let pieces = ["a", "é", "€", "🗺️", "日本", " ", ";", ",", "\\", "\n", "ü", "ß", "👩‍👩‍👧"]
        var note = ""
        var index = 0
        while note.count < 300 {
            note += pieces[index % pieces.count]
            index += 1
        }
        while note.count > 300 { note.removeLast() }
        #expect(note.count == 300)
        let document = Self.document([(1, Self.item("Long note", start: Self.local("2027-06-10T10:00", "Europe/Lisbon"), end: Self.local("2027-06-10T11:00", "Europe/Lisbon"), note: note))])
        let text = ICalendarExporter().export(document)

        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let physical = text.components(separatedBy: "\r\n").dropLast()
        for line in physical {
            let bytes = Array(line.utf8)
            #expect(bytes.count <= 75, "line of \(bytes.count) octets: \(line)")
            #expect(!line.contains("\n") && !line.contains("\r"), "bare line break in \(line)")
            // Every physical line is valid UTF-8 on its own: no sequence was split.
            #expect(String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes), "invalid UTF-8: \(line)")
            #expect(bytes.first.map { $0 & 0xC0 != 0x80 } ?? true)
        }
        // Compared as bytes: a continuation line's space may join a following combining scalar
        // into one Swift Character.
        let descriptionLines = physical.map { Array($0.utf8) }
            .drop { !$0.starts(with: Array("DESCRIPTION:".utf8)) }
            .prefix { $0.starts(with: Array("DESCRIPTION:".utf8)) || $0.first == 0x20 }
        #expect(descriptionLines.count >= 8)
        #expect(descriptionLines.dropFirst().allSatisfy { $0.first == 0x20 && $0.count <= 75 })
        #expect(descriptionLines.dropFirst().allSatisfy { $0.dropFirst().first.map { $0 & 0xC0 != 0x80 } ?? true })
        // Lines break between characters: an emoji or a family emoji is never cut in two.
        #expect(!physical.contains { $0.unicodeScalars.first == "\u{FE0F}" || $0.unicodeScalars.first == "\u{200D}" })
        #expect(!physical.contains { $0.unicodeScalars.dropFirst().first == "\u{FE0F}" || $0.unicodeScalars.dropFirst().first == "\u{200D}" })
        let unfolded = try #require(Self.contentLines(text).first { $0.hasPrefix("DESCRIPTION:") })
        #expect(unfolded == "DESCRIPTION:" + ICalendarText.escape(note))
    }

    // MARK: - Events

    @Test func flightStartsAndEndsInItsOwnZones() throws {
        let text = ICalendarExporter().export(try Self.sample())
        let flight = try #require(Self.event("b8fcc7c2-92f8-4ea6-bed2-a01808466a8c", in: text))
        #expect(flight.contains("DTSTART;TZID=Europe/Lisbon:20270610T100000"))
        #expect(flight.contains("DTEND;TZID=America/New_York:20270610T130000"))
        #expect(flight.contains("SUMMARY:TP 201 Lisbon → New York"))
        #expect(flight.contains("LOCATION:Lisbon Airport (LIS)\\, Terminal 1"))
        #expect(flight.contains(#"DESCRIPTION:Booking ref. QX7P2L\nSeats 23A and 23C. Online check-in opens 36 h before."#))
    }

    @Test func calendarHeaderAndCRLF() throws {
        let text = ICalendarExporter().export(try Self.sample())
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//TripSync//TripSync//EN\r\nCALSCALE:GREGORIAN\r\nX-WR-CALNAME:Lisbon & New York 2027\r\n"))
        #expect(text.hasSuffix("\r\nEND:VCALENDAR\r\n"))
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            #expect(index > 0 && bytes[index - 1] == 0x0D, "bare LF at byte \(index)")
        }
    }

    @Test func oneEventPerLiveScheduledItemInStartOrder() throws {
        let document = try Self.sample()
        let zones = ZoneRules()
        let text = ICalendarExporter(zones: zones).export(document)
        let events = Self.components("VEVENT", in: Self.contentLines(text))
        let scheduled = document.items.filter { ($0.value.start?.value ?? nil) != nil }
        #expect(events.count == scheduled.count)
        #expect(events.count >= 15)
        let uids = events.map { $0.first { $0.hasPrefix("UID:") }! }
        #expect(Set(uids) == Set(scheduled.keys.map { "UID:\($0)@tripsync" }))
        // Unscheduled and deleted items are not exported.
        #expect(!text.contains("Buy a US eSIM"))
        for id in document.tombstones.keys { #expect(!text.contains(id.description)) }

        func sortSeconds(_ time: TripTime) -> Int64 {
            switch time {
            case .local(let local, let zone): return zones.resolve(local, zone: zone)!.secondsSinceEpoch
            case .date(let day): return Int64(day.daysSinceEpoch) * 86_400
            }
        }
        let expected = scheduled.map { (sortSeconds($0.value.start!.value!), $0.key) }.sorted { $0 < $1 }
            .map { "UID:\($0.1)@tripsync" }
        #expect(uids == expected)
    }

    @Test func dateOnlyItemsAreAllDayEvents() throws {
        let sample = ICalendarExporter().export(try Self.sample())
        let pack = try #require(Self.event("0ec0c522-2bc2-4c84-b903-20d28bbee8ef", in: sample))  // no end
        #expect(pack.contains("DTSTART;VALUE=DATE:20270609"))
        #expect(pack.contains("DTEND;VALUE=DATE:20270610"))
        #expect(pack.contains("DTSTAMP:20260525T075009Z"))  // its newest rev, 1779695409005 ms
        let sintra = try #require(Self.event("2f56a775-060e-4eea-a601-37b62d0980a8", in: sample))  // end = start
        #expect(sintra.contains("DTSTART;VALUE=DATE:20270609"))
        #expect(sintra.contains("DTEND;VALUE=DATE:20270610"))

        let document = Self.document([
            (1, Self.item("Road trip", start: Self.day("2027-06-28"), end: Self.day("2027-07-02"))),
            (2, Self.item("New Year", start: Self.day("2027-12-31"))),
            (3, Self.item("Leap day", start: Self.day("2028-02-28"), end: Self.day("2028-02-29"))),
            (4, Self.item("Backwards", start: Self.day("2027-06-10"), end: Self.day("2027-06-08"))),
            (5, Self.item("Until a flight", start: Self.day("2027-06-08"), end: Self.local("2027-06-10T13:00", "America/New_York"))),
        ])
        let text = ICalendarExporter().export(document)
        func times(_ number: Int) -> [String] {
            (Self.event(Self.id(number).description, in: text) ?? []).filter { $0.hasPrefix("DTSTART") || $0.hasPrefix("DTEND") }
        }
        // A later day as the end is a stay counted in nights: DTEND is that (checkout) day, exclusive.
        #expect(times(1) == ["DTSTART;VALUE=DATE:20270628", "DTEND;VALUE=DATE:20270702"])
        #expect(times(2) == ["DTSTART;VALUE=DATE:20271231", "DTEND;VALUE=DATE:20280101"])
        #expect(times(3) == ["DTSTART;VALUE=DATE:20280228", "DTEND;VALUE=DATE:20280229"])
        #expect(times(4) == ["DTSTART;VALUE=DATE:20270610", "DTEND;VALUE=DATE:20270611"])
        #expect(times(5) == ["DTSTART;VALUE=DATE:20270608", "DTEND;VALUE=DATE:20270611"])
        // The dropped or approximated end is shown, not lost.
        #expect(Self.event(Self.id(4).description, in: text)!.contains {
            $0.hasPrefix("DESCRIPTION:") && $0.contains("2027-06-08 (whole day)") && $0.contains("not after the start")
        })
        #expect(Self.event(Self.id(5).description, in: text)!.contains {
            $0.hasPrefix("DESCRIPTION:") && $0.contains("Ends 2027-06-10T13:00 America/New_York")
        })
        // No VTIMEZONE is needed for all-day events.
        #expect(!text.contains("BEGIN:VTIMEZONE"))
    }

    @Test func timedEndRules() throws {
        let document = Self.document([
            (1, Self.item("No end", start: Self.local("2027-06-10T15:00", "America/New_York"))),
            (2, Self.item("Ends on a day", start: Self.local("2027-06-10T20:00", "Europe/Lisbon"), end: Self.day("2027-06-12"))),
            (3, Self.item("Ends before it starts", start: Self.local("2027-06-10T20:00", "Europe/Lisbon"), end: Self.local("2027-06-10T19:00", "Europe/Lisbon"))),
            (4, Self.item("Zero length", start: Self.local("2027-06-10T20:00", "Europe/Lisbon"), end: Self.local("2027-06-10T15:00", "America/New_York"))),
        ])
        let text = ICalendarExporter().export(document)
        func times(_ number: Int) -> [String] {
            (Self.event(Self.id(number).description, in: text) ?? []).filter {
                $0.hasPrefix("DTSTART") || $0.hasPrefix("DTEND") || $0.hasPrefix("DURATION")
            }
        }
        // No usable end: a default hour, said in DESCRIPTION (never a zero-length event).
        #expect(times(1) == ["DTSTART;TZID=America/New_York:20270610T150000", "DURATION:PT1H"])
        #expect(times(2) == ["DTSTART;TZID=Europe/Lisbon:20270610T200000", "DTEND;TZID=Europe/Lisbon:20270613T000000"])
        #expect(times(3) == ["DTSTART;TZID=Europe/Lisbon:20270610T200000", "DURATION:PT1H"])
        #expect(times(4) == ["DTSTART;TZID=Europe/Lisbon:20270610T200000", "DURATION:PT1H"])  // 19:00Z both: not later
        #expect(Self.event(Self.id(3).description, in: text)!.contains {
            $0 == "DESCRIPTION:[TripSync] The end (2027-06-10T19:00 Europe/Lisbon) is not after the start\\, so it is left out."
                + "\\n\\n[TripSync] No end is planned\\; shown as 1 hour."
        })
        #expect(Self.event(Self.id(1).description, in: text)!.contains("DESCRIPTION:[TripSync] No end is planned\\; shown as 1 hour."))
    }

    @Test func dstGapIsMovedForwardAndOverlapKept() throws {
        let document = Self.document([
            (1, Self.item("Gap", start: Self.local("2027-03-28T01:30", "Europe/Lisbon"), end: Self.local("2027-03-28T01:45", "Europe/Lisbon"))),
            (2, Self.item("Overlap", start: Self.local("2027-11-07T01:30", "America/New_York"))),
        ])
        let text = ICalendarExporter().export(document)
        let gap = try #require(Self.event(Self.id(1).description, in: text))
        // 01:30 and 01:45 do not exist in Lisbon that night; both resolve forward by the hour.
        #expect(gap.contains("DTSTART;TZID=Europe/Lisbon:20270328T023000"))
        #expect(gap.contains("DTEND;TZID=Europe/Lisbon:20270328T024500"))
        #expect(gap.contains {
            $0.hasPrefix("DESCRIPTION:[TripSync] 2027-03-28T01:30 does not exist in Europe/Lisbon (the clocks skip it)\\; written as 2027-03-28T02:30.")
        })
        let overlap = try #require(Self.event(Self.id(2).description, in: text))
        #expect(overlap.contains("DTSTART;TZID=America/New_York:20271107T013000"))
        #expect(!overlap.contains { $0.hasPrefix("DESCRIPTION:") && $0.contains("does not exist") })
    }

    @Test func unknownZoneIsFloatingWithANote() throws {
        let document = Self.document([
            (1, Self.item("Olympus Mons summit", start: Self.local("2027-06-10T10:00", "Mars/Olympus_Mons"),
                end: Self.local("2027-06-10T12:30", "Mars/Olympus_Mons"), note: "Bring oxygen.")),
            (2, Self.item("Flight to Mars", start: Self.local("2027-06-09T08:00", "Europe/Lisbon"),
                end: Self.local("2027-06-10T09:00", "Mars/Olympus_Mons"))),
        ])
        let text = ICalendarExporter().export(document)
        let summit = try #require(Self.event(Self.id(1).description, in: text))
        #expect(summit.contains("DTSTART:20270610T100000"))
        #expect(summit.contains("DTEND:20270610T123000"))
        #expect(summit.contains(
            "DESCRIPTION:Bring oxygen.\\n\\n[TripSync] Time zone Mars/Olympus_Mons is unknown to the machine that exported this calendar\\, "
                + "so the times are written as local clock times: starts 2027-06-10T10:00 Mars/Olympus_Mons\\, ends 2027-06-10T12:30 Mars/Olympus_Mons."))
        // A known start with an unknown end: both floating (RFC 5545 wants one form), both shown.
        let flight = try #require(Self.event(Self.id(2).description, in: text))
        #expect(flight.contains("DTSTART:20270609T080000"))
        #expect(flight.contains("DTEND:20270610T090000"))
        #expect(flight.contains { $0.contains("starts 2027-06-09T08:00 Europe/Lisbon\\, ends 2027-06-10T09:00 Mars/Olympus_Mons") })
        #expect(!text.contains("TZID"))
        #expect(!text.contains("BEGIN:VTIMEZONE"))

        // The bundled warning sample exports too.
        let warned = try TripFileReader().read(path: Self.root + "/samples/warnings/unknown-zone.trip.json").document
        let warnedText = ICalendarExporter().export(warned)
        #expect(warnedText.contains("Mars/Olympus_Mons is unknown"))
        #expect(!warnedText.contains("TZID=Mars"))
    }

    @Test func dtstampIsTheNewestRevNotTheClock() throws {
        var fields = Self.item("Stamped", start: Self.local("2027-06-10T10:00", "Europe/Lisbon"), counter: 1_700_000_000_000)
        fields.note = Self.register("edited later", 1_780_000_000_999)
        let text = ICalendarExporter().export(Self.document([(1, fields)]))
        #expect(try #require(Self.event(Self.id(1).description, in: text)).contains("DTSTAMP:20260528T202640Z"))
    }

    // MARK: - Conflicts, default lengths, nights

    static let sam = Identifier("5a000000-0000-4000-8000-000000000001")!
    static let alex = Identifier("a1000000-0000-4000-8000-000000000002")!

    /// A register holding `winner` (by Sam, newer) and `loser` (by Alex, concurrent).
    static func conflicted<V>(_ winner: V, _ loser: V) -> Register<V> {
        Register(versions: [
            Versioned(value: winner, rev: Rev(counter: counter + 10, device: sam)),
            Versioned(value: loser, rev: Rev(counter: counter + 5, device: alex)),
        ])!
    }

    /// A document whose devices are named Sam's and Alex's laptops.
    static func named(_ items: [(Int, ItemFields)]) -> TripDocument {
        var byID: [ItemID: ItemFields] = [:]
        for (number, fields) in items { byID[id(number)] = fields }
        return TripDocument(
            tripID: trip, deviceID: device, clock: VersionVector([device: counter + 1_000_000]), trip: TripInfo(name: register("Test trip")),
            devices: [sam: DeviceInfo(name: register("Sam's laptop")), alex: DeviceInfo(name: register("Alex's laptop"))], items: byID)
    }

    /// Two laptops disagree on the flight's start (and a place): the calendar does not present it
    /// as settled. Title, end and place conflicts mark it the same way; a note conflict does not.
    static func conflictDocument() -> TripDocument {
        var flight = item("TP 201", start: local("2027-06-10T10:00", "Europe/Lisbon"), end: local("2027-06-10T13:00", "America/New_York"))
        flight.start = conflicted(local("2027-06-10T10:00", "Europe/Lisbon"), local("2027-06-10T11:30", "Europe/Lisbon"))
        var dinner = item("Dinner", start: local("2027-06-10T19:30", "America/New_York"), place: "Via Carota")
        dinner.place = conflicted("Via Carota", "Carbone")
        var title = item("Museum", start: day("2027-06-11"))
        title.title = conflicted("MoMA", "The Met")
        var end = item("Walk", start: local("2027-06-11T17:00", "America/New_York"))
        end.end = conflicted(local("2027-06-11T18:30", "America/New_York"), nil)
        var note = item("Quiet", start: local("2027-06-12T09:00", "America/New_York"))
        note.note = conflicted("a", "b")
        let settled = item("Settled", start: local("2027-06-12T10:00", "America/New_York"), end: local("2027-06-12T11:00", "America/New_York"))
        return named([(1, flight), (2, dinner), (3, title), (4, end), (5, note), (6, settled)])
    }

    @Test func conflictedStartEndTitleOrPlaceIsTentativeWithEveryValue() throws {
        let text = ICalendarExporter().export(Self.conflictDocument())
        func event(_ number: Int) throws -> [String] { try #require(Self.event(Self.id(number).description, in: text)) }
        func value(_ name: String, _ lines: [String]) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
        }
        let flight = try event(1)
        #expect(value("SUMMARY", flight) == "⚠ conflict: TP 201")
        #expect(flight.contains("STATUS:TENTATIVE"))
        #expect(flight.contains("DTSTART;TZID=Europe/Lisbon:20270610T100000"))  // the value shown
        let description = try #require(value("DESCRIPTION", flight))
        #expect(description.contains("start: 2027-06-10T10:00 Europe/Lisbon (by Sam's laptop\\, shown here)\\; 2027-06-10T11:30 Europe/Lisbon (by Alex's laptop)"))
        #expect(description.contains("tripsync resolve 00000000 FIELD --keep current|mine|N"))

        let dinner = try event(2)
        #expect(value("SUMMARY", dinner) == "⚠ conflict: Dinner")
        #expect(dinner.contains("STATUS:TENTATIVE"))
        #expect(value("DESCRIPTION", dinner)?.contains("place: Via Carota (by Sam's laptop\\, shown here)\\; Carbone (by Alex's laptop)") == true)
        #expect(value("SUMMARY", try event(3)) == "⚠ conflict: MoMA")
        #expect(value("DESCRIPTION", try event(3))?.contains("title: MoMA (by Sam's laptop\\, shown here)\\; The Met (by Alex's laptop)") == true)
        #expect(value("SUMMARY", try event(4)) == "⚠ conflict: Walk")
        #expect(value("DESCRIPTION", try event(4))?.contains("end: ") == true)
        // A note's conflict is not something a calendar shows; a settled item is not marked.
        for number in [5, 6] {
            #expect(!(try event(number)).contains("STATUS:TENTATIVE"))
            #expect(value("SUMMARY", try event(number))?.hasPrefix("⚠") == false)
        }
    }

    @Test func dateOnlyStaysCountNightsTimedStaysKeepTheirTimes() throws {
        #expect(StayNights.count(start: Self.day("2027-06-07"), end: Self.day("2027-06-10")) == 3)
        #expect(StayNights.count(start: Self.local("2027-06-10T15:00", "America/New_York"), end: Self.local("2027-06-13T11:00", "America/New_York")) == 3)
        #expect(StayNights.count(start: Self.day("2027-06-07"), end: Self.day("2027-06-07")) == nil)
        #expect(StayNights.count(start: Self.local("2027-06-10T20:00", "Europe/Lisbon"), end: Self.local("2027-06-11T00:00", "Europe/Lisbon")) == nil)
        // A flight across zones is a duration, not a night.
        #expect(StayNights.count(start: Self.local("2027-06-10T22:00", "America/New_York"), end: Self.local("2027-06-11T10:00", "Europe/Lisbon")) == nil)
        #expect(StayNights.text(1) == "1 night" && StayNights.text(3) == "3 nights")

        let document = Self.document([
            (1, Self.item("Hotel", start: Self.day("2027-06-07"), end: Self.day("2027-06-10"))),
            (2, Self.item("The Jane", start: Self.local("2027-06-10T15:00", "America/New_York"), end: Self.local("2027-06-13T11:00", "America/New_York"))),
        ])
        let text = ICalendarExporter().export(document)
        let hotel = try #require(Self.event(Self.id(1).description, in: text))
        #expect(hotel.contains("DTSTART;VALUE=DATE:20270607"))
        #expect(hotel.contains("DTEND;VALUE=DATE:20270610"))  // the checkout day, exclusive: 3 nights
        #expect(hotel.contains("DESCRIPTION:[TripSync] 3 nights: 2027-06-07 to 2027-06-10."))
        let jane = try #require(Self.event(Self.id(2).description, in: text))
        #expect(jane.contains("DTSTART;TZID=America/New_York:20270610T150000"))
        #expect(jane.contains("DTEND;TZID=America/New_York:20270613T110000"))
    }

    // MARK: - Time zones

    @Test func vtimezoneForEveryZoneWithItsOffsets() throws {
        let document = Self.document([
            (1, Self.item("Flight", start: Self.local("2027-06-10T10:00", "Europe/Lisbon"), end: Self.local("2027-06-10T13:00", "America/New_York"))),
            (2, Self.item("Trek", start: Self.local("2027-06-12T06:00", "Asia/Kathmandu"))),
            (3, Self.item("Island", start: Self.local("2027-06-20T09:00", "Australia/Lord_Howe"))),
        ])
        let text = ICalendarExporter().export(document)
        let lines = Self.contentLines(text)
        let tzids = Set(Self.components("VTIMEZONE", in: lines).compactMap { $0.first { $0.hasPrefix("TZID:") } })
        #expect(tzids == ["TZID:Europe/Lisbon", "TZID:America/New_York", "TZID:Asia/Kathmandu", "TZID:Australia/Lord_Howe"])
        // Every TZID parameter has its VTIMEZONE.
        for line in lines where line.contains(";TZID=") {
            let zone = line.split(separator: "=")[1].split(separator: ":")[0]
            #expect(tzids.contains("TZID:\(zone)"), "\(line)")
        }
        // VTIMEZONE blocks come before the events.
        let lastZone = try #require(lines.lastIndex(of: "END:VTIMEZONE"))
        let firstEvent = try #require(lines.firstIndex(of: "BEGIN:VEVENT"))
        #expect(lastZone < firstEvent)

        let lisbon = try #require(Self.observances("Europe/Lisbon", in: text))
        #expect(Set(lisbon.map(\.to)) == ["+0000", "+0100"])
        #expect(lisbon.contains { $0 == ("DAYLIGHT", "20270328T010000", "+0000", "+0100") })
        #expect(lisbon.contains { $0 == ("STANDARD", "20271031T020000", "+0100", "+0000") })
        #expect(lisbon.contains { $0.start.hasPrefix("2026") } && lisbon.contains { $0.start.hasPrefix("2028") })

        let newYork = try #require(Self.observances("America/New_York", in: text))
        #expect(Set(newYork.map(\.to)) == ["-0500", "-0400"])
        #expect(newYork.contains { $0 == ("DAYLIGHT", "20270314T020000", "-0500", "-0400") })
        #expect(newYork.contains { $0 == ("STANDARD", "20271107T020000", "-0400", "-0500") })

        let kathmandu = try #require(Self.observances("Asia/Kathmandu", in: text))
        #expect(kathmandu.count == 1)
        #expect(kathmandu.first.map { $0.kind == "STANDARD" && $0.from == "+0545" && $0.to == "+0545" } == true)

        let lordHowe = try #require(Self.observances("Australia/Lord_Howe", in: text))
        #expect(Set(lordHowe.map(\.to)) == ["+1030", "+1100"])
        #expect(lordHowe.contains { $0 == ("STANDARD", "20270404T020000", "+1100", "+1030") })
        #expect(lordHowe.contains { $0 == ("DAYLIGHT", "20271003T020000", "+1030", "+1100") })

        // Each sub-component's offset-from is the previous one's offset-to.
        for zone in [lisbon, newYork, lordHowe] {
            for (previous, next) in zip(zone, zone.dropFirst()) { #expect(previous.to == next.from) }
        }
    }

    @Test func sameDocumentSameBytes() throws {
        let document = try Self.sample()
        let first = ICalendarExporter().export(document)
        let second = ICalendarExporter().export(document)
        #expect(first == second)
        // A document rebuilt with its items inserted in another order gives the same bytes.
        var rebuilt = document
        rebuilt.items = [:]
        for (id, fields) in document.items.sorted(by: { $0.key > $1.key }) { rebuilt.items[id] = fields }
        #expect(ICalendarExporter(zones: ZoneRules()).export(rebuilt) == first)
    }

    // MARK: - Python's icalendar

    /// Whether `python3` here can import Python's `icalendar` package. The checks that need it
    /// are skipped, with a reason that names what is missing, when it cannot: `swift test` on a
    /// fresh machine says which checks it left out and never fails for it (`.ci/run` installs the
    /// package, so CI runs them all).
    static let icalendarAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import icalendar"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Exports a document, runs `scripts/check-ics.py` on it and returns its JSON summary.
    /// Only called where `icalendarAvailable` holds; fails when the script fails.
    static func parseWithPython(_ document: TripDocument, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let folder = NSTemporaryDirectory() + "tripsync-ics-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/trip.ics"
        try Data(ICalendarExporter().export(document).utf8).write(to: URL(fileURLWithPath: file))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root + "/scripts/check-ics.py", file]
        let output = folder + "/out.json"
        let errors = folder + "/err.txt"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        do {
            try process.run()
        } catch {
            Issue.record("could not start python3 (install Python 3 and `python3 -m pip install icalendar`): \(error)", sourceLocation: sourceLocation)
            throw error
        }
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        let stdout = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        try #require(
            process.terminationStatus != 127,
            "python3 is not installed; .ci/run installs it (and `python3 -m pip install icalendar`). \(stderr)",
            sourceLocation: sourceLocation)
        try #require(
            process.terminationStatus != 3,
            "Python's icalendar package is not installed (tests install nothing; .ci/run installs it with `python3 -m pip install icalendar`): \(stderr)", sourceLocation: sourceLocation)
        try #require(
            process.terminationStatus == 0 || process.terminationStatus == 1,
            "check-ics.py exited with \(process.terminationStatus): \(stderr)", sourceLocation: sourceLocation)
        let json = try? JSONSerialization.jsonObject(with: Data(stdout.utf8))
        let summary = try #require(
            json as? [String: Any], "check-ics.py printed no JSON object: \(stdout) \(stderr)", sourceLocation: sourceLocation)
        #expect((summary["problems"] as? [String]) == [], "check-ics.py problems: \(summary["problems"] ?? "none")", sourceLocation: sourceLocation)
        #expect(process.terminationStatus == 0, sourceLocation: sourceLocation)
        return summary
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of an instant.
    static func utcText(_ seconds: Int64) -> String {
        let days = Int((seconds - ((seconds % 86_400) + 86_400) % 86_400) / 86_400)
        let second = Int(((seconds % 86_400) + 86_400) % 86_400)
        let date = LocalDate(daysSinceEpoch: days)!
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// The Python checks run one at a time (each starts python3; none installs anything). Skipped,
    /// saying so, when `python3 -c "import icalendar"` fails here.
    @Suite(
        .serialized,
        .enabled(
            if: ICalendarTests.icalendarAvailable,
            "Python's icalendar package is not installed here: the calendar checks by icalendar are skipped (.ci/run installs it: python3 -m pip install icalendar)"))
    struct PythonIcalendar {
        typealias F = ICalendarTests

        @Test func pythonIcalendarReadsTheSample() throws {
            let document = try F.sample()
            let summary = try F.parseWithPython(document)
            let calendar = try #require(summary["calendar"] as? [String: Any])
            #expect(calendar["version"] as? String == "2.0")
            #expect(calendar["prodid"] as? String == "-//TripSync//TripSync//EN")
            #expect(calendar["name"] as? String == "Lisbon & New York 2027")
            let events = try #require(summary["events"] as? [[String: Any]])
            let byUID = Dictionary(events.map { ($0["uid"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })

            let flight = try #require(byUID["b8fcc7c2-92f8-4ea6-bed2-a01808466a8c@tripsync"])
            #expect(flight["dtstartUtc"] as? String == "2027-06-10T09:00:00Z")
            #expect(flight["dtendUtc"] as? String == "2027-06-10T17:00:00Z")
            #expect(flight["dtstartUtcByVtimezone"] as? String == "2027-06-10T09:00:00Z")
            #expect(flight["dtendUtcByVtimezone"] as? String == "2027-06-10T17:00:00Z")
            #expect(flight["dtstartTzid"] as? String == "Europe/Lisbon")
            #expect(flight["dtendTzid"] as? String == "America/New_York")
            #expect(flight["summary"] as? String == "TP 201 Lisbon → New York")
            #expect(flight["location"] as? String == "Lisbon Airport (LIS), Terminal 1")
            #expect(flight["description"] as? String == "Booking ref. QX7P2L\nSeats 23A and 23C. Online check-in opens 36 h before.")

            // Every live timed item is there at its instant, and every date-only item is all-day.
            let zones = ZoneRules()
            for (id, fields) in document.items {
                guard let start = fields.start?.value ?? nil else {
                    #expect(byUID["\(id)@tripsync"] == nil)
                    continue
                }
                let event = try #require(byUID["\(id)@tripsync"], "\(id) missing from the parsed calendar")
                // A conflicted start, end, title or place is marked (ConflictMarks below).
                let conflicted = [ItemField.start, .end, .title, .place].contains { FieldConflict(item: id, field: $0, in: fields) != nil }
                #expect(event["summary"] as? String == (conflicted ? "⚠ conflict: " : "") + (fields.title?.value ?? ""))
                #expect(event["status"] as? String == (conflicted ? "TENTATIVE" : nil))
                #expect(event["location"] as? String == fields.place?.value ?? nil)
                switch start {
                case .local(let local, let zone):
                    let instant = F.utcText(try #require(zones.resolve(local, zone: zone)).secondsSinceEpoch)
                    #expect(event["dtstartUtc"] as? String == instant, "\(id)")
                    #expect(event["dtstartUtcByVtimezone"] as? String == instant, "\(id)")
                    #expect(event["allDay"] as? Bool == false)
                case .date(let day):
                    #expect(event["dtstart"] as? String == day.description)
                    #expect(event["allDay"] as? Bool == true)
                }
                if case .local(let local, let zone)? = fields.end?.value ?? nil {
                    let instant = F.utcText(try #require(zones.resolve(local, zone: zone)).secondsSinceEpoch)
                    #expect(event["dtendUtc"] as? String == instant, "\(id)")
                    #expect(event["dtendUtcByVtimezone"] as? String == instant, "\(id)")
                }
            }
            let timezones = try #require(summary["timezones"] as? [[String: Any]])
            #expect(Set(timezones.compactMap { $0["tzid"] as? String }) == ["Europe/Lisbon", "America/New_York"])
        }

        @Test func pythonIcalendarReadsConflictMarksDefaultLengthsAndNights() throws {
            var document = F.conflictDocument()
            var more = document.items
            more[F.id(7)] = F.item("Hotel", start: F.day("2027-06-07"), end: F.day("2027-06-10"))
            more[F.id(8)] = F.item("The Jane", start: F.local("2027-06-10T15:00", "America/New_York"), end: F.local("2027-06-13T11:00", "America/New_York"))
            more[F.id(9)] = F.item("Dinner on Mars", start: F.local("2027-06-10T19:00", "Mars/Olympus_Mons"))
            document = TripDocument(
                tripID: document.tripID, deviceID: document.deviceID, clock: document.clock, trip: document.trip, devices: document.devices, items: more)
            let summary = try F.parseWithPython(document)
            let events = try #require(summary["events"] as? [[String: Any]])
            func event(_ number: Int) throws -> [String: Any] {
                try #require(events.first { $0["uid"] as? String == "\(F.id(number))@tripsync" })
            }
            let flight = try event(1)
            #expect(flight["summary"] as? String == "⚠ conflict: TP 201")
            #expect(flight["status"] as? String == "TENTATIVE")
            let description = try #require(flight["description"] as? String)
            #expect(description.contains("start: 2027-06-10T10:00 Europe/Lisbon (by Sam's laptop, shown here); 2027-06-10T11:30 Europe/Lisbon (by Alex's laptop)"))
            #expect(flight["lengthSeconds"] as? Int == 8 * 3600)
            #expect(try event(2)["status"] as? String == "TENTATIVE")
            #expect((try event(2)["description"] as? String)?.contains("place: Via Carota (by Sam's laptop, shown here); Carbone (by Alex's laptop)") == true)
            #expect(try event(3)["summary"] as? String == "⚠ conflict: MoMA")
            #expect(try event(4)["status"] as? String == "TENTATIVE")
            for number in [5, 6] { #expect(try event(number)["status"] is NSNull) }
            // A dinner with no end lasts the default hour (zoned and floating alike).
            #expect(try event(2)["lengthSeconds"] as? Int == 3600)
            #expect(try event(2)["durationSeconds"] as? Int == 3600)
            #expect(try event(9)["lengthSeconds"] as? Int == 3600)
            // Every timed event has a length; every all-day event covers at least a day.
            for parsed in events {
                if parsed["allDay"] as? Bool == true {
                    #expect((parsed["lengthDays"] as? Int ?? 0) >= 1, "\(parsed["uid"] ?? "")")
                } else {
                    #expect((parsed["lengthSeconds"] as? Int ?? 0) > 0, "\(parsed["uid"] ?? "")")
                }
            }
            // A 3-night hotel: all day, June 7 to the checkout day (exclusive), 3 days in the calendar.
            let hotel = try event(7)
            #expect(hotel["allDay"] as? Bool == true)
            #expect(hotel["dtstart"] as? String == "2027-06-07")
            #expect(hotel["dtend"] as? String == "2027-06-10")
            #expect(hotel["lengthDays"] as? Int == 3)
            // A timed stay keeps its real times.
            let jane = try event(8)
            #expect(jane["dtstartUtc"] as? String == "2027-06-10T19:00:00Z")
            #expect(jane["dtendUtc"] as? String == "2027-06-13T15:00:00Z")
        }

        @Test func pythonIcalendarAgreesOnHardZones() throws {
            func at(_ text: String, _ zone: String) -> TripTime { F.local(text, zone) }
            let document = F.document([
                (1, F.item("Spring-forward gap", start: at("2027-03-28T01:30", "Europe/Lisbon"))),
                (2, F.item("Fall-back overlap", start: at("2027-10-31T01:30", "Europe/Lisbon"))),
                (3, F.item("Trek", start: at("2027-06-12T06:00", "Asia/Kathmandu"), end: at("2027-06-12T18:15", "Asia/Kathmandu"))),
                (4, F.item("Lord Howe DST", start: at("2027-12-01T09:00", "Australia/Lord_Howe"), end: at("2028-05-01T09:00", "Australia/Lord_Howe"))),
                (5, F.item("Line Islands", start: at("2027-01-01T00:00", "Pacific/Kiritimati"))),
                (6, F.item("New York fall-back", start: at("2027-11-07T01:30", "America/New_York"), end: at("2027-11-07T03:00", "America/New_York"))),
                (7, F.item("Mars", start: at("2027-06-10T10:00", "Mars/Olympus_Mons"))),
                (8, F.item("Whole day", start: F.day("2027-06-10"), note: String(repeating: "Grüße, ☀️; ", count: 40))),
            ])
            let summary = try F.parseWithPython(document)
            let events = try #require(summary["events"] as? [[String: Any]])
            #expect(events.count == 8)
            let zones = ZoneRules()
            for (id, fields) in document.items {
                let event = try #require(events.first { $0["uid"] as? String == "\(id)@tripsync" })
                if id != F.id(1) && id != F.id(7) {  // 1 and 7 carry TripSync's notices
                    // An item with no end also says it is given the default hour.
                    let description = (event["description"] as? String ?? "")
                        .replacingOccurrences(of: "\n\n[TripSync] No end is planned; shown as 1 hour.", with: "")
                        .replacingOccurrences(of: "[TripSync] No end is planned; shown as 1 hour.", with: "")
                    #expect(description == fields.note?.value ?? "")
                }
                for (key, time) in [("dtstart", fields.start?.value ?? nil), ("dtend", fields.end?.value ?? nil)] {
                    guard case .local(let local, let zone)? = time else { continue }
                    guard let resolved = zones.resolve(local, zone: zone) else {
                        #expect(event[key + "Utc"] is NSNull, "floating \(id)")
                        #expect(event[key] as? String == "2027-06-10T10:00:00")
                        continue
                    }
                    let instant = F.utcText(resolved.secondsSinceEpoch)
                    #expect(event[key + "Utc"] as? String == instant, "\(fields.title!.value) \(key)")
                    #expect(event[key + "UtcByVtimezone"] as? String == instant, "\(fields.title!.value) \(key) by VTIMEZONE")
                }
            }
        }
    }
}
