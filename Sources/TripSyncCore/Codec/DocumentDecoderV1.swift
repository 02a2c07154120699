/// Decodes and validates schema 1 by its own rules, reporting every problem with its pointer.
struct DocumentDecoderV1 {
    static let maxInstant: Int64 = 253_402_300_799_999
    var context: DecodeContext

    init(scanner: JSONScanner) {
        context = DecodeContext(scanner: scanner)
    }

    private static let topKeys: [StaticString] = ["deviceId", "items", "name", "schemaVersion", "tripId"]
    private static let rowKeys: [StaticString] = [
        "deletedAt", "dirty", "itemId", "note", "place", "serverRev", "sortKey", "startInstant", "startZoneId", "title", "tripId",
    ]

    mutating func decode() throws -> TripDocumentV1? {
        var tripID: Identifier?
        var deviceID: Identifier?
        var name: String?
        var rows: [TripDocumentV1.Row]?
        var mask: UInt32 = 0
        let isObject = try context.readObject("a trip document (a JSON object)") { c, key in
            if key.equals("items") {
                try c.member(key, 1, &mask, "items") { c in rows = try DocumentDecoderV1.decodeRows(&c) }
            } else if key.equals("schemaVersion") {
                try c.member(key, 3, &mask, "schemaVersion") { c in _ = try c.readInteger(1...1, "schemaVersion") }
            } else if key.equals("tripId") {
                try c.member(key, 4, &mask, "tripId") { c in tripID = try c.readIdentifier() }
            } else if key.equals("deviceId") {
                try c.member(key, 0, &mask, "deviceId") { c in deviceID = try c.readIdentifier() }
            } else if key.equals("name") {
                try c.member(key, 2, &mask, "name") { c in
                    name = try c.readText(.name, what: "a name")
                }
            } else {
                try c.unknownKey(key)
            }
        }
        try context.scanner.expectEnd()
        guard isObject else { return nil }
        context.requireKeys(DocumentDecoderV1.topKeys, seen: mask)
        guard let tripID, let deviceID, let name, let rows else { return nil }
        // Cross-row rules: ids unique (naming both positions), every row of this trip.
        var firstIndex: [ItemID: Int] = [:]
        for (index, row) in rows.enumerated() {
            if let earlier = firstIndex[row.itemID] {
                context.append(
                    ValidationIssue(
                        .error, pointer: "/items/\(index)/itemId",
                        message: "itemId \(row.itemID) at /items/\(index) repeats the one at /items/\(earlier), expected each item once"))
            } else {
                firstIndex[row.itemID] = index
            }
            if row.tripID != tripID {
                context.append(
                    ValidationIssue(
                        .error, pointer: "/items/\(index)/tripId",
                        message: "the row's tripId \(row.tripID) differs from the file's \(tripID), expected rows of this trip only"))
            }
        }
        guard context.issues.allSatisfy({ $0.severity != .error }) else { return nil }
        return TripDocumentV1(tripID: tripID, deviceID: deviceID, name: name, rows: rows)
    }

    static func decodeRows(_ c: inout DecodeContext) throws -> [TripDocumentV1.Row]? {
        var rows: [TripDocumentV1.Row] = []
        var ok = true
        let isArray = try c.readArray("items (an array of rows)") { c, index in
            if index >= DocumentDecoder.maxItems {
                if index == DocumentDecoder.maxItems {
                    c.report("more than \(DocumentDecoder.maxItems) items, expected at most \(DocumentDecoder.maxItems)")
                }
                ok = false
                try c.scanner.skipValue()
                return
            }
            if let row = try decodeRow(&c) { rows.append(row) } else { ok = false }
        }
        return isArray && ok ? rows : nil
    }

