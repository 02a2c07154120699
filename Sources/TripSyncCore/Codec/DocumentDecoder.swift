/// Decodes a schemaVersion 2 document from JSON bytes, checking types, ranges, required and
/// unknown keys, duplicate keys and register ordering as it goes, and, with zone rules, each
/// value's cross-field rules (`CrossFieldChecks`). What needs the finished maps (ids in both
/// maps, acks) is left to the reader.
struct DocumentDecoder {
    /// The most live items (and, separately, tombstones) a document may hold.
    static let maxItems = 100_000
    /// The most entries a clock (version vector) may hold.
    static let maxClockEntries = 10_000
    /// The most conflicts one register may hold.
    static let maxConflicts = 1_000

    var context: DecodeContext

    /// What the top-level object said about its version, whatever the rest held.
    enum Version {
        case missing
        case invalid
        case number(Int64)
    }

    var version: Version = .missing

    /// When set, live items are only delimited, not decoded: `items` comes back empty and
    /// `deferredItems` says where each item's bytes are, for `DeferredItems` to decode later
    /// (on every core, and only once for bytes another input holds too).
    var defersItems = false
    /// Where item values end, when known already (`SchemaVersionProbe.itemValues`): delimiting
    /// jumps over a value that starts where one of these does instead of looking for its end.
    var itemHints: [Range<Int>] = []
    /// Each deferred item's id → its index in `itemSpans`.
    var deferredItems: [ItemID: Int] = [:]
    /// Each deferred item's id and byte range in the input, in file order.
    var itemSpans: [(id: ItemID, bytes: Range<Int>)] = []
    /// Whether the clock was decoded before the items were reached (what makes the decoder's
    /// per-value checks complete, see `CrossFieldChecks`).
    var clockBeforeItems = false

    /// A decoder; with `zones`, it also checks each value's cross-field rules as it goes
    /// (`context.cross`).
    init(scanner: JSONScanner, zones: ZoneRules? = nil) {
        context = DecodeContext(scanner: scanner, zones: zones)
    }

    /// Top-level keys in canonical order (the mask bit of each is its index).
    private static let topKeys: [StaticString] = [
        "acks", "attachments", "clock", "deviceId", "deviceKey", "devices", "items", "members", "owner", "schemaVersion",
        "signature", "successions", "tombstones", "trip", "tripId",
    ]
    /// Bits of the keys schema 3 added (`members`, `owner`), of the optional pair
    /// (`deviceKey`, `signature`), and of the key schema 4 added (`attachments`).
    private static let schema3Bits: UInt32 = 1 << 7 | 1 << 8
    private static let signatureBits: UInt32 = 1 << 4 | 1 << 10
    private static let schema4Bits: UInt32 = 1 << 1
    private static let schemaVersionBit: UInt32 = 1 << 9
    /// The bit of the optional top-level key schema 5 added (`successions`).
    private static let successionsBit: UInt32 = 1 << 11

    /// Where the keys schema 5 added inside other objects were found (`trip.zone`,
    /// `members.*.name`): refused at the end when the file declares an older version.
    var schema5Pointers: [String] = []

    /// The writer's key and where the signature's 88 characters are in the input, when the
    /// file is signed (`FileSignature` checks them against the bytes).
    var signature: (deviceKey: PublicKey, value: [UInt8], range: Range<Int>)?

    /// What the top-level object held, key by key, as `decode` reads it.
    private struct TopLevel {
        var tripID: Identifier?
        var deviceID: Identifier?
        var clock: VersionVector?
        var trip: TripInfo?
        var devices: [DeviceID: DeviceInfo]?
        var items: [ItemID: ItemFields]?
        var tombstones: [ItemID: Tombstone]?
        var acks: [DeviceID: VersionVector]?
        var owner: TripOwner??
        var members: [DeviceID: MemberGrant]?
        var attachments: [AttachmentID: Attachment]?
        var successions: [DeviceID: Succession]?
        var deviceKey: PublicKey?
        var signatureValue: (bytes: [UInt8], range: Range<Int>)?
        var version: Version = .missing
        /// The keys found (the bit of each is its index in `topKeys`).
        var mask: UInt32 = 0
        var deferred: [ItemID: Int] = [:]
        var spans: [(id: ItemID, bytes: Range<Int>)] = []
        var clockBeforeItems = false
        var schema5: [String] = []
        /// Where schema 6's key inside other objects was found (`members.*.box`).
        var schema6: [String] = []
    }

    /// Decodes the whole document; returns nil when any error was recorded (see `context.issues`).
    /// Three steps: the top-level object read key by key (`readTopLevel`), the keys checked
    /// against the version the file declares (`checkKeys`), the document built (`assemble`).
    mutating func decode() throws -> TripDocument? {
        guard let top = try readTopLevel() else { return nil }
        guard top.mask != 0 else {
            // An object with none of a trip's keys (a package.json, another tool's file) is one
            // answer, not a list of every missing and unknown key.
            context.issues = [
                ValidationIssue(
                    .error, pointer: "",
                    message: "not a trip file: the JSON object has none of a trip file's keys (schemaVersion, tripId, deviceId, trip, items, clock, ...)")
            ]
            context.droppedIssues = 0
            return nil
        }
        checkKeys(top)
        return assemble(top)
    }

    /// Reads the top-level object to its end; nil when the input is no JSON object. What it
    /// says of the version, the deferred items and the schema 5 keys is kept on the decoder.
    private mutating func readTopLevel() throws -> TopLevel? {
        var top = TopLevel()
        let defersItems = self.defersItems
        let hints = itemHints
        let isObject = try context.readObject("a trip document (a JSON object)") { c, key in
            try DocumentDecoder.readMember(key, &c, into: &top, defersItems: defersItems, hints: hints)
        }
        try context.scanner.expectEnd()
        version = top.version
        deferredItems = top.deferred
        itemSpans = top.spans
        clockBeforeItems = top.clockBeforeItems
        schema5Pointers = top.schema5
        return isObject ? top : nil
    }

