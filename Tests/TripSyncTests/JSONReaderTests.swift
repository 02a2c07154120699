import Testing
import TripSync

/// The strict JSON layer: syntax, UTF-8, nesting, duplicates, numbers.
@Suite struct JSONReaderTests {
    func errorMessages(_ text: String) -> [String] {
        switch readTrip(bytes(text)) {
        case .success: return []
        case .failure(let error): return error.errors.map(\.description)
        }
    }

    @Test(arguments: [
        ("", "empty"),
        ("not json", "unexpected 'n'"),
        ("{\"schemaVersion\":2,}", "expected a key"),
        ("{\"schemaVersion\":2} x", "after the JSON value"),
        ("{\"schemaVersion\":2", "',' or '}'"),
        ("{\"schemaVersion\":02}", "leading zero"),
        ("[1,]", "a value after ','"),
        ("{\"a\":\"\\ud800\"}", "lone high surrogate"),
        ("{\"a\":\"\\x\"}", "invalid escape"),
        ("{\"a\":\"tab\there\"}", "control character"),
    ])
    func syntaxErrorsAreRefused(text: String, expected: String) {
        let messages = errorMessages(text)
        #expect(!messages.isEmpty)
        #expect(messages.joined().contains(expected), "\(messages)")
    }

    @Test(arguments: [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func invalidUTF8IsRefused(bad: [UInt8]) throws {
        let text = bytes("{\"schemaVersion\":2,\"tripId\":\"") + bad + bytes("\"}")
        guard case .failure(let error) = readTrip(text) else {
            Issue.record("accepted invalid UTF-8 \(bad)")
            return
        }
        #expect(error.kind == .notJSON)
        #expect(error.description.contains("UTF-8"))
    }

    @Test func nestingDeeperThan64IsRefusedEvenAt100000() {
        let deep = "{\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        guard case .failure(let error) = readTrip(bytes(deep)) else {
            Issue.record("accepted deep nesting")
            return
        }
        #expect(error.description.contains("nesting deeper than 64"))
        #expect(error.errors.first?.pointer == "/x")
        // 63 levels inside the top-level object is fine syntactically (only the schema complains).
        let ok = "{\"x\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        guard case .failure(let schemaOnly) = readTrip(bytes(ok)) else { return }
        #expect(schemaOnly.kind == .invalid)
    }

    @Test func duplicateKeysAreRefusedNeverPicked() {
        let document = smallDocument()
        var text = String(decoding: document.canonicalJSON(), as: UTF8.self)
        // Duplicate the tripId key at the top level.
        text = text.replacingOccurrences(of: "\"tripId\":", with: "\"tripId\":\"\(document.tripID)\",\"tripId\":")
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("accepted a duplicate key")
            return
        }
        #expect(error.description.contains("duplicate key \"tripId\""))
    }

    @Test(arguments: ["1.0", "1e2", "2.5", "-1", "0", "9007199254740993", "99999999999999999999999"])
    func countersMustBeIntegersInRange(counter: String) {
        let document = smallDocument()
        var text = String(decoding: document.canonicalJSON(), as: UTF8.self)
        let device = document.deviceID.description
        let range = text.range(of: "\"clock\":{")!
        let after = text[range.upperBound...]
        let entryEnd = after.firstIndex(of: "}")!
        text.replaceSubrange(range.upperBound..<entryEnd, with: "\"\(device)\":\(counter)")
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("accepted counter \(counter)")
            return
        }
        #expect(error.errors.contains { $0.pointer == "/clock/\(device)" }, "\(error)")
    }
}