    static func decodeRow(_ c: inout DecodeContext) throws -> TripDocumentV1.Row? {
        var itemID: Identifier?
        var tripID: Identifier?
        var title: String?
        var sortKey: String?
        var startInstant: Int64??
        var startZone: String??
        var place: String?
        var note: String?
        var serverRev: UInt64?
        var deletedAt: Int64??
        var dirty: Bool?
        var ok = true
        var mask: UInt32 = 0
        func nullableInstant(_ c: inout DecodeContext, _ what: String) throws -> Int64?? {
            if c.scanner.consumeNull() { return .some(nil) }
            guard let value = try c.readInteger(0...maxInstant, what) else { return nil }
            return .some(value)
        }
        let isObject = try c.readObject("an item row (an object)") { c, key in
            if key.equals("itemId") {
                try c.member(key, 2, &mask, "itemId") { c in itemID = try c.readIdentifier() }
            } else if key.equals("tripId") {
                try c.member(key, 10, &mask, "tripId") { c in tripID = try c.readIdentifier() }
            } else if key.equals("title") {
                try c.member(key, 9, &mask, "title") { c in title = try DocumentDecoder.decodeTitle(&c) }
            } else if key.equals("sortKey") {
                try c.member(key, 6, &mask, "sortKey") { c in sortKey = try DocumentDecoder.decodeSortKey(&c) }
            } else if key.equals("startInstant") {
                try c.member(key, 7, &mask, "startInstant") { c in startInstant = try nullableInstant(&c, "startInstant (epoch milliseconds)") }
            } else if key.equals("startZoneId") {
                try c.member(key, 8, &mask, "startZoneId") { c in
                    if c.scanner.consumeNull() {
                        startZone = .some(nil)
                        return
                    }
                    guard let text = try c.readString("startZoneId (a zone id string or null)") else { return }
                    if ZoneID.isWellFormed(text.text) {
                        startZone = .some(text.text)
                    } else {
                        c.report(ZoneID.expectation(found: text.text))
                    }
                }
            } else if key.equals("place") {
                try c.member(key, 4, &mask, "place") { c in
                    if let value = try DocumentDecoder.decodePlace(&c) { place = value } else { ok = false }
                }
            } else if key.equals("note") {
                try c.member(key, 3, &mask, "note") { c in
                    if let value = try DocumentDecoder.decodeNote(&c) { note = value } else { ok = false }
                }
            } else if key.equals("serverRev") {
                try c.member(key, 5, &mask, "serverRev") { c in
                    serverRev = try c.readInteger(1...Int64(Rev.maxCounter), "serverRev").map(UInt64.init)
                }
            } else if key.equals("deletedAt") {
                try c.member(key, 0, &mask, "deletedAt") { c in deletedAt = try nullableInstant(&c, "deletedAt (epoch milliseconds) or null") }
            } else if key.equals("dirty") {
                try c.member(key, 1, &mask, "dirty") { c in
                    switch c.scanner.peekKind() {
                    case .literal where c.scanner.base[c.scanner.offset] != UInt8(ascii: "n"):
                        dirty = try c.scanner.readLiteral() == "true"
                    default: try c.mismatch("dirty (true or false)")
                    }
                }
            } else {
                ok = false
                try c.unknownKey(key)
            }
        }
        guard isObject else { return nil }
        // place (3) and note (4) are optional.
        c.requireKeys(rowKeys, seen: mask | 1 << 3 | 1 << 4)
        guard ok, let itemID, let tripID, let title, let sortKey, let startInstant, let startZone, let serverRev,
            let deletedAt, let dirty
        else { return nil }
        switch (startInstant, startZone) {
        case (.some, nil):
            c.report("startInstant is set but startZoneId is null, expected both set or both null", at: .key("startZoneId"))
            return nil
        case (nil, .some):
            c.report("startZoneId is set but startInstant is null, expected both set or both null", at: .key("startInstant"))
            return nil
        default: break
        }
        return TripDocumentV1.Row(
            itemID: itemID, tripID: tripID, title: title, sortKey: sortKey, startInstant: startInstant, startZoneID: startZone,
            place: place, note: note, serverRev: serverRev, deletedAt: deletedAt, dirty: dirty)
    }
}