    /// Reads the top-level member `key` into `top` (an unknown key is reported).
    private static func readMember(_ key: JSONKey, _ c: inout DecodeContext, into top: inout TopLevel, defersItems: Bool, hints: [Range<Int>]) throws {
        if key.equals("items") {
            try c.member(key, 6, &top.mask, "items") { c in
                guard defersItems else {
                    top.items = try DocumentDecoder.decodeItems(&c)
                    return
                }
                top.clockBeforeItems = c.cross.hasClock
                if let map = try DocumentDecoder.delimitItems(&c, hints: hints, into: &top.spans) {
                    top.deferred = map
                    top.items = [:]
                }
            }
        } else if key.equals("tombstones") {
            try c.member(key, 12, &top.mask, "tombstones") { c in top.tombstones = try DocumentDecoder.decodeTombstones(&c) }
        } else if key.equals("clock") {
            try c.member(key, 2, &top.mask, "clock") { c in
                top.clock = try DocumentDecoder.decodeClock(&c)
                if let clock = top.clock { c.cross.setClock(clock) }
            }
        } else if key.equals("schemaVersion") {
            try c.member(key, 9, &top.mask, "schemaVersion") { c in top.version = try DocumentDecoder.decodeVersion(&c) }
        } else if key.equals("tripId") {
            try c.member(key, 14, &top.mask, "tripId") { c in top.tripID = try c.readIdentifier() }
        } else if key.equals("deviceId") {
            try c.member(key, 3, &top.mask, "deviceId") { c in top.deviceID = try c.readIdentifier() }
        } else if key.equals("trip") {
            try c.member(key, 13, &top.mask, "trip") { c in
                var found: [String] = []
                top.trip = try DocumentDecoder.decodeTripInfo(&c, schema5: &found)
                top.schema5 += found
            }
        } else if key.equals("devices") {
            try c.member(key, 5, &top.mask, "devices") { c in top.devices = try DocumentDecoder.decodeDevices(&c) }
        } else if key.equals("acks") {
            try c.member(key, 0, &top.mask, "acks") { c in top.acks = try DocumentDecoder.decodeAcks(&c) }
        } else if key.equals("members") {
            try c.member(key, 7, &top.mask, "members") { c in
                var found: [String] = []
                var found6: [String] = []
                top.members = try DocumentDecoder.decodeMembers(&c, schema5: &found, schema6: &found6)
                top.schema5 += found
                top.schema6 += found6
            }
        } else if key.equals("attachments") {
            try c.member(key, 1, &top.mask, "attachments") { c in
                // Checked against the clock at the end (they precede it): `DocumentValidator.finalIssues`.
                let active = c.cross.isActive
                c.cross.setActive(false)
                defer { c.cross.setActive(active) }
                top.attachments = try DocumentDecoder.decodeAttachments(&c)
            }
        } else if key.equals("owner") {
            try c.member(key, 8, &top.mask, "owner") { c in top.owner = try DocumentDecoder.decodeOwner(&c) }
        } else if key.equals("deviceKey") {
            try c.member(key, 4, &top.mask, "deviceKey") { c in top.deviceKey = try DocumentDecoder.decodeKey(&c) }
        } else if key.equals("signature") {
            try c.member(key, 10, &top.mask, "signature") { c in top.signatureValue = try DocumentDecoder.decodeSignatureValue(&c) }
        } else if key.equals("successions") {
            try c.member(key, 11, &top.mask, "successions") { c in top.successions = try DocumentDecoder.decodeSuccessions(&c) }
        } else {
            try c.unknownKey(key)
        }
    }

    /// `schemaVersion`: an integer with no fraction or exponent.
    private static func decodeVersion(_ c: inout DecodeContext) throws -> Version {
        guard c.scanner.peekKind() == .number else {
            try c.mismatch("schemaVersion as an integer")
            return .invalid
        }
        switch try c.scanner.readNumber() {
        case .integer(let value): return .number(value)
        case .other(let text):
            c.report("expected schemaVersion as an integer with no fraction or exponent, found \(text)")
            return .invalid
        }
    }

    /// The keys found against the version the file declares: schema 2 has none of the keys
    /// schema 3 added and schema 3 none schema 4 added; schema 3 needs `members` and `owner`,
    /// schema 4 `attachments`, and `deviceKey` and `signature` come together or not at all.
    private mutating func checkKeys(_ top: TopLevel) {
        let mask = top.mask
        if case .missing = top.version {
            context.report("missing key \"schemaVersion\", expected the integer schema version of the file")
        }
        var optional = DocumentDecoder.signatureBits | DocumentDecoder.successionsBit
        if case .number(let number) = top.version, number < 7 {
            // Schema 7's key: `sealed` in an attachment's blob.
            for pointer in context.schema7Pointers {
                context.errorCount += 1
                context.append(
                    ValidationIssue(
                        .error, pointer: pointer,
                        message: "unexpected key \"sealed\", a schema 7 key in a schema \(number) file (a schema 7 writer writes schemaVersion 7)"))
            }
        }
        if case .number(let number) = top.version, number < 6 {
            // Schema 6's key: `box` in a grant.
            for pointer in top.schema6 {
                context.errorCount += 1
                context.append(
                    ValidationIssue(
                        .error, pointer: pointer,
                        message: "unexpected key \"box\", a schema 6 key in a schema \(number) file (a schema 6 writer writes schemaVersion 6)"))
            }
        }
        if case .number(let number) = top.version, number < 5 {
            // Schema 5's keys: `successions` at the top, `zone` in `trip`, `name` in a grant.
            if mask & DocumentDecoder.successionsBit != 0 {
                context.report(
                    "unexpected key \"successions\", a schema 5 key in a schema \(number) file (a schema 5 writer writes schemaVersion 5)",
                    at: .key("successions"))
            }
            for pointer in top.schema5 {
                let key = pointer.hasSuffix("/zone") ? "zone" : "name"
                context.errorCount += 1
                context.append(
                    ValidationIssue(
                        .error, pointer: pointer,
                        message: "unexpected key \"\(key)\", a schema 5 key in a schema \(number) file (a schema 5 writer writes schemaVersion 5)"))
            }
        }
        if case .number(let number) = top.version, number < 4 {
            optional |= DocumentDecoder.schema4Bits
            if mask & DocumentDecoder.schema4Bits != 0 {
                context.report("unexpected key \"attachments\", a schema 4 key in a schema \(number) file")
            }
        }
        if case .number(let number) = top.version, number < 3 {
            optional |= DocumentDecoder.schema3Bits
            for bit in [4, 7, 8, 10] where mask & (1 << bit) != 0 {
                context.report("unexpected key \"\(DocumentDecoder.topKeys[bit])\", a schema 3 key in a schema \(number) file")
            }
        } else if mask & DocumentDecoder.signatureBits != 0 && mask & DocumentDecoder.signatureBits != DocumentDecoder.signatureBits {
            let missing = mask & (1 << 4) == 0 ? "deviceKey" : "signature"
            let present = missing == "deviceKey" ? "signature" : "deviceKey"
            context.report("missing key \"\(missing)\", expected \"deviceKey\" and \"signature\" together (found only \"\(present)\")", at: .key("signature"))
        }
        context.requireKeys(DocumentDecoder.topKeys, seen: mask | DocumentDecoder.schemaVersionBit | optional)
    }

