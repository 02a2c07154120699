import Testing
import Foundation
import TripSync
import TripSyncFixtures
import TripSyncCore
import TripSyncHome

/// Local edits refuse exactly what the file reader refuses, so no edit can make a trip that
/// other replicas cannot read.
@Suite struct EditingRuleTests {
    let now: UInt64 = 1_800_000_000_000

    /// A document with one live item, and its id.
    func documentWithItem() throws -> (TripDocument, ItemID, HybridLogicalClock) {
        var document = smallDocument(items: 1)
        let id = try #require(document.items.keys.first)
        var clock = HybridLogicalClock(highWater: document.clock.maxCounter)
        _ = try document.set(.title, of: id, to: .text("Start"), hlc: &clock, now: now)
        return (document, id, clock)
    }

    @Test(arguments: [
        (ItemField.title, FieldValue.text(String(repeating: "é", count: 201)), "title: expected a title of 1 to 200 characters, found 201"),
        (.title, .text(""), "title: expected a title of 1 to 200 characters, found 0"),
        (.title, .text("Dinner\nat eight"), "title: expected a title with no control characters"),
        (.place, .text(String(repeating: "x", count: 501)), "place: expected a place of at most 500 characters, found 501"),
        (.place, .text("Rua\u{7F}"), "place: expected a place with no control characters"),
        (.note, .text("bell \u{7}"), "note: expected a note with no control characters other than newline and tab"),
        (.note, .text("next line \u{85}"), "note: expected a note with no control characters other than newline and tab"),
        (.note, .text(String(repeating: "n", count: 10_001)), "note: expected a note of at most 10000 characters, found 10001"),
        (.sortKey, .text("V0"), "sortKey: expected 1 to 128 characters from 0-9A-Za-z not ending in '0', found \"V0\""),
        (.sortKey, .text("a-b"), "sortKey: expected 1 to 128 characters from 0-9A-Za-z not ending in '0', found \"a-b\""),
    ] as [(ItemField, FieldValue, String)])
    func setRefusesWhatReadersRefuseAndWritesNothing(field: ItemField, value: FieldValue, message: String) throws {
        var (document, id, clock) = try documentWithItem()
        let before = document
        #expect(throws: EditError(message)) { try document.set(field, of: id, to: value, hlc: &clock, now: now) }
        #expect(document == before)
    }

    @Test func timesWithAFixedOffsetAreRefused() throws {
        var (document, id, clock) = try documentWithItem()
        let before = document
        let date = try #require(LocalDate(year: 2027, month: 6, day: 10))
        let local = try #require(LocalDateTime(date: date, hour: 10, minute: 0))
        #expect(throws: EditError.self) { try document.set(.start, of: id, to: .time(.local(local, zone: "+01:00")), hlc: &clock, now: now) }
        #expect(throws: EditError.self) { try document.set(.end, of: id, to: .time(.local(local, zone: "Europe/Lisbon ")), hlc: &clock, now: now) }
        #expect(document == before)
        // The generated item may end before June 10, and an end before its start is refused
        // (EditingEdgeTests): clear the end first.
        _ = try document.set(.end, of: id, to: .time(nil), hlc: &clock, now: now)
        #expect(try document.set(.start, of: id, to: .time(.local(local, zone: "Europe/Lisbon")), hlc: &clock, now: now))
    }

    @Test func valuesAtTheLimitsAreWritten() throws {
        var (document, id, clock) = try documentWithItem()
        #expect(try document.set(.title, of: id, to: .text(String(repeating: "🙂", count: 200)), hlc: &clock, now: now))
        #expect(try document.set(.note, of: id, to: .text("line one\n\tline two"), hlc: &clock, now: now))
        #expect(try document.set(.place, of: id, to: .text(""), hlc: &clock, now: now))
        #expect(try document.set(.note, of: id, to: .text(nil), hlc: &clock, now: now))
        #expect(try readTrip(document.canonicalJSON()).get().document == document)
    }

    @Test func addItemChecksEveryField() throws {
        var document = smallDocument(items: 1)
        var clock = HybridLogicalClock(highWater: document.clock.maxCounter)
        let before = document
        let id = Identifier.random()
        #expect(throws: EditError.self) {
            try document.addItem(id, NewItem(title: "Lunch", sortKey: "V", note: "\u{1B}[31m"), hlc: &clock, now: now)
        }
        #expect(throws: EditError.self) {
            try document.addItem(id, NewItem(title: "Lunch", sortKey: ""), hlc: &clock, now: now)
        }
        #expect(document == before)
        try document.addItem(id, NewItem(title: "Lunch", sortKey: "V", note: "Tasca\tdo Chico"), hlc: &clock, now: now)
        #expect(document.items[id]?.note?.value == "Tasca\tdo Chico")
    }

    /// Random texts from an alphabet of edge characters: the rule's verdict is the reader's
    /// verdict on a file holding the text, for every text field.
    @Test func theRuleAndTheReaderAgree() throws {
        let alphabet: [Unicode.Scalar] = ["a", "é", "🙂", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\"", "\\", "\u{2028}"]
        var random = SeededGenerator(seed: 2027)
        let base = smallDocument(items: 1)
        let id = try #require(base.items.keys.first)
        let rev = Rev(counter: base.clock.maxCounter, device: base.deviceID)
        for round in 0..<400 {
            let length = [0, 1, 2, 5, 199, 200, 201, 500, 501][round % 9]
            var text = ""
            for _ in 0..<length {
                // Mostly plain letters, so long texts are not always refused for a control character.
                let scalar = Int.random(in: 0..<10, using: &random) < 8 ? "a" : alphabet.randomElement(using: &random) ?? "a"
                text.unicodeScalars.append(scalar)
            }
            for (field, rule) in [(ItemField.title, TextRule.title), (.place, .place), (.note, .note)] {
                var document = base
                var item = try #require(document.items[id])
                switch field {
                case .title: item.title = Register(value: text, rev: rev)
                case .place: item.place = Register(value: text, rev: rev)
                default: item.note = Register(value: text, rev: rev)
                }
                document.items[id] = item
                let readerAccepts = (try? readTrip(document.canonicalJSON()).get()) != nil
                #expect(readerAccepts == (rule.violation(in: text) == nil), "\(field) of \(text.unicodeScalars.count) scalars: \(text.debugDescription.prefix(60))")
            }
        }
    }

    @Test func aDeviceNameReadersWouldRefuseIsNotRegistered() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = Home(path: folder)
        let identity = DeviceIdentity(deviceID: Identifier.random(), name: String(repeating: "n", count: 201))
        try home.save(identity)
        var document = smallDocument(items: 1)
        document.deviceID = identity.deviceID
        try document.write(to: home.replicaPath(for: document.tripID))
        let before = try Data(contentsOf: URL(fileURLWithPath: home.replicaPath(for: document.tripID)))
        let store = try TripStore.open(in: home)
        // The edit's first write would name this device in the trip: refused, nothing saved.
        #expect(throws: TripError.self) { try store.edit { trip in try trip.addItem(NewItem(title: "Lunch", sortKey: ""), at: .last) } }
        #expect(store.document.items.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.replicaPath(for: document.tripID))) == before)
    }
}
