/// A live item's shape, described once: its six registers in canonical order (byte order of
/// their keys), each with its key and the shape of its value. `CanonicalWriter` writes items by
/// this table, `DocumentDecoder` reads them by it (the general way: any key order, every
/// problem reported; a field's index is its mask bit), and so do the two quick ways through an
/// item written exactly as the writer writes it, `decode` and `skip` below. What register type
/// each field holds is said by a switch over `ItemField` where a register is read or written.
enum CanonicalItem {
    /// One register of an item (plain data: walking the table retains nothing).
    struct Field: Sendable {
        /// Which register.
        let field: ItemField
        /// Its key, as the general decoder matches it and JSON Pointers name it.
        let name: StaticString
        /// What precedes its value in a canonical live item: `{"end":` for the first field,
        /// `,"note":` for the others.
        let lead: StaticString
        /// Whether the value is a time (`null`, `{"local", "zone"}` or `{"date"}`), else a
        /// string or null.
        let holdsTime: Bool

        init(field: ItemField, name: StaticString, lead: StaticString, holdsTime: Bool) {
            self.field = field
            self.name = name
            self.lead = lead
            self.holdsTime = holdsTime
        }

        /// The key with its quotes and colon (`"end":`), as the writer writes it.
        @inline(__always)
        var member: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: lead.utf8Start + 1, count: lead.utf8CodeUnitCount - 1)
        }
    }

    /// Up to 16 bytes as two little-endian words and masks, compared in two loads.
    struct LeadWords: Sendable {
        var words: (UInt64, UInt64) = (0, 0)
        var masks: (UInt64, UInt64) = (0, 0)
        let count: Int

        /// The words given (the byte runs of the item loops, spelled as numbers: a `static
        /// let` made of literals is laid down by the compiler, where one made by `init(_:)`
        /// runs once and then costs a `swift_once` at every use; `WordParsingTests` checks
        /// each against `init(_:)` of its text).
        init(words: (UInt64, UInt64), masks: (UInt64, UInt64), count: Int) {
            self.words = words
            self.masks = masks
            self.count = count
        }

        /// Whether both hold the same bytes.
        func same(as other: LeadWords) -> Bool {
            words == other.words && masks == other.masks && count == other.count
        }

        init(_ text: StaticString) {
            count = min(text.utf8CodeUnitCount, 16)
            for index in 0..<count {
                let byte = UInt64(text.utf8Start[index]) << (8 * UInt64(index % 8))
                let mask = UInt64(0xFF) << (8 * UInt64(index % 8))
                if index < 8 {
                    words.0 |= byte
                    masks.0 |= mask
                } else {
                    words.1 |= byte
                    masks.1 |= mask
                }
            }
        }

        /// Consumes the bytes when the input continues with exactly them.
        @inline(__always)
        func consume(_ s: inout JSONScanner) -> Bool {
            if s.offset + 16 <= s.count {
                let bytes = UnsafeRawPointer(s.base + s.offset)
                guard bytes.loadUnaligned(as: UInt64.self) & masks.0 == words.0,
                    bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & masks.1 == words.1
                else { return false }
                s.offset += count
                return true
            }
            guard s.offset + count <= s.count else { return false }
            for index in 0..<count {
                let word = index < 8 ? words.0 : words.1
                if s.base[s.offset + index] != UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8))) { return false }
            }
            s.offset += count
            return true
        }
    }

    /// The registers in canonical order.
    static let fields: [Field] = [
        Field(field: .end, name: "end", lead: "{\"end\":", holdsTime: true),
        Field(field: .note, name: "note", lead: ",\"note\":", holdsTime: false),
        Field(field: .place, name: "place", lead: ",\"place\":", holdsTime: false),
        Field(field: .sortKey, name: "sortKey", lead: ",\"sortKey\":", holdsTime: false),
        Field(field: .start, name: "start", lead: ",\"start\":", holdsTime: true),
        Field(field: .title, name: "title", lead: ",\"title\":", holdsTime: false),
    ]

    /// The keys in canonical order (for "missing key" messages).
    static let names: [StaticString] = fields.map(\.name)

    /// The index in `fields` of the field named `key`; nil for any other key.
    @inline(__always)
    static func index(of key: JSONKey, in fields: [Field]) -> Int? {
        for index in fields.indices where key.equals(fields[index].name) { return index }
        return nil
    }

    // MARK: Each field's register type

    /// Writes `"key":{register}` when the item holds the register, after a comma unless
    /// `first`; clears `first` when it wrote.
    @inline(__always)
    static func write(_ field: Field, of storage: ItemFields.Storage, to writer: inout CanonicalWriter, first: inout Bool) {
        @inline(__always)
        func put<V>(_ register: Register<V>?, _ value: (inout CanonicalWriter, V) -> Void) {
            guard let register else { return }
            if !first { writer.out.append(UInt8(ascii: ",")) }
            first = false
            writer.out.append(field.member)
            writer.write(register, value)
        }
        switch field.field {
        case .end: put(storage.end, CanonicalWriter.writeTime)
        case .note: put(storage.note, CanonicalWriter.writeOptionalText)
        case .place: put(storage.place, CanonicalWriter.writeOptionalText)
        case .sortKey: put(storage.sortKey, CanonicalWriter.writeText)
        case .start: put(storage.start, CanonicalWriter.writeTime)
        case .title: put(storage.title, CanonicalWriter.writeText)
        }
    }

    // MARK: The quick decode

    /// The item whose bytes start at the scanner and end at `end`, read the quick way: the
    /// keys, brackets and separators are compared as whole byte runs, and no path is kept for
    /// messages. Every value goes through the same checks as the general way (the scanner's
    /// string and number grammar, `TextRule`, `SortKeyRules`, the time parsers, `ZoneID`, dots
    /// against the clock, then `checkTimes`, which may add warnings). Anything else (another key
    /// order, whitespace, conflicts, a value the checks refuse, a dot above the clock) gives nil
    /// having reported nothing, the scanner anywhere: the caller then reads the item the general
    /// way, which gives the error or warning with its pointer.
    static func decode(_ c: inout DecodeContext, end: Int) -> ItemFields? {
        guard c.cross.isActive, c.cross.complete, c.cross.hasClock else { return nil }
        // The six registers in the order of `fields` (end, note, place, sortKey, start, title:
        // byte order of the keys), each bound once, as it is read: a register held in an optional
        // variable, then checked or bound, is copied and destroyed through its type's value
        // witnesses, which for a time register cost more than decoding it (docs/PERFORMANCE.md,
        // issue 30). Each field's register type is said here (the one other place it is said
        // is `write`). The leads are `leads`, `fields`' own spelled as numbers.
        do {
            guard leads.end.consume(&c.scanner), let endTime = try register(&c, time),
                leads.note.consume(&c.scanner), let note = try register(&c, { c in try optionalText(&c, .note) }),
                leads.place.consume(&c.scanner), let place = try register(&c, { c in try optionalText(&c, .place) }),
                leads.sortKey.consume(&c.scanner), let sortKey = try register(&c, sortKeyValue),
                leads.start.consume(&c.scanner), let start = try register(&c, time),
                leads.title.consume(&c.scanner), let title = try register(&c, { c in try text(&c, .title) }),
                c.scanner.consume("}"), c.scanner.offset == end
            else { return nil }
            c.checkTimes(startValue: start.value, endValue: endTime.value)
            return ItemFields(title: title, sortKey: sortKey, start: start, end: endTime, place: place, note: note)
        } catch {
            return nil
        }
    }

    /// The byte runs around a register's rev and a time's parts, as words (each compared in
    /// two loads instead of byte by byte: the quick ways pass them once per register), spelled
    /// as numbers so that no use pays a `swift_once` (`LeadWords.init(words:masks:count:)`).
    /// `{"rev":[`
    static let revOpen = LeadWords(words: (0x5B3A_2276_6572_227B, 0), masks: (0xFFFF_FFFF_FFFF_FFFF, 0), count: 8)
    /// `],"value":`
    static let revClose = LeadWords(words: (0x6575_6C61_7622_2C5D, 0x3A22), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFFFF), count: 10)
    /// `"],"value":`
    static let deviceClose = LeadWords(words: (0x756C_6176_222C_5D22, 0x3A_2265), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF_FFFF), count: 11)
    /// `{"local":`
    static let localOpen = LeadWords(words: (0x226C_6163_6F6C_227B, 0x3A), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF), count: 9)
    /// `,"zone":`
    static let zoneKey = LeadWords(words: (0x3A22_656E_6F7A_222C, 0), masks: (0xFFFF_FFFF_FFFF_FFFF, 0), count: 8)
    /// `{"date":`
    static let dateOpen = LeadWords(words: (0x3A22_6574_6164_227B, 0), masks: (0xFFFF_FFFF_FFFF_FFFF, 0), count: 8)

    /// The leads of `fields`, in its order, spelled as numbers for the skip (as above).
    static let leads = (
        end: LeadWords(words: (0x3A_2264_6E65_227B, 0), masks: (0xFF_FFFF_FFFF_FFFF, 0), count: 7),
        note: LeadWords(words: (0x3A22_6574_6F6E_222C, 0), masks: (0xFFFF_FFFF_FFFF_FFFF, 0), count: 8),
        place: LeadWords(words: (0x2265_6361_6C70_222C, 0x3A), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF), count: 9),
        sortKey: LeadWords(words: (0x654B_7472_6F73_222C, 0x3A_2279), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF_FFFF), count: 11),
        start: LeadWords(words: (0x2274_7261_7473_222C, 0x3A), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF), count: 9),
        title: LeadWords(words: (0x2265_6C74_6974_222C, 0x3A), masks: (0xFFFF_FFFF_FFFF_FFFF, 0xFF), count: 9)
    )

    /// `{"rev":[counter,"device"],"value":…}` with no conflicts, its dot within the clock.
    @inline(__always)
    private static func register<V>(_ c: inout DecodeContext, _ value: (inout DecodeContext) throws -> V?) throws -> Register<V>? {
        guard revOpen.consume(&c.scanner), c.scanner.offset < c.scanner.count else { return nil }
        let first = c.scanner.base[c.scanner.offset]
        guard first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9"), let counter = counterDigits(&c.scanner),
            counter <= Rev.maxCounter, c.scanner.consume(","), let device = c.plainIdentifier(),
            revClose.consume(&c.scanner), let decoded = try value(&c), c.scanner.consume("}")
        else { return nil }
        guard counter <= c.cross.clockValue(device) else { return nil }
        return Register(value: decoded, rev: Rev(counter: counter, device: device))
    }

    /// The digits of a counter (the caller has seen a first digit 1–9), 8 at a time while 8
    /// follow; nil past 18 digits (far above `Rev.maxCounter`). What follows is the caller's to
    /// check: a `,` there means the number was an integer, as `readNumber` would have read it.
    @inline(__always)
    private static func counterDigits(_ s: inout JSONScanner) -> UInt64? {
        var value: UInt64 = 0
        var offset = s.offset
        if offset + 8 <= s.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(s.base + offset).loadUnaligned(as: UInt64.self))
            if eightDigits(word) {
                value = valueOfEightDigits(word)
                offset += 8
            }
        }
        while offset < s.count && s.base[offset] >= UInt8(ascii: "0") && s.base[offset] <= UInt8(ascii: "9") {
            value = value &* 10 &+ UInt64(s.base[offset] &- UInt8(ascii: "0"))
            offset += 1
            if offset - s.offset > 18 { return nil }
        }
        s.offset = offset
        return value
    }

    /// Whether the 8 bytes of `word` (memory order read as little-endian) are all `0`–`9`.
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Per byte below 0x80: x + 0x50 has the high bit when x >= '0', x + 0x46 when x > '9'.
        return word & highs == 0 && (word &+ ones &* 0x50) & ~(word &+ ones &* 0x46) & highs == highs
    }

    /// The value of 8 ASCII digits, the first in the word's lowest byte.
    @inline(__always)
    static func valueOfEightDigits(_ word: UInt64) -> UInt64 {
        var x = word &- 0x3030_3030_3030_3030
        x = (x &* 10 &+ (x >> 8)) & 0x00FF_00FF_00FF_00FF
        x = (x &* 100 &+ (x >> 16)) & 0x0000_FFFF_0000_FFFF
        return (x &* 10_000 &+ (x >> 32)) & 0xFFFF_FFFF
    }

    /// A string within `rule`.
    @inline(__always)
    private static func text(_ c: inout DecodeContext, _ rule: TextRule) throws -> String? {
        guard c.scanner.offset < c.scanner.count, c.scanner.base[c.scanner.offset] == UInt8(ascii: "\"") else { return nil }
        let scanned = try c.scanner.readString()
        guard rule.violation(scalarCount: scanned.scalarCount, hasControl: scanned.hasControl, hasNewlineOrTab: scanned.hasNewlineOrTab) == nil
        else { return nil }
        return scanned.text
    }

    /// `null` or a string within `rule`.
    @inline(__always)
    private static func optionalText(_ c: inout DecodeContext, _ rule: TextRule) throws -> String?? {
        if c.scanner.consume("null") { return .some(nil) }
        guard let value = try text(&c, rule) else { return nil }
        return .some(value)
    }

    /// A sort key.
    private static func sortKeyValue(_ c: inout DecodeContext) throws -> String? {
        guard c.scanner.offset < c.scanner.count, c.scanner.base[c.scanner.offset] == UInt8(ascii: "\"") else { return nil }
        let scanned = try c.scanner.readString()
        return SortKeyRules.isValid(scanned.text) ? scanned.text : nil
    }

    /// `null`, `{"local":"…","zone":"…"}` or `{"date":"…"}`.
    private static func time(_ c: inout DecodeContext) throws -> TripTime?? {
        if c.scanner.consume("null") { return .some(nil) }
        if localOpen.consume(&c.scanner) {
            guard let span = try plainString(&c), let local = LocalTimeParser.dateTime(utf8: span), zoneKey.consume(&c.scanner),
                let zone = try plainString(&c), ZoneID.isWellFormed(utf8: zone), c.scanner.consume("}")
            else { return nil }
            return .some(.local(local, zone: c.zoneString(zone)))
        }
        guard dateOpen.consume(&c.scanner), let span = try plainString(&c), let date = LocalTimeParser.date(utf8: span),
            c.scanner.consume("}")
        else { return nil }
        return .some(.date(date))
    }

    /// A string of plain ASCII with no escapes, as its bytes.
    @inline(__always)
    private static func plainString(_ c: inout DecodeContext) throws -> UnsafeBufferPointer<UInt8>? {
        guard c.scanner.offset < c.scanner.count, c.scanner.base[c.scanner.offset] == UInt8(ascii: "\"") else { return nil }
        return try c.scanner.readPlainASCIIString()
    }

    // MARK: The skip

    /// Moves the scanner past an item in the canonical form, looking only at what finds its end:
    /// keys and punctuation as byte runs, the counters' digits, the ends of strings, and device
    /// ids and local times by their fixed lengths. False, with the scanner where it was, for an
    /// item in any other form (the caller then skips it with `skipValueUnchecked`).
    ///
    /// Like `skipValueUnchecked` it is for bytes decoded strictly later: a strict decode of a
    /// span must end exactly at the span's end, and a span that does is the value's true extent,
    /// so an end this finds wrongly in hostile bytes is caught there, never believed.
    static func skip(_ s: inout JSONScanner) -> Bool {
        let start = s.offset
        // `fields` in its order (end, note, place, sortKey, start, title), by `leads`.
        guard leads.end.consume(&s), skipRegister(&s, time: true), leads.note.consume(&s), skipRegister(&s, time: false),
            leads.place.consume(&s), skipRegister(&s, time: false), leads.sortKey.consume(&s), skipRegister(&s, time: false),
            leads.start.consume(&s), skipRegister(&s, time: true), leads.title.consume(&s), skipRegister(&s, time: false),
            s.consume("}")
        else {
            s.offset = start
            return false
        }
        return true
    }

    /// `{"rev":[digits,"36 bytes"],"value":…}`.
    @inline(__always)
    private static func skipRegister(_ s: inout JSONScanner, time: Bool) -> Bool {
        guard revOpen.consume(&s) else { return false }
        let digits = s.offset
        while s.offset + 8 <= s.count && eightDigits(UInt64(littleEndian: UnsafeRawPointer(s.base + s.offset).loadUnaligned(as: UInt64.self))) {
            s.offset += 8
        }
        while s.offset < s.count && s.base[s.offset] >= UInt8(ascii: "0") && s.base[s.offset] <= UInt8(ascii: "9") { s.offset += 1 }
        guard s.offset > digits, s.offset + 38 <= s.count, s.base[s.offset] == UInt8(ascii: ","),
            s.base[s.offset + 1] == UInt8(ascii: "\"")
        else { return false }
        s.offset += 38
        return deviceClose.consume(&s) && (time ? skipTime(&s) : skipText(&s)) && s.consume("}")
    }

    /// `null` or a string: its end found 8 bytes at a time; a string with an escape is left to
    /// `skipValueUnchecked`.
    @inline(__always)
    private static func skipText(_ s: inout JSONScanner) -> Bool {
        if s.consume("null") { return true }
        guard s.offset < s.count, s.base[s.offset] == UInt8(ascii: "\"") else { return false }
        var end = s.offset + 1
        while end + 8 <= s.count {
            if JSONScanner.hasQuoteOrBackslash(UnsafeRawPointer(s.base + end).loadUnaligned(as: UInt64.self)) { break }
            end += 8
        }
        while end < s.count {
            let byte = s.base[end]
            if byte == UInt8(ascii: "\"") {
                s.offset = end + 1
                return true
            }
            if byte == UInt8(ascii: "\\") { return s.skipValueUnchecked() }
            end += 1
        }
        return false
    }

    /// `null`, `{"local":"16 bytes","zone":"…"}` or `{"date":"10 bytes"}`.
    private static func skipTime(_ s: inout JSONScanner) -> Bool {
        if s.consume("null") { return true }
        if localOpen.consume(&s) {
            guard s.offset + 18 <= s.count, s.base[s.offset] == UInt8(ascii: "\""), s.base[s.offset + 17] == UInt8(ascii: "\"")
            else { return false }
            s.offset += 18
            return zoneKey.consume(&s) && skipText(&s) && s.consume("}")
        }
        guard dateOpen.consume(&s), s.offset + 12 <= s.count, s.base[s.offset] == UInt8(ascii: "\""),
            s.base[s.offset + 11] == UInt8(ascii: "\"")
        else { return false }
        s.offset += 12
        return s.consume("}")
    }
}

extension JSONScanner {
    /// Consumes `text` when the input continues with exactly its bytes.
    @inline(__always)
    mutating func consume(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset + length <= count, memcmpBytes(base + offset, text.utf8Start, length) else { return false }
        offset += length
        return true
    }
}