    /// The document from what was read, nil when any error was recorded; the signature kept
    /// for `FileSignature` when the file is signed.
    private mutating func assemble(_ top: TopLevel) -> TripDocument? {
        guard context.errorCount == 0, let tripID = top.tripID, let deviceID = top.deviceID, let clock = top.clock, let trip = top.trip,
            let devices = top.devices, let items = top.items, let tombstones = top.tombstones, let acks = top.acks
        else { return nil }
        if let deviceKey = top.deviceKey, let signatureValue = top.signatureValue {
            signature = (deviceKey, signatureValue.bytes, signatureValue.range)
        }
        return TripDocument(
            tripID: tripID, deviceID: deviceID, clock: clock, trip: trip, devices: devices,
            items: items, tombstones: tombstones, acks: acks, owner: top.owner ?? nil, members: top.members ?? [:],
            attachments: top.attachments ?? [:], successions: top.successions ?? [:])
    }

    // MARK: Attachments (schema 4)

    /// The most attachments (live and detached) a document may hold.
    static let maxAttachments = 100_000

    /// Reads `attachments`: attachment id → registers `blob`, `caption`, `item`, `name`, and
    /// `deleted` when detached. A live attachment holds all four; a detached one `deleted` and
    /// any of the four.
    static func decodeAttachments(_ c: inout DecodeContext) throws -> [AttachmentID: Attachment]? {
        try decodeIDMap(&c, expected: "attachments (an object of attachment id → attachment)", limit: maxAttachments, what: "attachments") { c in
            var attachment = Attachment()
            var ok = true
            var mask: UInt32 = 0
            guard
                try c.readObject("an attachment (an object of registers)", { c, key in
                    if key.equals("blob") {
                        try c.member(key, 0, &mask, "blob") { c in attachment.blob = try decodeRegister(&c, decodeBlob) }
                        ok = ok && attachment.blob != nil
                    } else if key.equals("caption") {
                        try c.member(key, 1, &mask, "caption") { c in attachment.caption = try decodeRegister(&c, decodeCaption) }
                        ok = ok && attachment.caption != nil
                    } else if key.equals("deleted") {
                        try c.member(key, 2, &mask, "deleted") { c in attachment.deleted = try decodeRegister(&c, decodeDeletion) }
                        ok = ok && attachment.deleted != nil
                    } else if key.equals("item") {
                        try c.member(key, 3, &mask, "item") { c in attachment.item = try decodeRegister(&c, decodeItemReference) }
                        ok = ok && attachment.item != nil
                    } else if key.equals("name") {
                        try c.member(key, 4, &mask, "name") { c in attachment.name = try decodeRegister(&c, decodeAttachmentName) }
                        ok = ok && attachment.name != nil
                    } else {
                        ok = false
                        try c.unknownKey(key)
                    }
                })
            else { return nil }
            // Detached: `deleted` and any subset; live: all four.
            if mask & 1 << 2 == 0 { c.requireKeys(["blob", "caption", "deleted", "item", "name"], seen: mask | 1 << 2) }
            guard ok, mask & 1 << 2 != 0 || attachment.isComplete else { return nil }
            return attachment
        }
    }

    /// Reads a blob reference `{"sealed"?, "sha256", "size", "type"}`; the pointer of a
    /// `sealed` (a schema 7 key) is added to the context's `schema7Pointers`.
    static func decodeBlob(_ c: inout DecodeContext) throws -> BlobReference? {
        var sealed: SealedBlob?
        var sha256: String?
        var size: Int64?
        var type: String?
        var ok = true
        var mask: UInt32 = 0
        guard
            try c.readObject("a blob (an object with \"sha256\", \"size\" and \"type\")", { c, key in
                if key.equals("sealed") {
                    try c.member(key, 0, &mask, "sealed") { c in
                        c.schema7Pointers.append(c.pointer)
                        sealed = try decodeSealed(&c)
                        ok = ok && sealed != nil
                    }
                } else if key.equals("sha256") {
                    try c.member(key, 1, &mask, "sha256") { c in
                        sha256 = try decodeDigest(&c)
                        ok = ok && sha256 != nil
                    }
                } else if key.equals("size") {
                    try c.member(key, 2, &mask, "size") { c in
                        size = try c.readInteger(0...BlobReference.maxSize, "a size in bytes")
                        ok = ok && size != nil
                    }
                } else if key.equals("type") {
                    try c.member(key, 3, &mask, "type") { c in
                        guard let text = try c.readString("a media type such as image/jpeg")?.text else { ok = false; return }
                        guard BlobReference.isMediaType(text) else {
                            ok = false
                            c.report("expected a media type such as image/jpeg (lower case, type/subtype), found \"\(text.prefix(80))\"")
                            return
                        }
                        type = text
                    }
                } else {
                    ok = false
                    try c.unknownKey(key)
                }
            })
        else { return nil }
        c.requireKeys(["sealed", "sha256", "size", "type"], seen: mask | 1)
        guard ok, let sha256, let size, let type else { return nil }
        if let sealed, sealed.size != SealedBlob.sealedSize(plaintext: size) {
            c.path.append(.key("sealed"))
            c.report(
                "expected a sealed size of \(SealedBlob.sealedSize(plaintext: size)) bytes (the secret stream of \(size) bytes), found \(sealed.size)",
                at: .key("size"))
            c.path.removeLast()
            return nil
        }
        return BlobReference(sha256: sha256, size: size, type: type, sealed: sealed)
    }

    /// Reads a SHA-256 as 64 lowercase hex digits.
    private static func decodeDigest(_ c: inout DecodeContext) throws -> String? {
        guard let text = try c.readString("a SHA-256 as 64 lowercase hex digits")?.text else { return nil }
        guard BlobReference.isDigest(text) else {
            c.report("expected a SHA-256 as 64 lowercase hex digits, found \"\(text.prefix(80))\"")
            return nil
        }
        return text
    }

