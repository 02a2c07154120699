import TripSyncPlatform

/// Writes a document as canonical JSON: keys in byte order, no insignificant whitespace,
/// integers in plain decimal, conflicts newest first, one trailing newline. The same document
/// always gives the same bytes (`docs/FORMAT.md`, "Canonical bytes").
struct CanonicalWriter: ~Copyable {
    var out: ByteBuffer

    init(capacity: Int) {
        out = ByteBuffer(capacity: capacity)
    }

    /// The canonical bytes of `document`.
    static func encode(_ document: TripDocument) -> [UInt8] {
        let parts = encodeParts(document)
        return Gzip.concatenate(parts)
    }

    /// The most sorted items in one part when a document is written in parts (about 1 MB of
    /// JSON). The cut depends on the item count alone, never on the machine, so the parts (and
    /// the gzip members made of them) are the same bytes everywhere.
    static let itemsPerPart = 1_500

    /// Several parts come in multiples of this, of nearly equal size, so two or four cores
    /// finish together: seven parts on two cores left one core idle for the last part (about
    /// 4.5 ms of a 10,000-item merge, measured), eight finish in four even rounds.
    static let partMultiple = 4

    /// A document cut into parts for writing: the sorted items, and how many parts.
    struct Parts: Sendable {
        let document: TripDocument
        /// The writer's public key when the file is signed: `deviceKey` is written, and the
        /// signature's place holds `FileSignature.placeholder` until `TripFileWriter` fills it.
        let signer: PublicKey?
        /// The live items in id order, as places in `document.items` (sorted once: no hash
        /// lookup per item, and no copy of an item, which would retain it here and release it
        /// when the parts are done: two atomic operations per item on an item other threads
        /// read).
        let items: [(key: ItemID, index: Dictionary<ItemID, ItemFields>.Index)]
        /// The number of parts: one when the items fit in one part, otherwise enough parts of
        /// at most `itemsPerPart` items, rounded up to a multiple of `partMultiple`.
        let count: Int

        init(_ document: TripDocument, signer: PublicKey? = nil) {
            self.document = document
            self.signer = signer
            items = zip(document.items.keys, document.items.indices).map { (key: $0, index: $1) }.sorted { $0.key < $1.key }
            count = Self.count(items: items.count)
        }

        /// The number of parts for `items` items.
        static func count(items: Int) -> Int {
            let needed = (items + CanonicalWriter.itemsPerPart - 1) / CanonicalWriter.itemsPerPart
            if needed <= 1 { return 1 }
            let multiple = CanonicalWriter.partMultiple
            return (needed + multiple - 1) / multiple * multiple
        }

        /// The items of part `index` of `count` parts of `items` items: consecutive runs whose
        /// sizes differ by at most one.
        static func range(_ index: Int, of count: Int, items: Int) -> Range<Int> {
            (index * items / count)..<((index + 1) * items / count)
        }

        /// The bytes of part `index`: the head with the first part, the tail with the last.
        /// Concatenated in order, the parts are the canonical bytes.
        func encode(_ index: Int) -> OwnedBytes {
            encodeMarked(index).bytes
        }

        /// The bytes of part `index`, and in the last part of a signed file the offset of the
        /// signature's placeholder.
        func encodeMarked(_ index: Int) -> (bytes: OwnedBytes, signatureOffset: Int?) {
            let part = Self.range(index, of: count, items: items.count)
            let (lower, upper) = (part.lowerBound, part.upperBound)
            let isFirst = index == 0
            let isLast = index == count - 1
            var capacity = max(upper - lower, 0) * 700
            if isFirst { capacity += 4096 + (document.devices.count + document.acks.count) * 128 + document.attachments.count * 600 }
            if isLast { capacity += 4096 + document.tombstones.count * 700 + document.members.count * 400 }
            var writer = CanonicalWriter(capacity: capacity)
            if isFirst { writer.writeHead(document, signer: signer) }
            if lower < upper { writer.writeItems(items[lower..<upper], of: document.items, first: isFirst) }
            var offset: Int?
            if isLast { offset = writer.writeTail(document, signed: signer != nil) }
            return (writer.out.take(), offset)
        }
    }

    /// The canonical bytes of `document` in consecutive parts (`Parts`), written on every core.
    static func encodeParts(_ document: TripDocument) -> [OwnedBytes] {
        let parts = Parts(document)
        if parts.count == 1 { return [parts.encode(0)] }
        return ParallelMap.map(Array(0..<parts.count)) { parts.encode($0) }
    }

