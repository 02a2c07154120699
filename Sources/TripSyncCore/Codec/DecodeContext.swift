import TripSyncPlatform

/// Shared state of a schema decoder: the scanner, the JSON Pointer of the current value, and
/// every issue found so far. Schema problems are recorded and the offending value skipped, so
/// one pass reports them all; syntax errors are thrown and end the pass.
struct DecodeContext {
    /// The most issues one file reports (the rest are counted).
    static let maxIssues = 500

    var scanner: JSONScanner
    var path: [PathComponent] = []
    /// Keys that are not part of the schema, referred to by `PathComponent.name`.
    var names: [String] = []
    var issues: [ValidationIssue] = []
    var errorCount = 0
    var droppedIssues = 0
    /// The validator's per-value rules, checked as values are decoded (see `CrossFieldChecks`).
    var cross: CrossFieldChecks
    /// The pointers of schema 7 keys read (a blob's `sealed`), for the version check at the end.
    var schema7Pointers: [String] = []
    /// The last few ids read as values (rev devices), with where their text is in the input.
    private var recentIDs: [(bytes: UnsafePointer<UInt8>, id: Identifier)] = []
    private var nextRecentID = 0
    /// Zone ids read so far, with where their text is in the input: a trip uses a few zones,
    /// and each is kept as one shared string.
    private var zones: [(bytes: UnsafePointer<UInt8>, count: Int, text: String)] = []

    /// The string for a zone id's bytes, shared with earlier occurrences of the same id.
    mutating func zoneString(_ span: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = span.baseAddress else { return "" }
        for index in zones.indices where zones[index].count == span.count && Memory.equal(zones[index].bytes, base, span.count) {
            return zones[index].text
        }
        let text = String(decoding: span, as: UTF8.self)
        if zones.count < 32 { zones.append((base, span.count, text)) }
        return text
    }

    init(scanner: JSONScanner, zones: ZoneRules? = nil) {
        self.scanner = scanner
        cross = CrossFieldChecks(zones: zones)
    }

    /// The pointer of the current value.
    var pointer: String { JSONPointer.string(path, names: names) }

    /// A path component for an arbitrary key.
    mutating func nameComponent(_ name: String) -> PathComponent {
        names.append(name)
        return .name(names.count - 1)
    }

    /// Records an error at the current pointer.
    mutating func report(_ message: String) {
        errorCount += 1
        append(ValidationIssue(.error, pointer: pointer, message: message))
    }

    /// Records an error at the current pointer extended by `component`.
    mutating func report(_ message: String, at component: PathComponent) {
        path.append(component)
        report(message)
        path.removeLast()
    }

    /// Records an issue with an explicit pointer.
    mutating func append(_ issue: ValidationIssue) {
        if issues.count < DecodeContext.maxIssues { issues.append(issue) } else { droppedIssues += 1 }
    }

    /// Records "expected X, found Y" and skips the value.
    mutating func mismatch(_ expected: String) throws {
        let found = scanner.describeNext()
        report("expected \(expected), found \(found)")
        try scanner.skipValue()
    }

    /// Records an unknown key and skips its value.
    mutating func unknownKey(_ key: JSONKey) throws {
        let name = scanner.keyText(key)
        path.append(nameComponent(name))
        report("unknown key \"\(name)\", expected only the keys the schema defines (a newer writer would have raised schemaVersion)")
        try scanner.skipValue()
        path.removeLast()
    }

    /// Records a duplicate key and skips its value.
    mutating func duplicateKey(_ key: JSONKey) throws {
        report("duplicate key \"\(scanner.keyText(key))\", expected each key once")
        try scanner.skipValue()
    }

    /// Records missing required keys of the current object.
    mutating func requireKeys(_ names: [StaticString], seen mask: UInt32, hint: String = "") {
        for (index, name) in names.enumerated() where mask & (1 << index) == 0 {
            report("missing key \"\(name)\"\(hint)")
        }
    }

    // MARK: Containers

    /// Iterates an object's members; `body` must consume each member's value. Returns false
    /// (after recording a mismatch) when the value is not an object.
    @inline(__always)
    mutating func readObject(
        _ expected: String, _ body: (inout DecodeContext, JSONKey) throws -> Void
    ) throws -> Bool {
        guard scanner.peekKind() == .object else {
            try mismatch(expected)
            return false
        }
        try scanner.beginObject()
        var first = true
        while let key = try scanner.nextKey(first: &first) {
            try body(&self, key)
        }
        return true
    }

    /// Iterates an array's elements with their index; `body` must consume each element.
    @inline(__always)
    mutating func readArray(
        _ expected: String, _ body: (inout DecodeContext, Int) throws -> Void
    ) throws -> Bool {
        guard scanner.peekKind() == .array else {
            try mismatch(expected)
            return false
        }
        try scanner.beginArray()
        var first = true
        var index = 0
        while try scanner.nextElement(first: &first) {
            path.append(.index(index))
            try body(&self, index)
            path.removeLast()
            index += 1
        }
        return true
    }