    /// Reads a sealed copy `{"key", "sha256", "size"}` (schema 7): the key as 44 characters of
    /// canonical base64 of 32 bytes, the sealed bytes' SHA-256 and size.
    static func decodeSealed(_ c: inout DecodeContext) throws -> SealedBlob? {
        var key: [UInt8]?
        var sha256: String?
        var size: Int64?
        var ok = true
        var mask: UInt32 = 0
        guard
            try c.readObject("a sealed copy (an object with \"key\", \"sha256\" and \"size\")", { c, name in
                if name.equals("key") {
                    try c.member(name, 0, &mask, "key") { c in
                        guard let text = try c.readString("a blob key (44 characters of base64)")?.text else { ok = false; return }
                        key = Base64.decode(text, count: SealedBlob.keyBytes)
                        if key == nil {
                            ok = false
                            c.report("expected a blob key as 44 characters of base64 of 32 bytes, found \"\(text.prefix(80))\"")
                        }
                    }
                } else if name.equals("sha256") {
                    try c.member(name, 1, &mask, "sha256") { c in
                        sha256 = try decodeDigest(&c)
                        ok = ok && sha256 != nil
                    }
                } else if name.equals("size") {
                    try c.member(name, 2, &mask, "size") { c in
                        size = try c.readInteger(0...SealedBlob.sealedSize(plaintext: BlobReference.maxSize), "a sealed size in bytes")
                        ok = ok && size != nil
                    }
                } else {
                    ok = false
                    try c.unknownKey(name)
                }
            })
        else { return nil }
        c.requireKeys(["key", "sha256", "size"], seen: mask)
        guard ok, let key, let sha256, let size else { return nil }
        return SealedBlob(sha256: sha256, size: size, key: key)
    }

    /// Reads the item an attachment belongs to: an item id.
    static func decodeItemReference(_ c: inout DecodeContext) throws -> ItemID? {
        try c.readIdentifier()
    }

    /// Reads an attachment's name (`TextRule.attachmentName`, and no `/`, `\\`, `.` or `..`:
    /// it becomes a file name at `extract`).
    static func decodeAttachmentName(_ c: inout DecodeContext) throws -> String? {
        guard let text = try c.readString("an attachment name (text)")?.text else { return nil }
        if let problem = AttachmentRules.nameProblem(text) {
            c.report(problem)
            return nil
        }
        return text
    }

    /// Reads a caption: null, or text by `TextRule.caption`.
    static func decodeCaption(_ c: inout DecodeContext) throws -> String?? {
        if c.scanner.peekKind() == .literal, c.scanner.consumeNull() { return .some(nil) }
        guard let text = try c.readString("a caption (text or null)")?.text else { return nil }
        if let violation = TextRule.caption.violation(in: text) {
            c.report(TextRule.caption.message(for: violation, what: "a caption"))
            return nil
        }
        return .some(text)
    }

    // MARK: Members and signatures (schema 3)

    /// Reads an X25519 encryption key (schema 6): 44 characters of canonical standard base64 of 32 bytes.
    static func decodeEncryptionKey(_ c: inout DecodeContext) throws -> EncryptionPublicKey? {
        try decodeBase64Key(&c, what: "an X25519 encryption key", EncryptionPublicKey.init(base64:))
    }

    /// Reads a public key: 44 characters of canonical standard base64 of 32 bytes.
    static func decodeKey(_ c: inout DecodeContext) throws -> PublicKey? {
        try decodeBase64Key(&c, what: "a public key", PublicKey.init(base64:))
    }

    /// Reads 44 characters of canonical standard base64 of 32 bytes as the key `make` builds.
    private static func decodeBase64Key<Key>(_ c: inout DecodeContext, what: String, _ make: (String) -> Key?) throws -> Key? {
        guard let text = try c.readString("\(what) (44 characters of base64)")?.text else { return nil }
        guard let key = make(text) else {
            c.report("expected \(what) as 44 characters of base64 of 32 bytes, found \"\(text.prefix(80))\"")
            return nil
        }
        return key
    }

    /// Reads a signature: 88 characters of canonical standard base64 of 64 bytes.
    static func decodeSignature(_ c: inout DecodeContext) throws -> [UInt8]? {
        guard let text = try c.readString("a signature (88 characters of base64)")?.text else { return nil }
        guard let bytes = Base64.decode(text, count: 64) else {
            c.report("expected a signature as 88 characters of base64 of 64 bytes, found \"\(text.prefix(100))\"")
            return nil
        }
        return bytes
    }

    /// Reads the file's signature, which must be 88 plain characters (no escapes), and where
    /// they are in the input.
    static func decodeSignatureValue(_ c: inout DecodeContext) throws -> (bytes: [UInt8], range: Range<Int>)? {
        guard c.scanner.peekKind() == .string else {
            try c.mismatch("a signature (88 characters of base64)")
            return nil
        }
        if let span = try c.scanner.readPlainASCIIString(), let base = span.baseAddress {
            let text = String(decoding: span, as: UTF8.self)
            guard let bytes = Base64.decode(text, count: 64) else {
                c.report("expected a signature as 88 characters of base64 of 64 bytes, found \"\(text.prefix(100))\"")
                return nil
            }
            let start = base - c.scanner.base
            return (bytes, start..<(start + span.count))
        }
        _ = try c.scanner.readString()
        c.report("expected the signature as 88 plain characters of base64, found a string with escapes or other characters")
        return nil
    }

    /// Reads `owner`: null (an open trip) or `{"claim", "key"}`; the claim is checked by
    /// `MemberRules`.
    static func decodeOwner(_ c: inout DecodeContext) throws -> TripOwner?? {
        if c.scanner.peekKind() == .literal, c.scanner.consumeNull() { return .some(nil) }
        var key: PublicKey?
        var claim: [UInt8]?
        var mask: UInt32 = 0
        guard
            try c.readObject("the owner (null, or an object with \"claim\" and \"key\")", { c, name in
                if name.equals("claim") {
                    try c.member(name, 0, &mask, "claim") { c in claim = try decodeSignature(&c) }
                } else if name.equals("key") {
                    try c.member(name, 1, &mask, "key") { c in key = try decodeKey(&c) }
                } else {
                    try c.unknownKey(name)
                }
            })
        else { return nil }
        c.requireKeys(["claim", "key"], seen: mask)
        guard let key, let claim else { return nil }
        return .some(TripOwner(key: key, claim: claim))
    }

    private static let grantKeys: [StaticString] = ["box", "key", "name", "rev", "role", "seen", "sig"]

