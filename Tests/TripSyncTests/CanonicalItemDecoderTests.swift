import Foundation
import Testing
@testable import TripSync
import TripSyncFixtures
@testable import TripSyncCore

/// The quick way through canonical items (`CanonicalItem.decode`) must give exactly what the
/// general item decoder gives, and hand every other item over to it having reported nothing.
@Suite struct CanonicalItemDecoderTests {
    /// A context over `json` as the two-step read sets it up for the item at `span`.
    func context(_ json: UnsafeBufferPointer<UInt8>, span: Range<Int>, id: ItemID, clock: VersionVector) -> DecodeContext {
        var c = DecodeContext(scanner: JSONScanner(base: json.baseAddress!, count: json.count), zones: ZoneRules())
        c.cross.setClock(clock)
        c.path = [.key("items"), .id(id)]
        c.scanner.offset = span.lowerBound
        c.scanner.depth = 2
        return c
    }

    /// The item at `span` both ways: the quick answer (nil when it handed over) and the
    /// general one, each with the cross-field issues it raised and whether it noted a departure
    /// from the canonical bytes.
    func bothWays(_ json: [UInt8], span: Range<Int>, id: ItemID, clock: VersionVector)
        -> (quick: (ItemFields, [ValidationIssue], Bool)?, general: (ItemFields?, [ValidationIssue], Int, Bool))
    {
        json.withUnsafeBufferPointer { buffer in
            var q = context(buffer, span: span, id: id, clock: clock)
            let quick = CanonicalItem.decode(&q, end: span.upperBound)
            // Handing over reports nothing: no issue, no error.
            #expect(quick != nil || (q.cross.issues.isEmpty && q.issues.isEmpty && q.errorCount == 0))
            var g = context(buffer, span: span, id: id, clock: clock)
            let general = try? DocumentDecoder.decodeItemFields(&g, complete: true)
            return (
                quick.map { ($0, q.cross.issues, q.scanner.departsFromCanonical) },
                (general ?? nil, g.cross.issues, g.errorCount, g.scanner.departsFromCanonical)
            )
        }
    }

    /// The one description of an item's shape: every field once, in the byte order of the keys
    /// (which is the writer's order and the decoder's mask bits), each lead the separator and
    /// the quoted key.
    @Test func theTableListsEveryFieldInCanonicalOrder() {
        let fields = CanonicalItem.fields
        #expect(fields.map(\.field) == ItemField.allCases)
        #expect(fields.map { $0.name.description } == ItemField.allCases.map(\.rawValue))
        #expect(zip(fields, fields.dropFirst()).allSatisfy { $0.name.description.utf8.lexicographicallyPrecedes($1.name.description.utf8) })
        for (index, field) in fields.enumerated() {
            #expect(field.lead.description == (index == 0 ? "{" : ",") + "\"\(field.name)\":")
            #expect(field.holdsTime == (field.field == .start || field.field == .end))
        }
    }

