import Testing
import TripSyncFixtures
@testable import TripSyncCore

/// Issue 30 reads ids and counters eight bytes per word: `Identifier(utf8:)` must accept exactly
/// the lowercase canonical UUIDs a byte-by-byte reading accepts, with the same value, and the
/// quick item decoder's digit words must agree with reading one digit at a time.
@Suite struct WordParsingTests {
    /// The byte-by-byte reading the word-wise one replaced.
    static func reference(_ bytes: [UInt8]) -> Identifier? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            if index < 18 { high = high << 4 | digit } else { low = low << 4 | digit }
        }
        return Identifier(high: high, low: low)
    }

    static func parse(_ bytes: [UInt8]) -> Identifier? {
        bytes.withUnsafeBufferPointer { Identifier(utf8: $0) }
    }

    @Test(arguments: [
        "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "0123abcd-4567-89ef-abcd-ef0123456789", "47526757-130f-4f52-981c-e1ff0e4ae394",
    ])
    func everyByteAtEveryPlaceIsReadAsTheByteByByteReadingReadsIt(text: String) {
        let valid = Array(text.utf8)
        let expected = Self.reference(valid)
        #expect(expected != nil)
        #expect(Self.parse(valid) == expected)
        #expect(Self.parse(valid)?.description == text)
        // Each of the 36 places holding each of the 256 bytes: accepted exactly when the
        // reference accepts, with the same value.
        var accepted = 0
        for index in valid.indices {
            for byte in 0...255 {
                var bytes = valid
                bytes[index] = UInt8(byte)
                let want = Self.reference(bytes)
                #expect(Self.parse(bytes) == want, "byte 0x\(String(byte, radix: 16)) at \(index) of \(text)")
                if want != nil { accepted += 1 }
            }
        }
        // 32 digit places accept 16 bytes each, 4 hyphen places one.
        #expect(accepted == 32 * 16 + 4)
    }

    @Test func seededRandomIdentifiersRoundTripThroughTheirText() {
        var generator = SeededGenerator(seed: 30)
        for _ in 0..<2_000 {
            let id = Identifier.random(using: &generator)
            let text = Array(id.description.utf8)
            #expect(Self.parse(text) == id)
            #expect(Self.reference(text) == id)
            // Uppercase is not canonical: refused both ways.
            let upper = Array(id.description.uppercased().utf8)
            #expect((Self.parse(upper) == nil) == (Self.reference(upper) == nil))
        }
    }

    /// Eight bytes as the quick decoder loads them.
    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    @Test func eightDigitWordsAreTheDigitsReadOneByOne() {
        var generator = SeededGenerator(seed: 8)
        var words: [[UInt8]] = [Array("00000000".utf8), Array("99999999".utf8), Array("17640015".utf8)]
        for _ in 0..<2_000 { words.append(Array(String(format8: generator.next() % 100_000_000).utf8)) }
        for digits in words {
            let value = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
            #expect(CanonicalItem.eightDigits(Self.word(digits)))
            #expect(CanonicalItem.valueOfEightDigits(Self.word(digits)) == value)
        }
        // Any byte other than a digit, at any place, is seen.
        for index in 0..<8 {
            for byte in 0...255 {
                var bytes = Array("12345678".utf8)
                bytes[index] = UInt8(byte)
                let isDigit = byte >= 0x30 && byte <= 0x39
                #expect(CanonicalItem.eightDigits(Self.word(bytes)) == isDigit, "byte 0x\(String(byte, radix: 16)) at \(index)")
            }
        }
    }
}

extension String {
    /// `number` (below 10^8) as exactly 8 decimal digits.
    fileprivate init(format8 number: UInt64) {
        let digits = String(number)
        self = String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The byte runs the quick item ways compare as words are spelled as numbers (so that no
    /// use in the item loops pays a `swift_once`): each must be its text's words, and the
    /// leads must be `CanonicalItem.fields`' own, in its order.
    @Test func theByteRunsSpelledAsNumbersAreTheirTexts() {
        let runs: [(CanonicalItem.LeadWords, StaticString)] = [
            (CanonicalItem.revOpen, "{\"rev\":["), (CanonicalItem.revClose, "],\"value\":"), (CanonicalItem.deviceClose, "\"],\"value\":"),
            (CanonicalItem.localOpen, "{\"local\":"), (CanonicalItem.zoneKey, ",\"zone\":"), (CanonicalItem.dateOpen, "{\"date\":"),
        ]
        for (words, text) in runs {
            #expect(words.same(as: CanonicalItem.LeadWords(text)), "\(text)")
        }
        let leads = CanonicalItem.leads
        let spelled = [leads.end, leads.note, leads.place, leads.sortKey, leads.start, leads.title]
        #expect(CanonicalItem.fields.map(\.field) == [.end, .note, .place, .sortKey, .start, .title])
        #expect(spelled.count == CanonicalItem.fields.count)
        for (words, field) in zip(spelled, CanonicalItem.fields) {
            #expect(words.same(as: CanonicalItem.LeadWords(field.lead)), "\(field.name)")
        }
    }
}