    /// Reads `members`: device id → grant; signatures and clocks are checked by `MemberRules`.
    /// The pointer of each grant's `name` (a schema 5 key) is added to `schema5`, of each
    /// grant's `box` (a schema 6 key) to `schema6`.
    static func decodeMembers(_ c: inout DecodeContext, schema5: inout [String], schema6: inout [String]) throws -> [DeviceID: MemberGrant]? {
        try decodeIDMap(&c, expected: "members (an object of device id → grant)", limit: maxClockEntries, what: "members") { c in
            var box: EncryptionPublicKey?
            var key: PublicKey?
            var grantName: String?
            var rev: Rev?
            var role: MemberRole?
            var seen: VersionVector?
            var signature: [UInt8]?
            var mask: UInt32 = 0
            var ok = true
            guard
                try c.readObject("a grant (an object with \"key\", \"rev\", \"role\", \"sig\")", { c, name in
                    if name.equals("box") {
                        try c.member(name, 0, &mask, "box") { c in
                            schema6.append(c.pointer)
                            box = try decodeEncryptionKey(&c)
                            if box == nil { ok = false }
                        }
                    } else if name.equals("key") {
                        try c.member(name, 1, &mask, "key") { c in key = try decodeKey(&c) }
                    } else if name.equals("name") {
                        try c.member(name, 2, &mask, "name") { c in
                            schema5.append(c.pointer)
                            grantName = try decodeName(&c)
                            if grantName == nil { ok = false }
                        }
                    } else if name.equals("rev") {
                        try c.member(name, 3, &mask, "rev") { c in rev = try decodeRev(&c) }
                    } else if name.equals("role") {
                        try c.member(name, 4, &mask, "role") { c in
                            guard let text = try c.readString("a role (owner, editor, viewer or removed)")?.text else { return }
                            role = MemberRole(rawValue: text)
                            if role == nil { c.report("expected a role: owner, editor, viewer or removed, found \"\(text.prefix(40))\"") }
                        }
                    } else if name.equals("seen") {
                        try c.member(name, 5, &mask, "seen") { c in
                            seen = try decodeClock(&c)
                            if seen == nil { ok = false }
                        }
                    } else if name.equals("sig") {
                        try c.member(name, 6, &mask, "sig") { c in signature = try decodeSignature(&c) }
                    } else {
                        ok = false
                        try c.unknownKey(name)
                    }
                })
            else { return nil }
            c.requireKeys(grantKeys, seen: mask | 1 << 0 | 1 << 2 | 1 << 5)
            guard ok, let key, let rev, let role, let signature else { return nil }
            if role.carriesSeen != (seen != nil) {
                if role.carriesSeen {
                    c.report("missing key \"seen\", expected a \(role.rawValue) grant to record the owner's clock")
                } else {
                    c.report("unexpected key \"seen\", only viewer and removed grants record the owner's clock", at: .key("seen"))
                }
                return nil
            }
            return MemberGrant(key: key, name: grantName, box: box, role: role, rev: rev, seen: seen, signature: signature)
        }
    }

    // MARK: Maps keyed by id

    /// Reads an object keyed by UUIDs, refusing duplicates and (past `limit`) extra entries.
    static func decodeIDMap<Value>(
        _ c: inout DecodeContext, expected: String, limit: Int, what: String, expectedCount: Int = 0,
        _ decodeValue: (inout DecodeContext) throws -> Value?
    ) throws -> [Identifier: Value]? {
        var result: [Identifier: Value] = [:]
        if expectedCount > 0 { result.reserveCapacity(min(expectedCount, limit)) }
        var ok = true
        var entries = 0
        var last: Identifier?
        let isObject = try c.readObject(expected) { c, key in
            guard let id = try c.identifierKey(key) else {
                ok = false
                return
            }
            entries += 1
            if entries > limit {
                if entries == limit + 1 { c.report("more than \(limit) \(what), expected at most \(limit)") }
                ok = false
                try c.scanner.skipValue()
                return
            }
            // Canonical files list ids in increasing order: an id above every one before it
            // cannot be a duplicate, so only out-of-order ids need a lookup.
            let increasing = last.map { $0 < id } ?? true
            if increasing { last = id }
            if !increasing && result.index(forKey: id) != nil {
                c.report("duplicate key \"\(id)\", expected each id once")
                ok = false
                try c.scanner.skipValue()
                return
            }
            c.path.append(.id(id))
            if let value = try decodeValue(&c) { result[id] = value } else { ok = false }
            c.path.removeLast()
        }
        return isObject && ok ? result : nil
    }

    /// Reads a version vector: UUID → counter.
    static func decodeClock(_ c: inout DecodeContext) throws -> VersionVector? {
        let map = try decodeIDMap(
            &c, expected: "a clock (an object of device id → counter)", limit: maxClockEntries, what: "clock entries"
        ) { c in try c.readCounter() }
        return map.map { VersionVector($0) }
    }

    static func decodeAcks(_ c: inout DecodeContext) throws -> [DeviceID: VersionVector]? {
        try decodeIDMap(&c, expected: "acks (an object of device id → clock)", limit: maxClockEntries, what: "acks entries") { c in
            try decodeClock(&c)
        }
    }

    static func decodeDevices(_ c: inout DecodeContext) throws -> [DeviceID: DeviceInfo]? {
        try decodeIDMap(&c, expected: "devices (an object of device id → device)", limit: maxClockEntries, what: "devices") { c in
            var name: Register<String>?
            var mask: UInt32 = 0
            guard
                try c.readObject("a device (an object with \"name\")", { c, key in
                    if key.equals("name") {
                        try c.member(key, 0, &mask, "name") { c in name = try decodeRegister(&c, decodeName) }
                    } else {
                        try c.unknownKey(key)
                    }
                })
            else { return nil }
            c.requireKeys(["name"], seen: mask)
            return name.map { DeviceInfo(name: $0) }
        }
    }

    /// Reads `trip`: the `name` register and, in schema 5, the optional `zone` register (its
    /// pointer is added to `schema5`, for the version check at the end).
    static func decodeTripInfo(_ c: inout DecodeContext, schema5: inout [String]) throws -> TripInfo? {
        var name: Register<String>?
        var zone: Register<String?>?
        var ok = true
        var mask: UInt32 = 0
        guard
            try c.readObject("trip (an object with \"name\" and, in schema 5, \"zone\")", { c, key in
                if key.equals("name") {
                    try c.member(key, 0, &mask, "name") { c in name = try decodeRegister(&c, decodeName) }
                } else if key.equals("zone") {
                    try c.member(key, 1, &mask, "zone") { c in
                        schema5.append(c.pointer)
                        zone = try decodeRegister(&c, decodeZone)
                        if zone == nil { ok = false }
                    }
                } else {
                    try c.unknownKey(key)
                }
            })
        else { return nil }
        c.requireKeys(["name"], seen: mask)
        guard ok else { return nil }
        return name.map { TripInfo(name: $0, zone: zone) }
    }

    /// Reads the trip's zone: an IANA-shaped zone id (`ZoneID.isWellFormed`), or null (cleared).
    static func decodeZone(_ c: inout DecodeContext) throws -> String?? {
        if c.scanner.peekKind() == .literal, c.scanner.consumeNull() { return .some(nil) }
        guard let text = try c.readString("a zone id string (or null)")?.text else { return nil }
        guard ZoneID.isWellFormed(text) else {
            c.report(ZoneID.expectation(found: text))
            return nil
        }
        return .some(text)
    }

    // MARK: Successions (schema 5)