    /// Everything before the first item: `{"acks":…,"clock":…,"deviceId":…,"devices":…,"items":{`.
    mutating func writeHead(_ document: TripDocument, signer: PublicKey? = nil) {
        out.append("{\"acks\":{")
        var first = true
        for device in document.acks.keys.sorted() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: device)
            out.append(UInt8(ascii: ":"))
            write(document.acks[device] ?? VersionVector())
        }
        out.append("},\"attachments\":{")
        first = true
        for (id, attachment) in document.attachments.sorted(by: { $0.key < $1.key }) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: id)
            out.append(UInt8(ascii: ":"))
            write(attachment)
        }
        out.append("},\"clock\":")
        write(document.clock)
        out.append(",\"deviceId\":")
        out.append(identifier: document.deviceID)
        if let signer {
            out.append(",\"deviceKey\":")
            out.append(string: signer.base64)
        }
        out.append(",\"devices\":{")
        first = true
        for device in document.devices.keys.sorted() {
            guard let info = document.devices[device] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: device)
            out.append(":{\"name\":")
            write(info.name, CanonicalWriter.writeText)
            out.append(UInt8(ascii: "}"))
        }
        out.append("},\"items\":{")
    }

    /// Items in the given (sorted) order; `first` when nothing precedes them in `items`.
    mutating func writeItems(
        _ order: ArraySlice<(key: ItemID, index: Dictionary<ItemID, ItemFields>.Index)>, of items: [ItemID: ItemFields], first: Bool
    ) {
        var first = first
        for (id, index) in order {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: id)
            out.append(UInt8(ascii: ":"))
            write(items.values[index])
        }
    }

    /// Everything after the last item, and the trailing newline; when `signed`, returns where
    /// the signature's placeholder is.
    @discardableResult
    mutating func writeTail(_ document: TripDocument, signed: Bool = false) -> Int? {
        let signatureOffset = writeMiddle(document, signed: signed)
        var first = true
        for (id, tombstone) in document.tombstones.sorted(by: { $0.key < $1.key }) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            write(id, tombstone)
        }
        writeEnd(document)
        return signatureOffset
    }

    /// From the end of `items` to the first tombstone: `},"members":…,"tombstones":{`; when
    /// `signed`, returns where the signature's placeholder is.
    mutating func writeMiddle(_ document: TripDocument, signed: Bool) -> Int? {
        out.append("},\"members\":{")
        var first = true
        for (device, grant) in document.members.sorted(by: { $0.key < $1.key }) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: device)
            out.append(":{")
            if let box = grant.box {
                out.append("\"box\":")
                out.append(string: box.base64)
                out.append(UInt8(ascii: ","))
            }
            out.append("\"key\":")
            out.append(string: grant.key.base64)
            if let name = grant.name {
                out.append(",\"name\":")
                out.append(string: name)
            }
            out.append(",\"rev\":")
            write(grant.rev)
            out.append(",\"role\":")
            out.append(string: grant.role.rawValue)
            if let seen = grant.seen {
                out.append(",\"seen\":")
                write(seen)
            }
            out.append(",\"sig\":")
            out.append(string: Base64.encode(grant.signature))
            out.append(UInt8(ascii: "}"))
        }
        out.append("},\"owner\":")
        if let owner = document.owner {
            out.append("{\"claim\":")
            out.append(string: Base64.encode(owner.claim))
            out.append(",\"key\":")
            out.append(string: owner.key.base64)
            out.append(UInt8(ascii: "}"))
        } else {
            out.append("null")
        }
        out.append(",\"schemaVersion\":")
        out.append(decimal: UInt64(TripDocument.currentSchemaVersion))
        var signatureOffset: Int?
        if signed {
            out.append(",\"signature\":\"")
            signatureOffset = out.count
            for byte in FileSignature.placeholder { out.append(byte) }
            out.append(UInt8(ascii: "\""))
        }
        if !document.successions.isEmpty {
            out.append(",\"successions\":{")
            first = true
            for (to, succession) in document.successions.sorted(by: { $0.key < $1.key }) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(identifier: to)
                out.append(":{\"from\":")
                out.append(identifier: succession.from)
                out.append(",\"key\":")
                out.append(string: succession.key.base64)
                out.append(",\"signature\":")
                out.append(string: Base64.encode(succession.signature))
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(",\"tombstones\":{")
        return signatureOffset
    }

    /// One tombstone as a member of `tombstones`: `"<id>":{"deleted":…,"item":…}`.
    mutating func write(_ id: ItemID, _ tombstone: Tombstone) {
        out.append(identifier: id)
        out.append(":{\"deleted\":")
        write(tombstone.deleted, CanonicalWriter.writeDeletion)
        out.append(",\"item\":")
        write(tombstone.item)
        out.append(UInt8(ascii: "}"))
    }

    /// Everything after the last tombstone: `},"trip":…,"tripId":…}` and the trailing newline.
    mutating func writeEnd(_ document: TripDocument) {
        out.append("},\"trip\":{\"name\":")
        write(document.trip.name, CanonicalWriter.writeText)
        if let zone = document.trip.zone {
            out.append(",\"zone\":")
            write(zone, CanonicalWriter.writeOptionalText)
        }
        out.append("},\"tripId\":")
        out.append(identifier: document.tripID)
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    mutating func write(_ clock: VersionVector) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for entry in clock.sortedEntries {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(identifier: entry.device)
            out.append(UInt8(ascii: ":"))
            out.append(decimal: entry.counter)
        }
        out.append(UInt8(ascii: "}"))
    }

    mutating func write(_ item: ItemFields) {
        if let read = item.storage.canonicalBytes?.buffer {
            // Unchanged since it was read, and read in exactly these bytes.
            out.append(read)
            return
        }
        // The registers in canonical order, by the one description of an item's shape.
        let storage = item.storage
        out.append(UInt8(ascii: "{"))
        var first = true
        for field in CanonicalItem.fields { CanonicalItem.write(field, of: storage, to: &self, first: &first) }
        out.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    mutating func write<V>(_ register: Register<V>, _ writeValue: (inout CanonicalWriter, V) -> Void) {
        out.append(UInt8(ascii: "{"))
        if !register.conflicts.isEmpty {
            out.append("\"conflicts\":[")
            for (index, conflict) in register.conflicts.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append("{\"rev\":")
                write(conflict.rev)
                out.append(",\"value\":")
                writeValue(&self, conflict.value)
                out.append(UInt8(ascii: "}"))
            }
            out.append("],")
        }
        out.append("\"rev\":")
        write(register.rev)
        out.append(",\"value\":")
        writeValue(&self, register.value)
        out.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    mutating func write(_ rev: Rev) {
        out.append(UInt8(ascii: "["))
        out.append(decimal: rev.counter)
        out.append(UInt8(ascii: ","))
        out.append(identifier: rev.device)
        out.append(UInt8(ascii: "]"))
    }

    static func writeText(_ writer: inout CanonicalWriter, _ text: String) {
        writer.out.append(string: text)
    }

    static func writeOptionalText(_ writer: inout CanonicalWriter, _ text: String?) {
        if let text { writer.out.append(string: text) } else { writer.out.append("null") }
    }

    static func writeTime(_ writer: inout CanonicalWriter, _ time: TripTime?) {
        switch time {
        case nil: writer.out.append("null")
        case .date(let date)?:
            writer.out.append("{\"date\":")
            if !writer.out.appendQuotedDigits(date) { writer.out.append(string: date.description) }
            writer.out.append(UInt8(ascii: "}"))
        case .local(let local, let zone)?:
            writer.out.append("{\"local\":")
            if !writer.out.appendQuotedDigits(local.date, hour: local.hour, minute: local.minute) {
                writer.out.append(string: local.description)
            }
            writer.out.append(",\"zone\":")
            writer.out.append(string: zone)
            writer.out.append(UInt8(ascii: "}"))
        }
    }

    static func writeIdentifier(_ writer: inout CanonicalWriter, _ id: Identifier) {
        writer.out.append(identifier: id)
    }

    static func writeBlob(_ writer: inout CanonicalWriter, _ blob: BlobReference) {
        writer.out.append(UInt8(ascii: "{"))
        if let sealed = blob.sealed {
            // Schema 7: `sealed` sorts before `sha256`; inside it `key`, `sha256`, `size`.
            writer.out.append("\"sealed\":{\"key\":")
            writer.out.append(string: sealed.keyBase64)
            writer.out.append(",\"sha256\":")
            writer.out.append(string: sealed.sha256)
            writer.out.append(",\"size\":")
            writer.out.append(decimal: UInt64(max(sealed.size, 0)))
            writer.out.append("},")
        }
        writer.out.append("\"sha256\":")
        writer.out.append(string: blob.sha256)
        writer.out.append(",\"size\":")
        writer.out.append(decimal: UInt64(max(blob.size, 0)))
        writer.out.append(",\"type\":")
        writer.out.append(string: blob.type)
        writer.out.append(UInt8(ascii: "}"))
    }

    /// An attachment's registers in canonical key order: blob, caption, deleted, item, name.
    mutating func write(_ attachment: Attachment) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString, _ writer: inout CanonicalWriter) {
            if !first { writer.out.append(UInt8(ascii: ",")) }
            first = false
            writer.out.append(UInt8(ascii: "\""))
            writer.out.append(name)
            writer.out.append("\":")
        }
        if let blob = attachment.blob {
            key("blob", &self)
            write(blob, CanonicalWriter.writeBlob)
        }
        if let caption = attachment.caption {
            key("caption", &self)
            write(caption, CanonicalWriter.writeOptionalText)
        }
        if let deleted = attachment.deleted {
            key("deleted", &self)
            write(deleted, CanonicalWriter.writeDeletion)
        }
        if let item = attachment.item {
            key("item", &self)
            write(item, CanonicalWriter.writeIdentifier)
        }
        if let name = attachment.name {
            key("name", &self)
            write(name, CanonicalWriter.writeText)
        }
        out.append(UInt8(ascii: "}"))
    }

    static func writeDeletion(_ writer: inout CanonicalWriter, _ deletion: Deletion) {
        writer.out.append("{\"at\":")
        writer.out.append(string: deletion.at.description)
        writer.out.append(",\"seen\":")
        writer.write(deletion.seen)
        writer.out.append(UInt8(ascii: "}"))
    }
}
