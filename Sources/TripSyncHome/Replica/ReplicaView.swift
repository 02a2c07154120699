import Foundation
import TripSyncPlatform
import TripSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cache beside a replica, `trips/<tripId>.view`, that lets one edit open the trip without
/// decoding every item (docs/DESIGN.md, "The replica view"): the trip's canonical JSON
/// uncompressed, the byte range and CRC-32 of each live item and tombstone in it, each live
/// item's order key, and the state it holds: the replica file (its inode, size and change time,
/// and the BLAKE2b-256 the edit journal names as its base) and the first `journalLength` bytes
/// of the journal (their BLAKE2b-256). The replica and the journal stay the truth: a view whose
/// replica or journal prefix is not the one on disk, or whose bytes fail a checksum, is not
/// used (`load` answers nil, or `isSound` turns false) and the next edit that reads the trip
/// whole writes a new one.
///
/// The file: `magic`, the format version (UInt32), the length of the metadata read at once, the
/// CRC-32 of that metadata and of the JSON outside the members, then that metadata
/// (little-endian integers: the fixed part, the entries an attachment names, the CRC-32 of each
/// page of the paged area), then the paged area (the entries, the order, the order keys) in
/// pages of `pageSize` bytes, then the JSON. A quick edit reads the pages it touches, each
/// checked by its CRC-32 when first read (a binary search reads about 14 of a 10,000-item
/// trip's 120), instead of reading and checking all 480 KB (docs/PERFORMANCE.md, "The paged
/// view"); each member's bytes are checked by their CRC-32 when they are used.
package struct ReplicaView: Sendable {
    /// The first eight bytes of every view.
    package static let magic: [UInt8] = Array("TSVIEW01".utf8)
    /// The format this build writes and reads (1: the metadata read and checked whole).
    static let version: UInt32 = 2
    /// Magic, version, metadata length, checksum.
    static let headerSize = 8 + 4 + 4 + 4
    /// The bytes of one member's entry.
    static let entrySize = 40
    /// Metadata before the named entries: the replica's stamp and digest, the journal's length,
    /// records and digest, the JSON's length and parts, five counts, the paged area's length.
    static let fixedMetaSize = 32 + 32 + 8 + 8 + 32 + 8 * 5 + 4 * 5 + 8
    /// The bytes of one page of the paged area (the last one may be shorter).
    package static let pageSize = 4096
    /// An entry's flag: an attachment names the item (so a document of some items holds it).
    package static let namedByAttachment: UInt32 = 1
    /// An entry's flag: the live item has an order key (`sortKey`), so it is in the order.
    package static let orderKeyed: UInt32 = 2

    /// The view's file.
    package let path: String
    /// The replica's identity when the view was written (`EditJournal.stamp(of:)`).
    package let replicaStamp: [Int64]
    /// The BLAKE2b-256 of the replica's bytes.
    package let replicaDigest: [UInt8]
    /// How many bytes of the edit journal the view holds the effect of (0: none).
    package let journalLength: Int
    /// How many records those are.
    package let journalRecords: Int
    /// The BLAKE2b-256 of those bytes.
    package let journalDigest: [UInt8]
    /// The number of live items.
    package let itemCount: Int
    /// The number of tombstones.
    package let tombstoneCount: Int
    private let jsonOffset: Int
    private let headEnd: Int
    private let middle: Range<Int>
    private let end: Range<Int>
    private let orderCount: Int
    private let orderOffset: Int
    private let keysOffset: Int
    /// The entries an attachment names (`namedByAttachment`), in order.
    package let namedEntries: [Int]
    /// Where live items' and tombstones' members lie in the JSON.
    private let memberAreas: (items: Range<Int>, tombstones: Range<Int>)
    /// Where the key area ends in the paged area.
    private let keysEnd: Int
    private let head: [UInt8]
    private let middleBytes: [UInt8]
    private let endBytes: [UInt8]
    /// The open file and the pages read from it.
    private let pages: Pages

    /// Whether every page and member read so far passed its check. A view that fails one
    /// answers zeros from then on, and a caller that used it must not trust what it answered.
    package var isSound: Bool { pages.isSound }

    // MARK: Writing

    /// Writes the view of `document`, the trip as the replica at `replicaPath` (stamp `stamp`,
    /// digest `digest`) and the first `journalLength` bytes of its journal (`journalRecords`
    /// records, digest `journalDigest`) hold it, atomically and durably to `path`.
    package static func write(
        _ document: TripDocument, replicaStamp stamp: [Int64], replicaDigest digest: [UInt8], journalLength: Int, journalRecords: Int,
        journalDigest: [UInt8], to path: String
    ) throws {
        guard stamp.count == 4, digest.count == 32, journalDigest.count == 32 else {
            throw FileSystemError(path: path, message: "a view needs the replica's stamp and digest and the journal's digest")
        }
        let pieces = CanonicalPieces(document)
        // Offsets are 32-bit: far above what a reader accepts (`TripFileReader.maxFileBytes`).
        guard pieces.json.count < Int(UInt32.max) / 2 else {
            throw FileSystemError(path: path, message: "the trip's JSON (\(pieces.json.count) bytes) is too large for a view")
        }
        var keys: [UInt8] = []
        var entries: [UInt8] = []
        entries.reserveCapacity((pieces.items.count + pieces.tombstones.count) * entrySize)
        var named: Set<ItemID> = []
        for attachment in document.attachments.values { if let item = attachment.item?.value { named.insert(item) } }
        // Key ranges, not slices: a slice held while `keys` grows would copy it at every append.
        var ordered: [(key: Range<Int>, id: ItemID, index: UInt32)] = []
        for (index, entry) in pieces.items.enumerated() {
            let key = document.items[entry.id]?.sortKey.map { Array($0.value.utf8) }
            let keyStart = keys.count
            if let key {
                keys += key
                ordered.append((keyStart..<keys.count, entry.id, UInt32(index)))
            }
            appendEntry(
                &entries, id: entry.id, range: entry.range, json: pieces.json, keyStart: keyStart, keyLength: key?.count ?? 0,
                flags: (named.contains(entry.id) ? namedByAttachment : 0) | (key == nil ? 0 : orderKeyed))
        }
        for entry in pieces.tombstones {
            appendEntry(
                &entries, id: entry.id, range: entry.range, json: pieces.json, keyStart: 0, keyLength: 0,
                flags: named.contains(entry.id) ? namedByAttachment : 0)
        }
        ordered.sort { a, b in
            let (x, y) = (keys[a.key], keys[b.key])
            return x == y ? a.id < b.id : x.lexicographicallyPrecedes(y)
        }
        var paged = entries
        paged.reserveCapacity(entries.count + ordered.count * 4 + keys.count)
        for entry in ordered { append32(&paged, entry.index) }
        paged += keys
        var meta: [UInt8] = []
        for value in stamp { append64(&meta, UInt64(bitPattern: value)) }
        meta += digest
        append64(&meta, UInt64(journalLength))
        append64(&meta, UInt64(journalRecords))
        meta += journalDigest
        append64(&meta, UInt64(pieces.json.count))
        append64(&meta, UInt64(pieces.headEnd))
        append64(&meta, UInt64(pieces.middle.lowerBound))
        append64(&meta, UInt64(pieces.middle.upperBound))
        append64(&meta, UInt64(pieces.end.lowerBound))
        append32(&meta, UInt32(pieces.items.count))
        append32(&meta, UInt32(pieces.tombstones.count))
        append32(&meta, UInt32(ordered.count))
        append32(&meta, UInt32(keys.count))
        let namedIndexes = (pieces.items.map(\.id) + pieces.tombstones.map(\.id)).enumerated().filter { named.contains($0.element) }.map(\.offset)
        append32(&meta, UInt32(namedIndexes.count))
        append64(&meta, UInt64(paged.count))
        for index in namedIndexes { append32(&meta, UInt32(index)) }
        for start in stride(from: 0, to: paged.count, by: pageSize) {
            append32(&meta, crc(paged[start..<min(start + pageSize, paged.count)]))
        }
        let checksum = Self.checksum(
            meta: meta, head: pieces.json[0..<pieces.headEnd], middle: pieces.json[pieces.middle], end: pieces.json[pieces.end])
        var header = magic
        append32(&header, version)
        append32(&header, UInt32(meta.count))
        header += checksum
        try withExtendedLifetime((header, meta, paged, pieces.json)) {
            try header.withUnsafeBufferPointer { h in
                try meta.withUnsafeBufferPointer { m in
                    try paged.withUnsafeBufferPointer { p in
                        try pieces.json.withUnsafeBufferPointer { j in
                            try FileIO.writeAtomically(
                                chunks: [OwnedBytes.View(h), OwnedBytes.View(m), OwnedBytes.View(p), OwnedBytes.View(j)], to: path, mode: 0o600)
                        }
                    }
                }
            }
        }
    }

    private static func appendEntry(_ entries: inout [UInt8], id: ItemID, range: Range<Int>, json: [UInt8], keyStart: Int, keyLength: Int, flags: UInt32) {
        append64(&entries, id.high)
        append64(&entries, id.low)
        append32(&entries, UInt32(range.lowerBound))
        append32(&entries, UInt32(range.count))
        append32(&entries, crc(json[range]))
        append32(&entries, UInt32(keyStart))
        append32(&entries, UInt32(keyLength))
        append32(&entries, flags)
    }

    /// The CRC-32 of the metadata and the JSON outside the members, as four little-endian bytes.
    /// A CRC, not a hash: it catches a torn or damaged cache (what it guards against) at a fifth
    /// of BLAKE2b's cost, which every quick edit pays (docs/PERFORMANCE.md, "The replica view").
    private static func checksum(meta: [UInt8], head: ArraySlice<UInt8>, middle: ArraySlice<UInt8>, end: ArraySlice<UInt8>) -> [UInt8] {
        var value = crc(meta[...])
        for part in [head, middle, end] { value = crc(part, continuing: value) }
        return EditJournal.littleEndian(value)
    }

    /// The CRC-32 (zlib's) of `bytes`, continuing `previous`.
    static func crc(_ bytes: ArraySlice<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        CRC32.checksum(bytes, continuing: previous)
    }

    private static func append64(_ out: inout [UInt8], _ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    // MARK: Reading

    /// The view at `path`, nil when there is none or it is not one this build wrote whole (torn,
    /// corrupt, another format): a cache that is not usable is rebuilt, never trusted. Only the
    /// metadata read at once is checked here; each page is checked when first read.
    package static func load(_ path: String) -> ReplicaView? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        // The file stays open for the pages and members read later (`Pages` closes it).
        let pages = Pages(fd: fd)
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size >= headerSize, let header = readBytes(fd, at: 0, count: headerSize), Array(header[0..<8]) == magic,
            word32(header, 8) == version
        else { return nil }
        let metaLength = Int(word32(header, 12))
        guard metaLength >= fixedMetaSize, headerSize + metaLength <= size, let meta = readBytes(fd, at: headerSize, count: metaLength) else { return nil }
        return ReplicaView(path: path, pages: pages, size: size, checksum: Array(header[16..<20]), meta: meta)
    }

    private init?(path: String, pages: Pages, size: Int, checksum: [UInt8], meta: [UInt8]) {
        self.path = path
        self.pages = pages
        var offset = 0
        func next64() -> UInt64 {
            defer { offset += 8 }
            return Self.word64(meta, offset)
        }
        func next32() -> UInt32 {
            defer { offset += 4 }
            return Self.word32(meta, offset)
        }
        replicaStamp = (0..<4).map { _ in Int64(bitPattern: next64()) }
        replicaDigest = Array(meta[offset..<(offset + 32)])
        offset += 32
        journalLength = Int(clamping: next64())
        journalRecords = Int(clamping: next64())
        journalDigest = Array(meta[offset..<(offset + 32)])
        offset += 32
        let jsonLength = Int(clamping: next64())
        headEnd = Int(clamping: next64())
        let middleStart = Int(clamping: next64())
        let middleEnd = Int(clamping: next64())
        let endStart = Int(clamping: next64())
        itemCount = Int(next32())
        tombstoneCount = Int(next32())
        orderCount = Int(next32())
        let keysLength = Int(next32())
        let namedCount = Int(next32())
        let pagedLength = Int(clamping: next64())
        let namedOffset = offset
        let pageCount = (pagedLength + Self.pageSize - 1) / Self.pageSize
        let entriesLength = (itemCount + tombstoneCount) * Self.entrySize
        orderOffset = entriesLength
        keysOffset = orderOffset + orderCount * 4
        keysEnd = keysOffset + keysLength
        let pagedOffset = Self.headerSize + meta.count
        jsonOffset = pagedOffset + pagedLength
        guard namedOffset + namedCount * 4 + pageCount * 4 == meta.count, keysEnd == pagedLength, orderCount <= itemCount,
            jsonOffset + jsonLength == size, headEnd <= middleStart, middleStart <= middleEnd, middleEnd <= endStart, endStart <= jsonLength
        else { return nil }
        middle = middleStart..<middleEnd
        end = endStart..<jsonLength
        guard let head = Self.readBytes(pages.fd, at: jsonOffset, count: headEnd),
            let middleBytes = Self.readBytes(pages.fd, at: jsonOffset + middleStart, count: middle.count),
            let endBytes = Self.readBytes(pages.fd, at: jsonOffset + endStart, count: end.count)
        else { return nil }
        self.head = head
        self.middleBytes = middleBytes
        self.endBytes = endBytes
        guard Self.checksum(meta: meta, head: head[...], middle: middleBytes[...], end: endBytes[...]) == checksum else { return nil }
        let pageTable = namedOffset + namedCount * 4
        pages.layout(
            offset: pagedOffset, length: pagedLength, checksums: (0..<pageCount).map { Self.word32(meta, pageTable + $0 * 4) })
        // Each member's range, key and order position is checked where it is used (a view's
        // metadata passed its CRC, but a check costs less than a trap).
        let named = (0..<namedCount).map { Int(Self.word32(meta, namedOffset + $0 * 4)) }
        let entryCount = itemCount + tombstoneCount
        guard named.allSatisfy({ $0 < entryCount }) else { return nil }
        namedEntries = named
        memberAreas = (headEnd..<middleStart, middleEnd..<endStart)
    }

    /// Whether the view holds the replica whose identity is `stamp` now.
    package func holds(replicaStamp stamp: [Int64]) -> Bool { stamp.count == 4 && stamp == replicaStamp }

    /// Whether the journal whose bytes are `journal` begins with the bytes the view holds.
    package func holdsPrefix(ofJournal journal: [UInt8]) -> Bool {
        guard journalLength <= journal.count else { return false }
        return journal.withUnsafeBytes { all in Sodium.blake2b256([UnsafeRawBufferPointer(rebasing: all[0..<journalLength])]) } == journalDigest
    }

    /// The id of entry `index` (live items first, then tombstones, each in id order).
    package func id(_ index: Int) -> ItemID {
        let at = index * Self.entrySize
        return ItemID(high: pages.word64(at), low: pages.word64(at + 8))
    }

    /// Whether live item `index` has an order key (and so a place in the order).
    package func hasSortKey(_ index: Int) -> Bool {
        pages.word32(index * Self.entrySize + 36) & Self.orderKeyed != 0
    }

    /// Where entry `index`'s member lies in the JSON, and its CRC-32; nil when outside its part.
    private func entryRange(_ index: Int) -> (range: Range<Int>, crc: UInt32)? {
        let at = index * Self.entrySize
        let start = Int(pages.word32(at + 16))
        let range = start..<(start + Int(pages.word32(at + 20)))
        let area = index < itemCount ? memberAreas.items : memberAreas.tombstones
        return range.lowerBound >= area.lowerBound && range.upperBound <= area.upperBound ? (range, pages.word32(at + 24)) : nil
    }

    /// The order key of live item `index` (`sortKey`'s value; empty bytes when it has none or
    /// its bounds are outside the key area).
    package func sortKey(_ index: Int) -> ArraySlice<UInt8> {
        let at = index * Self.entrySize
        let start = keysOffset + Int(pages.word32(at + 28))
        let end = start + Int(pages.word32(at + 32))
        return end <= keysEnd ? pages.bytes(start..<end) : []
    }

    /// The live item at position `position` of the order (by order key, then id); an index out
    /// of range (only in a view made to pass its CRC) reads as item 0 rather than trapping.
    package func ordered(_ position: Int) -> Int {
        let index = Int(pages.word32(orderOffset + position * 4))
        return index < itemCount ? index : 0
    }

    /// How many live items have an order key.
    package var orderedCount: Int { orderCount }

    /// The first position of the order whose key is above `key` (or at or above it, when
    /// `orEqual`).
    package func orderPosition(after key: ArraySlice<UInt8>, orEqual: Bool) -> Int {
        var low = 0
        var high = orderCount
        while low < high {
            let middle = (low + high) / 2
            let found = sortKey(ordered(middle))
            let before = orEqual ? found.lexicographicallyPrecedes(key) : !key.lexicographicallyPrecedes(found)
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The entries (live: `0..<itemCount`; deleted: `itemCount..<itemCount + tombstoneCount`)
    /// whose ids lie in `lower...upper`.
    package func entries(from lower: ItemID, through upper: ItemID, deleted: Bool) -> Range<Int> {
        let all = deleted ? itemCount..<(itemCount + tombstoneCount) : 0..<itemCount
        func firstIndex(where above: (ItemID) -> Bool) -> Int {
            var low = all.lowerBound
            var high = all.upperBound
            while low < high {
                let middle = (low + high) / 2
                if above(id(middle)) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        let start = firstIndex { $0 >= lower }
        let stop = firstIndex { $0 > upper }
        return start..<max(start, stop)
    }

    /// The entry of `id`, nil when the view has no such live item (or tombstone).
    package func entry(_ id: ItemID, deleted: Bool) -> Int? {
        let range = entries(from: id, through: id, deleted: deleted)
        return range.isEmpty ? nil : range.lowerBound
    }

    /// The canonical JSON of the trip holding only the live items `items` and the tombstones
    /// `tombstones` (entry indexes, each list in id order), every member checked against its
    /// CRC-32; nil when the file cannot be read, a member or a page fails its check.
    package func document(items: [Int], tombstones: [Int]) -> [UInt8]? {
        func member(_ index: Int) -> ArraySlice<UInt8>? {
            guard let (range, crc) = entryRange(index), let bytes = Self.readBytes(pages.fd, at: jsonOffset + range.lowerBound, count: range.count),
                Self.crc(bytes[...]) == crc
            else { return nil }
            return bytes[...]
        }
        var itemBytes: [ArraySlice<UInt8>] = []
        for index in items {
            guard let bytes = member(index) else { return nil }
            itemBytes.append(bytes)
        }
        var tombstoneBytes: [ArraySlice<UInt8>] = []
        for index in tombstones {
            guard let bytes = member(index) else { return nil }
            tombstoneBytes.append(bytes)
        }
        guard isSound else { return nil }
        return CanonicalPieces.assemble(head: head[...], items: itemBytes, middle: middleBytes[...], tombstones: tombstoneBytes, end: endBytes[...])
    }

    /// The view's open file and the pages of its paged area read so far, each checked against
    /// its CRC-32 when read. A page that cannot be read or fails its check reads as zeros and
    /// makes the view unsound (`isSound`). Locked: a view is `Sendable`.
    private final class Pages: @unchecked Sendable {
        let fd: Int32
        private let lock = NSLock()
        private var offset = 0
        private var length = 0
        private var checksums: [UInt32] = []
        private var read: [Int: [UInt8]] = [:]
        private var failed = false

        init(fd: Int32) { self.fd = fd }

        deinit { close(fd) }

        func layout(offset: Int, length: Int, checksums: [UInt32]) {
            self.offset = offset
            self.length = length
            self.checksums = checksums
        }

        var isSound: Bool { lock.withLock { !failed } }

        /// Page `number`'s bytes, read and checked at first use.
        private func page(_ number: Int) -> [UInt8]? {
            if let known = read[number] { return known }
            guard number >= 0, number < checksums.count else { return nil }
            let start = number * ReplicaView.pageSize
            guard let bytes = ReplicaView.readBytes(fd, at: offset + start, count: min(ReplicaView.pageSize, length - start)),
                ReplicaView.crc(bytes[...]) == checksums[number]
            else { return nil }
            read[number] = bytes
            return bytes
        }

        /// The paged area's bytes `range` (zeros past its end or in a page that fails).
        func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
            lock.withLock {
                var out: [UInt8] = []
                out.reserveCapacity(range.count)
                var at = range.lowerBound
                while at < range.upperBound {
                    let number = at / ReplicaView.pageSize
                    let within = at - number * ReplicaView.pageSize
                    let take = min(range.upperBound - at, ReplicaView.pageSize - within)
                    if at >= 0, let page = page(number), within + take <= page.count {
                        out += page[within..<(within + take)]
                    } else {
                        failed = true
                        out += repeatElement(0, count: take)
                    }
                    at += take
                }
                return out[...]
            }
        }

        func word32(_ at: Int) -> UInt32 {
            let bytes = Array(self.bytes(at..<(at + 4)))
            return ReplicaView.word32(bytes, 0)
        }

        func word64(_ at: Int) -> UInt64 {
            UInt64(word32(at)) | UInt64(word32(at + 4)) << 32
        }
    }

    private static func readBytes(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else {
                failed = true
                return
            }
            while initialized < count {
                let got = pread(fd, base + initialized, count - initialized, off_t(offset + initialized))
                if got < 0, errno == EINTR { continue }
                if got <= 0 {
                    failed = true
                    return
                }
                initialized += got
            }
        }
        return failed ? nil : bytes
    }

    static func word32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    static func word64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(word32(bytes, at)) | UInt64(word32(bytes, at + 4)) << 32
    }
}