    private static let successionKeys: [StaticString] = ["from", "key", "signature"]

    /// Reads `successions`: NEW device id → `{"from", "key", "signature"}`. The shape only: ids
    /// canonical, a 32-byte key, a 64-byte signature, `from` not the new id. The signature needs
    /// `from`'s member key and is checked where a succession is accepted.
    static func decodeSuccessions(_ c: inout DecodeContext) throws -> [DeviceID: Succession]? {
        try decodeIDMap(&c, expected: "successions (an object of new device id → succession)", limit: maxClockEntries, what: "successions") { c in
            guard case .id(let to)? = c.path.last else { return nil }
            var from: Identifier?
            var key: PublicKey?
            var signature: [UInt8]?
            var ok = true
            var mask: UInt32 = 0
            guard
                try c.readObject("a succession (an object with \"from\", \"key\" and \"signature\")", { c, name in
                    if name.equals("from") {
                        try c.member(name, 0, &mask, "from") { c in
                            from = try c.readIdentifier()
                            if from == nil { ok = false }
                        }
                    } else if name.equals("key") {
                        try c.member(name, 1, &mask, "key") { c in
                            key = try decodeKey(&c)
                            if key == nil { ok = false }
                        }
                    } else if name.equals("signature") {
                        try c.member(name, 2, &mask, "signature") { c in
                            signature = try decodeSignature(&c)
                            if signature == nil { ok = false }
                        }
                    } else {
                        ok = false
                        try c.unknownKey(name)
                    }
                })
            else { return nil }
            c.requireKeys(successionKeys, seen: mask)
            guard ok, let from, let key, let signature else { return nil }
            if from == to {
                c.report("a succession from device \(from) to itself, expected \"from\" to name the old device, not the new one", at: .key("from"))
                return nil
            }
            return Succession(from: from, key: key, signature: signature)
        }
    }

    static func decodeItems(_ c: inout DecodeContext) throws -> [ItemID: ItemFields]? {
        // A live item takes about 650 bytes of canonical JSON: reserve for what the file can hold
        // (slots hold a key and a pointer, so reserving a little too much is cheap).
        let estimate = (c.scanner.count - c.scanner.offset) / 640
        return try decodeIDMap(&c, expected: "items (an object of item id → item)", limit: maxItems, what: "items", expectedCount: estimate) { c in
            try decodeItemFields(&c, complete: true)
        }
    }

    /// Why a deferred item could not be delimited (the data ends inside it): the reader then
    /// decodes the file in one strict pass, which says precisely what is wrong.
    struct UndelimitedItem: Error {}

    /// The items object with each value delimited, not decoded: id → index of its byte range
    /// in `spans`. Keys are checked as `decodeItems` checks them; `hints` are value ranges found
    /// before (`itemHints`).
    static func delimitItems(
        _ c: inout DecodeContext, hints: [Range<Int>] = [], into spans: inout [(id: ItemID, bytes: Range<Int>)]
    ) throws -> [ItemID: Int]? {
        let estimate = (c.scanner.count - c.scanner.offset) / 640
        spans.reserveCapacity(estimate)
        var hint = 0
        return try decodeIDMap(&c, expected: "items (an object of item id → item)", limit: maxItems, what: "items", expectedCount: estimate) { c in
            // decodeIDMap has put the item's id on the path.
            guard case .id(let id)? = c.path.last else { throw UndelimitedItem() }
            c.scanner.skipWhitespace()
            let start = c.scanner.offset
            if hint < hints.count && hints[hint].lowerBound == start {
                c.scanner.offset = hints[hint].upperBound
                hint += 1
            } else {
                guard CanonicalItem.skip(&c.scanner) || c.scanner.skipValueUnchecked() else { throw UndelimitedItem() }
            }
            spans.append((id, start..<c.scanner.offset))
            return spans.count - 1
        }
    }

    static func decodeTombstones(_ c: inout DecodeContext) throws -> [ItemID: Tombstone]? {
        try decodeIDMap(&c, expected: "tombstones (an object of item id → tombstone)", limit: maxItems, what: "tombstones") { c in
            var deleted: Register<Deletion>?
            var item: ItemFields?
            var mask: UInt32 = 0
            guard
                try c.readObject("a tombstone (an object with \"deleted\" and \"item\")", { c, key in
                    if key.equals("deleted") {
                        try c.member(key, 0, &mask, "deleted") { c in deleted = try decodeRegister(&c, decodeDeletion) }
                    } else if key.equals("item") {
                        try c.member(key, 1, &mask, "item") { c in item = try decodeItemFields(&c, complete: false) }
                    } else {
                        try c.unknownKey(key)
                    }
                })
            else { return nil }
            c.requireKeys(["deleted", "item"], seen: mask)
            guard let deleted, let item else { return nil }
            c.checkSeen(deleted)
            return Tombstone(deleted: deleted, item: item)
        }
    }

    /// Reads an item's registers in any key order, by the table of its fields
    /// (`CanonicalItem.fields`, whose indices are the mask bits); a live item (`complete`) must
    /// hold all six.
    static func decodeItemFields(_ c: inout DecodeContext, complete: Bool) throws -> ItemFields? {
        guard c.scanner.peekKind() == .object else {
            try c.mismatch(complete ? "an item (an object of registers)" : "a tombstone's item (an object of registers)")
            return nil
        }
        let fields = CanonicalItem.fields
        var title: Register<String>?
        var sortKey: Register<String>?
        var start: Register<TripTime?>?
        var end: Register<TripTime?>?
        var place: Register<String?>?
        var note: Register<String?>?
        var ok = true
        var mask: UInt32 = 0
        try c.scanner.beginObject()
        var first = true
        while let key = try c.scanner.nextKey(first: &first) {
            guard let bit = CanonicalItem.index(of: key, in: fields) else {
                ok = false
                try c.unknownKey(key)
                continue
            }
            if mask & (1 << bit) != 0 {
                try c.duplicateKey(key)
                continue
            }
            // The bits follow the canonical (byte) order of the field names.
            if mask >> bit != 0 { c.scanner.departsFromCanonical = true }
            mask |= 1 << bit
            c.path.append(.key(fields[bit].name))
            switch fields[bit].field {
            case .end:
                end = try decodeRegister(&c, decodeTime)
                ok = ok && end != nil
            case .note:
                note = try decodeRegister(&c, decodeNote)
                ok = ok && note != nil
            case .place:
                place = try decodeRegister(&c, decodePlace)
                ok = ok && place != nil
            case .sortKey:
                sortKey = try decodeRegister(&c, decodeSortKey)
                ok = ok && sortKey != nil
            case .start:
                start = try decodeRegister(&c, decodeTime)
                ok = ok && start != nil
            case .title:
                title = try decodeRegister(&c, decodeTitle)
                ok = ok && title != nil
            }
            c.path.removeLast()
        }
        if complete && mask != (1 << fields.count) - 1 {
            c.requireKeys(
                CanonicalItem.names, seen: mask,
                hint: ": a live item holds every field, and a cleared field is written as \"value\": null, never removed")
            return nil
        }
        guard ok else { return nil }
        c.checkTimes(start: start, end: end)
        return ItemFields(
            title: consume title, sortKey: consume sortKey, start: consume start, end: consume end,
            place: consume place, note: consume note)
    }

