/// A quicker way through a live item written exactly as the canonical writer writes it: the
/// keys, brackets and separators are compared as whole byte runs instead of being scanned key
/// by key, and no path is kept for messages.
///
/// It only ever says "this item is" or "not this way": every value goes through the same
/// checks as in `DocumentDecoder.decodeItemFields` (the scanner's string and number grammar,
/// `TextRule`, `SortKeyRules`, the time parsers, `ZoneID`, dots against the clock, then
/// `checkTimes`; escapes are read by the scanner and noted when the writer would not write
/// them, as there), and anything else (another key order, whitespace, conflicts, a value the
/// checks refuse, a dot above the clock) returns nil having reported nothing, so the caller
/// decodes the item again the general way, which gives the error or warning with its pointer.
enum CanonicalItemDecoder {
    /// The item whose bytes start at the scanner and end at `end`, with the cross-field
    /// warnings `checkTimes` raises; nil (nothing reported, the scanner anywhere) when the
    /// item is not in the canonical form or not clean.
    static func decode(_ c: inout DecodeContext, end: Int) -> ItemFields? {
        guard c.cross.isActive, c.cross.complete, c.cross.hasClock else { return nil }
        do {
            guard literal(&c, "{\"end\":"), let endTime = try register(&c, time),
                literal(&c, ",\"note\":"), let note = try register(&c, { c in try optionalText(&c, .note) }),
                literal(&c, ",\"place\":"), let place = try register(&c, { c in try optionalText(&c, .place) }),
                literal(&c, ",\"sortKey\":"), let sortKey = try register(&c, sortKeyValue),
                literal(&c, ",\"start\":"), let start = try register(&c, time),
                literal(&c, ",\"title\":"), let title = try register(&c, { c in try text(&c, .title) }),
                literal(&c, "}"), c.scanner.offset == end
            else { return nil }
            c.checkTimes(start: start, end: endTime)
            return ItemFields(title: title, sortKey: sortKey, start: start, end: endTime, place: place, note: note)
        } catch {
            return nil
        }
    }

    /// Consumes `text` when the input continues with exactly its bytes.
    @inline(__always)
    private static func literal(_ c: inout DecodeContext, _ text: StaticString) -> Bool {
        c.scanner.consume(text)
    }

    // MARK: Delimiting

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
        if s.consume("{\"end\":"), skipRegister(&s, skipTime), s.consume(",\"note\":"), skipRegister(&s, skipText),
            s.consume(",\"place\":"), skipRegister(&s, skipText), s.consume(",\"sortKey\":"), skipRegister(&s, skipText),
            s.consume(",\"start\":"), skipRegister(&s, skipTime), s.consume(",\"title\":"), skipRegister(&s, skipText),
            s.consume("}")
        {
            return true
        }
        s.offset = start
        return false
    }

    /// `{"rev":[digits,"36 bytes"],"value":…}`.
    @inline(__always)
    private static func skipRegister(_ s: inout JSONScanner, _ value: (inout JSONScanner) -> Bool) -> Bool {
        guard s.consume("{\"rev\":[") else { return false }
        let digits = s.offset
        while s.offset < s.count && s.base[s.offset] >= UInt8(ascii: "0") && s.base[s.offset] <= UInt8(ascii: "9") { s.offset += 1 }
        guard s.offset > digits, s.consume(",\""), s.offset + 36 <= s.count else { return false }
        s.offset += 36
        return s.consume("\"],\"value\":") && value(&s) && s.consume("}")
    }

    /// `null` or a string.
    private static func skipText(_ s: inout JSONScanner) -> Bool {
        if s.consume("null") { return true }
        return s.offset < s.count && s.base[s.offset] == UInt8(ascii: "\"") && s.skipValueUnchecked()
    }

    /// `null`, `{"local":"16 bytes","zone":"…"}` or `{"date":"10 bytes"}`.
    private static func skipTime(_ s: inout JSONScanner) -> Bool {
        if s.consume("null") { return true }
        if s.consume("{\"local\":\"") {
            guard s.offset + 16 <= s.count else { return false }
            s.offset += 16
            return s.consume("\",\"zone\":") && skipText(&s) && s.consume("}")
        }
        guard s.consume("{\"date\":\""), s.offset + 10 <= s.count else { return false }
        s.offset += 10
        return s.consume("\"}")
    }

    /// `{"rev":[counter,"device"],"value":…}` with no conflicts, its dot within the clock.
    @inline(__always)
    private static func register<V>(_ c: inout DecodeContext, _ value: (inout DecodeContext) throws -> V?) throws -> Register<V>? {
        guard literal(&c, "{\"rev\":["), c.scanner.offset < c.scanner.count else { return nil }
        let first = c.scanner.base[c.scanner.offset]
        guard first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9"), case .integer(let number) = try c.scanner.readNumber(),
            number <= Int64(Rev.maxCounter), literal(&c, ","), let device = c.plainIdentifier(),
            literal(&c, "],\"value\":"), let decoded = try value(&c), literal(&c, "}")
        else { return nil }
        let counter = UInt64(number)
        guard counter <= c.cross.clockValue(device) else { return nil }
        return Register(value: decoded, rev: Rev(counter: counter, device: device))
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
        if literal(&c, "null") { return .some(nil) }
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
        if literal(&c, "null") { return .some(nil) }
        if literal(&c, "{\"local\":") {
            guard let span = try plainString(&c), let local = LocalTimeParser.dateTime(utf8: span), literal(&c, ",\"zone\":"),
                let zone = try plainString(&c), ZoneID.isWellFormed(utf8: zone), literal(&c, "}")
            else { return nil }
            return .some(.local(local, zone: c.zoneString(zone)))
        }
        guard literal(&c, "{\"date\":"), let span = try plainString(&c), let date = LocalTimeParser.date(utf8: span), literal(&c, "}")
        else { return nil }
        return .some(.date(date))
    }

    /// A string of plain ASCII with no escapes, as its bytes.
    @inline(__always)
    private static func plainString(_ c: inout DecodeContext) throws -> UnsafeBufferPointer<UInt8>? {
        guard c.scanner.offset < c.scanner.count, c.scanner.base[c.scanner.offset] == UInt8(ascii: "\"") else { return nil }
        return try c.scanner.readPlainASCIIString()
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
