import TripSyncPlatform

/// The second half of reading large files: their live items, delimited by a first strict pass
/// over everything else (`DocumentDecoder.defersItems`), are decoded here on every core, and an
/// item whose bytes equal an item of the same id in an earlier file of the batch is decoded once
/// and shared (two replicas of one trip hold mostly the same items, byte for byte).
///
/// This is only a faster way to the same answer: when anything is not as expected (an item
/// that does not decode cleanly, a dot a shared item holds above this file's clock, a missing
/// result), the file is decoded again in one strict pass, which gives exactly the errors and
/// warnings it always gives. So a file read this way yields the same document and the same
/// warnings as a strict read, or the strict read's own refusal.
enum DeferredItems {
    /// A file whose first pass succeeded with its live items delimited, not decoded.
    struct Delimited: Sendable {
        /// The JSON text (the spans point into it; kept alive until the items are decoded).
        var json: OwnedBytes
        /// The document with no live items yet.
        var document: TripDocument
        /// Each item's id and byte range, in file order.
        var spans: [(id: ItemID, bytes: Range<Int>)]
        /// Item id → index in `spans`.
        var index: [ItemID: Int]
        /// Warnings of the first pass (devices, trip, tombstones).
        var warnings: [ValidationIssue]
        /// The file as named by the caller.
        var file: String
        /// Whether the file was gzip.
        var wasGzip: Bool
        /// The key whose signature over the bytes was verified in the first pass.
        var signer: PublicKey? = nil
    }

    /// One decoded item with the warnings its own checks raised.
    struct DecodedItem: Sendable {
        var fields: ItemFields
        var warnings: [ValidationIssue]
    }

    /// The most items one task decodes.
    static let chunkSize = 512

    /// Decodes the items of every delimited file with `reader`'s zone rules; results in input
    /// order. A file the second step cannot finish is read again by `reader` in one strict pass.
    static func finish(_ files: [Delimited], reader: TripFileReader) -> [Result<LoadedTrip, TripFileError>] {
        let zones = reader.zones
        // Every file's items in runs of `chunkSize`, decoded on every core; an item whose bytes
        // an earlier file holds under the same id points there instead.
        var chunks: [Chunk] = []
        var firstChunk: [Int] = []
        for (k, file) in files.enumerated() {
            firstChunk.append(chunks.count)
            var start = 0
            while start < file.spans.count {
                let end = min(start + chunkSize, file.spans.count)
                chunks.append(Chunk(file: k, spans: start..<end))
                start = end
            }
        }
        let keepsBytes = reader.keepsItemBytes
        let entries = ParallelMap.map(chunks) { chunk in decode(chunk, in: files, zones: zones, keepsBytes: keepsBytes) }
        let table = Entries(chunks: entries, firstChunk: firstChunk)
        return ParallelMap.map(Array(files.indices)) { k in
            assemble(files[k], number: k, files: files, entries: table, reader: reader)
        }
    }

    /// What a chunk found for one item.
    private enum Entry: Sendable {
        /// Decoded from this file's bytes.
        case decoded(DecodedItem)
        /// The same bytes under the same id as an earlier file's item: that file and its span
        /// index (always a decoded entry: the earliest file holding the bytes is the one named).
        case shared(file: Int, span: Int)
    }

    /// A run of one file's items, decoded by one task.
    private struct Chunk: Sendable {
        var file: Int
        var spans: Range<Int>
    }

    /// Every chunk's entries, found by file and span index (nil for a chunk that failed).
    private struct Entries: Sendable {
        var chunks: [[Entry]?]
        var firstChunk: [Int]

        func entry(file: Int, span: Int) -> Entry? {
            chunks[firstChunk[file] + span / DeferredItems.chunkSize]?[span % DeferredItems.chunkSize]
        }

        /// The decoded item behind span `span` of file `file`, following a shared entry to the
        /// file that decoded it; nil when a chunk failed.
        func item(file: Int, span: Int) -> ItemFields? {
            switch entry(file: file, span: span) {
            case .decoded(let item)?: return item.fields
            case .shared(let j, let i)?:
                guard case .decoded(let item)? = entry(file: j, span: i) else { return nil }
                return item.fields
            case nil: return nil
            }
        }
    }

    /// The earliest file before `number` holding the same bytes under the same id.
    private static func sharedSource(_ span: (id: ItemID, bytes: Range<Int>), base: UnsafePointer<UInt8>, before number: Int, in files: [Delimited]) -> Entry? {
        for j in 0..<number {
            let other = files[j]
            guard let i = other.index[span.id], let otherBase = other.json.base else { continue }
            let bytes = other.spans[i].bytes
            if bytes.count == span.bytes.count && Memory.equal(otherBase + bytes.lowerBound, base + span.bytes.lowerBound, bytes.count) {
                return .shared(file: j, span: i)
            }
        }
        return nil
    }