    // MARK: Registers

    private static let registerKeys: [StaticString] = ["rev", "value"]

    /// Reads `{"value", "rev", "conflicts"}` and checks that the winner's rev is the greatest
    /// and that no rev repeats. (A plain loop with the steps of `readObject` and `member`.)
    static func decodeRegister<V: ExactValue>(
        _ c: inout DecodeContext, _ decodeValue: (inout DecodeContext) throws -> V?
    ) throws -> Register<V>? {
        var value: V?
        var rev: Rev?
        var conflicts: [Versioned<V>]?
        var ok = true
        var mask: UInt32 = 0
        guard c.scanner.peekKind() == .object else {
            try c.mismatch("a register (an object with \"value\" and \"rev\")")
            return nil
        }
        try c.scanner.beginObject()
        var first = true
        // Canonical order: "conflicts", "rev", "value" (mask bits 0b100, 0b1, 0b10).
        var rank = 0
        func follows(_ next: Int) {
            if next <= rank { c.scanner.departsFromCanonical = true }
            rank = next
        }
        while let key = try c.scanner.nextKey(first: &first) {
            if key.equals("value") {
                follows(3)
                if mask & 0b10 != 0 {
                    try c.duplicateKey(key)
                    continue
                }
                mask |= 0b10
                c.path.append(.key("value"))
                value = try decodeValue(&c)
                ok = ok && value != nil
                c.path.removeLast()
            } else if key.equals("rev") {
                follows(2)
                if mask & 0b1 != 0 {
                    try c.duplicateKey(key)
                    continue
                }
                mask |= 0b1
                c.path.append(.key("rev"))
                rev = try decodeRev(&c)
                c.path.removeLast()
            } else if key.equals("conflicts") {
                follows(1)
                if mask & 0b100 != 0 {
                    try c.duplicateKey(key)
                    continue
                }
                mask |= 0b100
                c.path.append(.key("conflicts"))
                conflicts = try decodeConflicts(&c, decodeValue)
                ok = ok && conflicts != nil
                c.path.removeLast()
            } else {
                ok = false
                try c.unknownKey(key)
            }
        }
        c.requireKeys(registerKeys, seen: mask & 0b11)
        guard ok, let rev, let decoded = consume value else { return nil }
        var register = Register(value: consume decoded, rev: rev)
        if let conflicts = consume conflicts {
            guard attachConflicts(conflicts, to: &register, &c) else { return nil }
        }
        c.checkDots(register)
        return register
    }

    /// Puts `conflicts` into `register` after checking that the winner is the greatest version
    /// (by rev, then, for two values under one rev, by value bytes: docs/DESIGN.md, "Forks") and
    /// that no write (dot and value) appears twice; false, with the problem reported, otherwise.
    private static func attachConflicts<V: ExactValue>(_ conflicts: [Versioned<V>], to register: inout Register<V>, _ c: inout DecodeContext) -> Bool {
        let rev = register.rev
        let winner = register.current
        // Per rev, the first version under it (-1: the winner) and, once the rev repeats,
        // the value bytes under it: linear even with a thousand values under one dot.
        var firstUnder: [Rev: Int] = [rev: -1]
        var bytesUnder: [Rev: Set<[UInt8]>] = [:]
        for (index, conflict) in conflicts.enumerated() {
            // Only a rev seen before can repeat a write: the values are compared just then.
            var repeated = false
            if let first = firstUnder[conflict.rev] {
                if bytesUnder[conflict.rev] == nil {
                    bytesUnder[conflict.rev] = [(first < 0 ? winner : conflicts[first]).value.canonicalBytes()]
                }
                repeated = !(bytesUnder[conflict.rev]?.insert(conflict.value.canonicalBytes()).inserted ?? true)
            } else {
                firstUnder[conflict.rev] = index
            }
            if repeated || Versioned.precedes(winner, conflict) {
                c.path.append(.key("conflicts"))
                c.path.append(.index(index))
                if repeated {
                    c.report("the value under rev \(conflict.rev) appears twice in this register, expected every write once", at: .key("rev"))
                } else if conflict.rev == rev {
                    c.report(
                        "rev \(conflict.rev) carries two values and this one sorts after the winner's, expected the value with the greater bytes as \"value\"",
                        at: .key("value"))
                } else {
                    c.report(
                        "rev \(conflict.rev) is greater than the winning rev \(rev), expected the greatest rev as \"value\" and the others in \"conflicts\"",
                        at: .key("rev"))
                }
                c.path.removeLast(2)
                return false
            }
        }
        if conflicts.count > 1 {
            // Written newest first; any other order is read, sorted, and is not canonical.
            if !zip(conflicts, conflicts.dropFirst()).allSatisfy({ Versioned.precedes($1, $0) }) { c.scanner.departsFromCanonical = true }
            register.conflicts = conflicts.sorted { Versioned.precedes($1, $0) }
        } else {
            register.conflicts = conflicts
        }
        return true
    }

    static func decodeConflicts<V>(
        _ c: inout DecodeContext, _ decodeValue: (inout DecodeContext) throws -> V?
    ) throws -> [Versioned<V>]? {
        var result: [Versioned<V>] = []
        var ok = true
        let isArray = try c.readArray("conflicts (an array of {\"value\", \"rev\"})") { c, index in
            if index >= maxConflicts {
                if index == maxConflicts { c.report("more than \(maxConflicts) conflicts, expected at most \(maxConflicts)") }
                ok = false
                try c.scanner.skipValue()
                return
            }
            var value: V?
            var rev: Rev?
            var mask: UInt32 = 0
            let isObject = try c.readObject("a conflict (an object with \"value\" and \"rev\")") { c, key in
                if key.equals("value") {
                    try c.member(key, 1, &mask, "value") { c in value = try decodeValue(&c) }
                } else if key.equals("rev") {
                    try c.member(key, 0, &mask, "rev") { c in rev = try decodeRev(&c) }
                } else {
                    ok = false
                    try c.unknownKey(key)
                }
            }
            c.requireKeys(registerKeys, seen: mask)
            if isObject, let value, let rev { result.append(Versioned(value: value, rev: rev)) } else { ok = false }
        }
        guard isArray else { return nil }
        if isArray && result.isEmpty && ok {
            c.report("expected at least one conflict (omit \"conflicts\" when there is none)")
            return nil
        }
        return ok ? result : nil
    }