    /// Where `CanonicalItem.skip` ends from `start`; nil when it declines (having left
    /// the scanner where it was).
    func quickSkip(_ json: [UInt8], from start: Int) -> Int? {
        json.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(base: buffer.baseAddress!, count: buffer.count)
            scanner.offset = start
            if CanonicalItem.skip(&scanner) { return scanner.offset }
            #expect(scanner.offset == start)
            return nil
        }
    }

    /// Where the strict scanner ends the value at `start`; nil when it is not JSON.
    func strictEnd(_ json: [UInt8], from start: Int) -> Int? {
        json.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(base: buffer.baseAddress!, count: buffer.count)
            scanner.offset = start
            return (try? scanner.skipValue()) != nil ? scanner.offset : nil
        }
    }

    /// Items with bytes changed, removed or repeated at random: wherever the strict scanner
    /// finds the item's end, the quick skip finds the same end or declines.
    @Test func theQuickSkipEndsWhereTheStrictScannerEndsOrDeclines() throws {
        let document = try MergeScenario(items: 300, seed: 4).b
        let json = document.canonicalJSON()
        let items = try spans(json)
        var random = SeededGenerator(seed: 77)
        let replacements = Array("\"\\{}[],:0 n".utf8)
        var agreed = 0
        for round in 0..<3_000 {
            let span = items[round % items.count].bytes
            var item = Array(json[span])
            switch round % 3 {
            case 0: item[Int.random(in: 0..<item.count, using: &random)] = replacements.randomElement(using: &random) ?? 0
            case 1: item.remove(at: Int.random(in: 0..<item.count, using: &random))
            default:
                let at = Int.random(in: 0..<item.count, using: &random)
                item.insert(item[at], at: at)
            }
            let text = item + Array(",\"next\":1}".utf8)
            guard let end = strictEnd(text, from: 0) else { continue }
            if let skipped = quickSkip(text, from: 0) {
                #expect(skipped == end, "round \(round): \(String(decoding: item, as: UTF8.self))")
                agreed += 1
            }
        }
        #expect(agreed > 300)
    }

    /// The live items' spans of a document's canonical JSON.
    func spans(_ json: [UInt8]) throws -> [(id: ItemID, bytes: Range<Int>)] {
        try json.withUnsafeBufferPointer { buffer in
            var decoder = DocumentDecoder(scanner: JSONScanner(base: buffer.baseAddress!, count: buffer.count), zones: ZoneRules())
            decoder.defersItems = true
            _ = try decoder.decode()
            return decoder.itemSpans
        }
    }

    /// Every item of generated trips (dates, local times in many zones, nulls, notes with
    /// newlines and quotes, conflicts): each canonical item without conflicts takes the quick
    /// way, and both ways give the same fields, issues and canonical flag; the quick skip ends
    /// each such item where the strict scanner does.
    @Test func canonicalItemsTakeTheQuickWayToTheSameAnswer() throws {
        var quickCount = 0
        var total = 0
        for seed: UInt64 in [3, 11, 12] {
            let scenario = try MergeScenario(items: 600, seed: seed)
            for document in [scenario.a, scenario.b] {
                let json = document.canonicalJSON()
                for span in try spans(json) {
                    total += 1
                    // Delimiting: the quick skip ends where the strict scanner ends (conflicts: declines).
                    let skipped = quickSkip(json, from: span.bytes.lowerBound)
                    let end = strictEnd(json, from: span.bytes.lowerBound)
                    #expect(end == span.bytes.upperBound)
                    #expect(skipped == end || (skipped == nil && document.items[span.id]?.hasConflicts == true))
                    let (quick, general) = bothWays(json, span: span.bytes, id: span.id, clock: document.clock)
                    let fields = try #require(general.0)
                    #expect(general.2 == 0)
                    guard let quick else {
                        #expect(fields.hasConflicts, "a canonical item without conflicts was handed over: \(span.id)")
                        continue
                    }
                    quickCount += 1
                    #expect(quick.0 == fields && quick.1 == general.1 && quick.2 == general.3)
                    #expect(quick.0 == document.items[span.id])
                }
            }
        }
        #expect(quickCount > total * 9 / 10, "\(quickCount) of \(total)")
    }

    /// One item written many other ways, in a document: valid ones the quick way takes (escapes
    /// go through the scanner's string reading, which notes those the writer would not write),
    /// valid ones it hands over (whitespace, key order, conflicts) and invalid ones (each rule the value
    /// checks enforce). The quick way takes exactly the canonical ones, and a two-step read of
    /// the whole file answers as one strict pass does (document and warnings, or refusal).
    @Test func everyOtherFormIsHandedOverAndReadsAlike() throws {
        let document = smallDocument(seed: 21, items: 4)
        let device = document.deviceID
        let counter = document.clock[device]
        let d = device.description
        let rev = "[\(counter),\"\(d)\"]"
        let time = "{\"local\":\"2027-03-28T01:30\",\"zone\":\"Europe/Lisbon\"}"
        let base =
            "{\"end\":{\"rev\":\(rev),\"value\":null},\"note\":{\"rev\":\(rev),\"value\":\"x\"},\"place\":{\"rev\":\(rev),\"value\":null},"
            + "\"sortKey\":{\"rev\":\(rev),\"value\":\"V\"},\"start\":{\"rev\":\(rev),\"value\":\(time)},\"title\":{\"rev\":\(rev),\"value\":\"Lunch\"}}"
        func variant(_ old: String, _ new: String) -> String {
            #expect(base.contains(old), "\(old)")
            return base.replacingOccurrences(of: old, with: new)
        }
        let quick: [(String, String)] = [
            ("canonical", base),
            ("the writer's own escapes", variant("\"x\"", "\"a\\nb\\t \\\"q\\\" \\\\ é\"")),
            ("a place", variant("\"place\":{\"rev\":\(rev),\"value\":null}", "\"place\":{\"rev\":\(rev),\"value\":\"Belém\"}")),
            ("a date", variant(time, "{\"date\":\"2027-02-28\"}")),
            ("an unknown zone (warning)", variant("Europe/Lisbon", "Mars/Olympus_Mons")),
            ("an escape the writer would not write (noted as a departure)", variant("\"x\"", "\"\\u0078\"")),
            ("an end before the start (warning)", variant("\"end\":{\"rev\":\(rev),\"value\":null}", "\"end\":{\"rev\":\(rev),\"value\":{\"date\":\"2027-01-01\"}}")),
        ]
        let handedOver: [(String, String)] = [
            ("whitespace", variant("\"value\":\"Lunch\"", "\"value\": \"Lunch\"")),
            ("a newline between members", variant(",\"title\"", ",\n\"title\"")),
            ("key order in a register", variant("\"title\":{\"rev\":\(rev),\"value\":\"Lunch\"}", "\"title\":{\"value\":\"Lunch\",\"rev\":\(rev)}")),
            ("key order in the item", variant("{\"end\":{\"rev\":\(rev),\"value\":null},\"note\"", "{\"note\"").replacingOccurrences(of: "}}", with: "},\"end\":{\"rev\":\(rev),\"value\":null}}")),
            ("conflicts", variant("\"title\":{\"rev\":", "\"title\":{\"conflicts\":[{\"rev\":[1,\"\(d)\"],\"value\":\"Dinner\"}],\"rev\":")),
            ("a counter of 0", base.replacingOccurrences(of: rev, with: "[0,\"\(d)\"]")),
            ("a leading zero", variant("\"title\":{\"rev\":[\(counter)", "\"title\":{\"rev\":[0\(counter)")),
            ("a counter above the clock", variant("\"title\":{\"rev\":[\(counter)", "\"title\":{\"rev\":[\(counter + 1)")),
            ("a counter past 2^53", variant("\"title\":{\"rev\":[\(counter)", "\"title\":{\"rev\":[9007199254740993")),
            ("a fraction", variant("\"title\":{\"rev\":[\(counter)", "\"title\":{\"rev\":[\(counter).0")),
            ("an uppercase device", variant("\"title\":{\"rev\":[\(counter),\"\(d)", "\"title\":{\"rev\":[\(counter),\"\(d.uppercased())")),
            ("a rev of three", variant("\"title\":{\"rev\":\(rev)", "\"title\":{\"rev\":[\(counter),\"\(d)\",1]")),
            ("an empty title", variant("\"Lunch\"", "\"\"")),
            ("a title too long", variant("\"Lunch\"", "\"" + String(repeating: "a", count: 201) + "\"")),
            ("a control character", variant("\"Lunch\"", "\"Lu\\u0007nch\"")),
            ("a newline in a title", variant("\"Lunch\"", "\"Lu\\nnch\"")),
            ("a sort key ending in 0", variant("\"V\"", "\"V0\"")),
            ("a date not on the calendar", variant(time, "{\"date\":\"2027-02-30\"}")),
            ("a time not on the calendar", variant("2027-03-28T01:30", "2027-03-28T24:30")),
            ("a zone of another shape", variant("Europe/Lisbon", "europe lisbon")),
            ("local and date together", variant(time, "{\"date\":\"2027-02-28\",\"local\":\"2027-03-28T01:30\"}")),
            ("a missing field", variant("\"place\":{\"rev\":\(rev),\"value\":null},", "")),
            ("an unknown field", variant("{\"end\":", "{\"due\":1,\"end\":")),
            ("a number as title", variant("\"Lunch\"", "7")),
            ("a duplicate field", variant("{\"end\":{\"rev\":\(rev),\"value\":null},", "{\"end\":{\"rev\":\(rev),\"value\":null},\"end\":{\"rev\":\(rev),\"value\":null},")),
        ]
        let original = document.canonicalJSON()
        let target = try #require(try spans(original).first)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, item, takesQuickWay) in quick.map({ ($0.0, $0.1, true) }) + handedOver.map({ ($0.0, $0.1, false) }) {
            var json = original
            json.replaceSubrange(target.bytes, with: Array(item.utf8))
            let span = target.bytes.lowerBound..<(target.bytes.lowerBound + item.utf8.count)
            let (fast, general) = bothWays(json, span: span, id: target.id, clock: document.clock)
            // Delimiting: the quick skip ends where the strict scanner ends, or declines.
            if let end = strictEnd(json, from: span.lowerBound), let skipped = quickSkip(json, from: span.lowerBound) {
                #expect(skipped == end, "\(name): the quick skip ended at \(skipped), the value at \(end)")
            }
            if takesQuickWay { #expect(quickSkip(json, from: span.lowerBound) == span.upperBound, "\(name)") }
            if takesQuickWay {
                let fields = try #require(general.0, "\(name)")
                #expect(fast?.0 == fields && fast?.1 == general.1 && fast?.2 == general.3, "\(name): the quick way must take it, alike")
            } else {
                #expect(fast == nil, "\(name): the quick way must hand it over")
            }
            let path = folder + "/variant.trip.json"
            try Data(json).write(to: URL(fileURLWithPath: path))
            let strict = DeferredDecodingTests.Answer(readTrip(json, file: path, reader: DeferredDecodingTests.strict))
            let twoStep = DeferredDecodingTests.Answer(readTrip(json, file: path, reader: DeferredDecodingTests.deferred))
            #expect(twoStep == strict, "\(name): \(strict)")
        }
    }
}