    /// Decodes one chunk strictly; nil when any item is not clean (the file is then read again
    /// in one strict pass).
    private static func decode(_ chunk: Chunk, in files: [Delimited], zones: ZoneRules, keepsBytes: Bool) -> [Entry]? {
        let file = files[chunk.file]
        guard let base = file.json.base else { return nil }
        var context = DecodeContext(scanner: JSONScanner(base: base, count: file.json.count), zones: zones)
        context.cross.setClock(file.document.clock)
        context.path = [.key("items"), .key("items")]
        var out: [Entry] = []
        out.reserveCapacity(chunk.spans.count)
        let keeper = CanonicalBytes.Keeper(file.json)
        for index in chunk.spans {
            let span = file.spans[index]
            if chunk.file > 0, let shared = sharedSource(span, base: UnsafePointer(base), before: chunk.file, in: files) {
                out.append(shared)
                continue
            }
            context.scanner.departsFromCanonical = false
            guard let item = decode(span, &context) else { return nil }
            if keepsBytes && !context.scanner.departsFromCanonical {
                item.fields.storage.canonicalBytes = CanonicalBytes(owner: keeper, range: span.bytes)
            }
            out.append(.decoded(item))
        }
        return out
    }

    /// One item from its bytes, where the strict pass would have decoded it (path, depth, clock).
    private static func decode(_ span: (id: ItemID, bytes: Range<Int>), _ c: inout DecodeContext) -> DecodedItem? {
        c.scanner.offset = span.bytes.lowerBound
        c.scanner.depth = 2  // inside the document and its items object
        c.path[1] = .id(span.id)
        let before = c.cross.issues.count
        // Most items are exactly as the writer wrote them; any other is decoded the general way.
        var decoded = CanonicalItem.decode(&c, end: span.bytes.upperBound)
        if decoded == nil {
            c.scanner.offset = span.bytes.lowerBound
            c.scanner.departsFromCanonical = false
            do {
                decoded = try DocumentDecoder.decodeItemFields(&c, complete: true)
            } catch {
                return nil
            }
        }
        guard let fields = decoded, c.errorCount == 0, c.scanner.offset == span.bytes.upperBound, c.scanner.depth == 2,
            c.cross.complete, c.path.count == 2
        else { return nil }
        if c.cross.issues.count == before { return DecodedItem(fields: fields, warnings: []) }
        let raised = c.cross.issues[before...]
        guard !raised.contains(where: { $0.severity == .error }) else { return nil }
        return DecodedItem(fields: fields, warnings: Array(raised))
    }

    /// A file's document with its items, or the strict pass's answer when an item is missing
    /// or a shared item holds a dot above this file's clock.
    private static func assemble(
        _ file: Delimited, number k: Int, files: [Delimited], entries: Entries, reader: TripFileReader
    ) -> Result<LoadedTrip, TripFileError> {
        let strict = { reader.onePass(file.json, file: file.file, wasGzip: file.wasGzip) }
        // A shared item was checked against its own file's clock; only dots of devices that
        // clock counts further than this file's can be above this file's clock.
        let clock = file.document.clock
        let limits: [[(device: DeviceID, counter: UInt64)]] = files[..<k].map { other in
            other.document.clock.entries.compactMap { entry in entry.value > clock[entry.key] ? (entry.key, clock[entry.key]) : nil }
        }
        // First every entry is checked and its warnings gathered in file order; then the items
        // go straight from the entries into the document's map, so each is retained once here.
        // (A list of the items in between cost two more retains and releases per item, from
        // both cores at once on the items two files share.)
        var warnings = file.warnings
        for span in file.spans.indices {
            guard let entry = entries.entry(file: k, span: span) else { return strict() }
            switch entry {
            case .decoded(let item):
                if !item.warnings.isEmpty { warnings += item.warnings }
            case .shared(let j, let i):
                guard case .decoded(let item)? = entries.entry(file: j, span: i),
                    limits[j].isEmpty || item.fields.dots(within: limits[j])
                else { return strict() }
                if !item.warnings.isEmpty { warnings += item.warnings }
            }
        }
        var document = file.document
        var missing = false
        document.items = file.index.mapValues { span in
            guard let item = entries.item(file: k, span: span) else {
                missing = true  // not after the checks above; read strictly if it ever were
                return ItemFields()
            }
            return item
        }
        if missing { return strict() }
        let issues = DocumentValidator.ordered(warnings + DocumentValidator.finalIssues(in: document, zones: reader.zones))
        return reader.finish(
            document, issues: issues, file: file.file, sourceVersion: TripDocument.currentSchemaVersion, wasGzip: file.wasGzip,
            size: file.json.count
        ).map { loaded in
            var loaded = loaded
            loaded.signedBy = file.signer
            return loaded
        }
    }
}

extension ItemFields {
    /// Whether no dot (winner or conflict) of a device in `limits` is above that device's limit.
    func dots(within limits: [(device: DeviceID, counter: UInt64)]) -> Bool {
        func within<V>(_ register: Register<V>?) -> Bool {
            guard let register else { return true }
            for (device, counter) in limits {
                if register.rev.device == device && register.rev.counter > counter { return false }
                for conflict in register.conflicts where conflict.rev.device == device && conflict.rev.counter > counter {
                    return false
                }
            }
            return true
        }
        return within(title) && within(sortKey) && within(start) && within(end) && within(place) && within(note)
    }
}