    /// Reads the value of a fixed key once: a second occurrence is a duplicate.
    @inline(__always)
    mutating func member(
        _ key: JSONKey, _ bit: Int, _ mask: inout UInt32, _ name: StaticString,
        _ body: (inout DecodeContext) throws -> Void
    ) throws {
        if mask & (1 << bit) != 0 {
            try duplicateKey(key)
            return
        }
        // Bits are given in the canonical order of the keys: a key after a greater one is not.
        if mask >> bit != 0 { scanner.departsFromCanonical = true }
        mask |= 1 << bit
        path.append(.key(name))
        try body(&self)
        path.removeLast()
    }

    // MARK: Scalars

    /// Reads an integer in `range`; records and returns nil otherwise.
    mutating func readInteger(_ range: ClosedRange<Int64>, _ what: String) throws -> Int64? {
        guard scanner.peekKind() == .number else {
            try mismatch("\(what) (an integer \(range.lowerBound)…\(range.upperBound))")
            return nil
        }
        switch try scanner.readNumber() {
        case .integer(let value):
            guard range.contains(value) else {
                report("expected \(what) in \(range.lowerBound)…\(range.upperBound), found \(value)")
                return nil
            }
            return value
        case .other(let text):
            report("expected \(what) (an integer \(range.lowerBound)…\(range.upperBound) with no fraction or exponent), found \(text)")
            return nil
        }
    }

    /// Reads a counter (1 … 2^53).
    @inline(__always)
    mutating func readCounter() throws -> UInt64? {
        guard let value = try readInteger(1...Int64(Rev.maxCounter), "a counter") else { return nil }
        return UInt64(value)
    }

    /// Reads a string, or records a mismatch.
    @inline(__always)
    mutating func readString(_ expected: String) throws -> ScannedString? {
        guard scanner.peekKind() == .string else {
            try mismatch(expected)
            return nil
        }
        return try scanner.readString()
    }

    /// A lowercase canonical UUID string of exactly 36 bytes at the scanner (the form the writer
    /// writes), consumed; nil, with nothing consumed or reported, for anything else.
    @inline(__always)
    mutating func plainIdentifier() -> Identifier? {
        // 36 bytes and a closing quote. Bytes that parse as a UUID hold no quote, backslash or
        // control character, so they are the whole string.
        let start = scanner.offset + 1
        guard start + 36 < scanner.count, scanner.base[start - 1] == UInt8(ascii: "\""),
            scanner.base[start + 36] == UInt8(ascii: "\"")
        else { return nil }
        let bytes = scanner.base + start
        // A document names a few devices thousands of times: compare with the last ones seen.
        for slot in 0..<recentIDs.count where Memory.equal(recentIDs[slot].bytes, bytes, 36) {
            scanner.offset = start + 37
            return recentIDs[slot].id
        }
        guard let id = Identifier(utf8: UnsafeBufferPointer(start: bytes, count: 36)) else { return nil }
        if recentIDs.count < 4 {
            recentIDs.append((bytes, id))
        } else {
            recentIDs[nextRecentID] = (bytes, id)
            nextRecentID = (nextRecentID + 1) & 3
        }
        scanner.offset = start + 37
        return id
    }

    /// Reads a lowercase canonical UUID string.
    mutating func readIdentifier() throws -> Identifier? {
        guard scanner.peekKind() == .string else {
            try mismatch("a lowercase canonical UUID string")
            return nil
        }
        if let id = plainIdentifier() { return id }
        let text: String
        if let span = try scanner.readPlainASCIIString() {
            if let id = Identifier(utf8: span) { return id }
            text = String(decoding: span, as: UTF8.self)
        } else {
            text = try scanner.readString().text
        }
        report("expected a lowercase canonical UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, digits 0-9a-f), found \"\(text.prefix(80))\"")
        return nil
    }

    /// Parses a key as a UUID, recording a problem (and skipping the value) when it is not one.
    mutating func identifierKey(_ key: JSONKey) throws -> Identifier? {
        if !key.hasEscapes, let id = Identifier(utf8: UnsafeBufferPointer(start: key.start, count: key.count)) {
            return id
        }
        let name = scanner.keyText(key)
        path.append(nameComponent(name))
        report("expected a lowercase canonical UUID as key, found \"\(name.prefix(80))\"")
        path.removeLast()
        try scanner.skipValue()
        return nil
    }

    /// Reads a text value with length limits and the control-character rule.
    mutating func readText(_ rule: TextRule, what: String) throws -> String? {
        guard let scanned = try readString("\(what) (a string)") else { return nil }
        if let violation = rule.violation(
            scalarCount: scanned.scalarCount, hasControl: scanned.hasControl, hasNewlineOrTab: scanned.hasNewlineOrTab)
        {
            report(rule.message(for: violation, what: what))
            return nil
        }
        return scanned.text
    }
}