    /// Reads `[counter, "device id"]`.
    static func decodeRev(_ c: inout DecodeContext) throws -> Rev? {
        var counter: UInt64?
        var device: Identifier?
        var length = 0
        let isArray = try c.readArray("a rev ([counter, device id])") { c, index in
            length = index + 1
            switch index {
            case 0: counter = try c.readCounter()
            case 1: device = try c.readIdentifier()
            default: try c.scanner.skipValue()
            }
        }
        guard isArray else { return nil }
        if length != 2 {
            c.report("expected a rev of exactly 2 elements [counter, device id], found \(length)")
            return nil
        }
        guard let counter, let device else { return nil }
        return Rev(counter: counter, device: device)
    }

    // MARK: Values

    static func decodeName(_ c: inout DecodeContext) throws -> String? {
        try c.readText(.name, what: "a name")
    }

    static func decodeTitle(_ c: inout DecodeContext) throws -> String? {
        try c.readText(.title, what: "a title")
    }

    static func decodePlace(_ c: inout DecodeContext) throws -> String?? {
        if c.scanner.consumeNull() { return .some(nil) }
        guard let text = try c.readText(.place, what: "a place (or null)") else { return nil }
        return .some(text)
    }

    static func decodeNote(_ c: inout DecodeContext) throws -> String?? {
        if c.scanner.consumeNull() { return .some(nil) }
        guard let text = try c.readText(.note, what: "a note (or null)") else { return nil }
        return .some(text)
    }

    static func decodeSortKey(_ c: inout DecodeContext) throws -> String? {
        guard let scanned = try c.readString("a sortKey (a string)") else { return nil }
        guard SortKeyRules.isValid(scanned.text) else {
            c.report("expected a sortKey of \(SortKeyRules.requirement), found \"\(scanned.text.prefix(140))\"")
            return nil
        }
        return scanned.text
    }

    /// Reads a time (`{"local", "zone"}` or `{"date"}`) or null.
    static func decodeTime(_ c: inout DecodeContext) throws -> TripTime?? {
        if c.scanner.consumeNull() { return .some(nil) }
        var local: LocalDateTime?
        var date: LocalDate?
        var zone: String?
        var ok = true
        var mask: UInt32 = 0
        guard
            try c.readObject("a time ({\"local\", \"zone\"} or {\"date\"}) or null", { c, key in
                if key.equals("local") {
                    try c.member(key, 1, &mask, "local") { c in
                        // Plain ASCII (the only form a valid time has): parsed from the bytes.
                        if c.scanner.peekKind() == .string, let span = try c.scanner.readPlainASCIIString() {
                            local = LocalTimeParser.dateTime(utf8: span)
                            if local == nil {
                                ok = false
                                c.report("expected a local date-time YYYY-MM-DDTHH:MM that exists on the calendar, found \"\(String(decoding: span, as: UTF8.self).prefix(40))\"")
                            }
                            return
                        }
                        guard let text = try c.readString("a local date-time string") else { ok = false; return }
                        local = LocalTimeParser.dateTime(text.text)
                        if local == nil {
                            ok = false
                            c.report("expected a local date-time YYYY-MM-DDTHH:MM that exists on the calendar, found \"\(text.text.prefix(40))\"")
                        }
                    }
                } else if key.equals("zone") {
                    try c.member(key, 2, &mask, "zone") { c in
                        if c.scanner.peekKind() == .string, let span = try c.scanner.readPlainASCIIString() {
                            if ZoneID.isWellFormed(utf8: span) {
                                zone = c.zoneString(span)
                            } else {
                                ok = false
                                c.report(ZoneID.expectation(found: String(decoding: span, as: UTF8.self)))
                            }
                            return
                        }
                        guard let text = try c.readString("a zone id string") else { ok = false; return }
                        if ZoneID.isWellFormed(text.text) {
                            zone = text.text
                        } else {
                            ok = false
                            c.report(ZoneID.expectation(found: text.text))
                        }
                    }
                } else if key.equals("date") {
                    try c.member(key, 0, &mask, "date") { c in
                        if c.scanner.peekKind() == .string, let span = try c.scanner.readPlainASCIIString() {
                            date = LocalTimeParser.date(utf8: span)
                            if date == nil {
                                ok = false
                                c.report("expected a date YYYY-MM-DD that exists on the calendar, found \"\(String(decoding: span, as: UTF8.self).prefix(40))\"")
                            }
                            return
                        }
                        guard let text = try c.readString("a date string") else { ok = false; return }
                        date = LocalTimeParser.date(text.text)
                        if date == nil {
                            ok = false
                            c.report("expected a date YYYY-MM-DD that exists on the calendar, found \"\(text.text.prefix(40))\"")
                        }
                    }
                } else {
                    ok = false
                    try c.unknownKey(key)
                }
            })
        else { return nil }
        guard ok else { return nil }
        switch mask {
        case 0b110:
            if let local, let zone { return .some(.local(local, zone: zone)) }
            return nil
        case 0b001:
            if let date { return .some(.date(date)) }
            return nil
        default:
            c.report("expected either {\"local\", \"zone\"} or {\"date\"} alone")
            return nil
        }
    }

    /// Reads a deletion `{"at", "seen"}`.
    static func decodeDeletion(_ c: inout DecodeContext) throws -> Deletion? {
        var at: UTCTimestamp?
        var seen: VersionVector?
        var ok = true
        var mask: UInt32 = 0
        guard
            try c.readObject("a deletion (an object with \"at\" and \"seen\")", { c, key in
                if key.equals("at") {
                    try c.member(key, 0, &mask, "at") { c in
                        guard let text = try c.readString("a UTC time string") else { ok = false; return }
                        at = LocalTimeParser.timestamp(text.text)
                        if at == nil {
                            ok = false
                            c.report("expected a UTC time YYYY-MM-DDTHH:MM:SSZ, found \"\(text.text.prefix(40))\"")
                        }
                    }
                } else if key.equals("seen") {
                    try c.member(key, 1, &mask, "seen") { c in seen = try decodeClock(&c) }
                } else {
                    ok = false
                    try c.unknownKey(key)
                }
            })
        else { return nil }
        c.requireKeys(["at", "seen"], seen: mask)
        guard ok, let at, let seen else { return nil }
        return Deletion(at: at, seen: seen)
    }
}
