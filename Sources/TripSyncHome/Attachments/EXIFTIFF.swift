/// The TIFF structure inside an Exif APP1 segment, read with bounds checked on every access:
/// offsets are relative to the TIFF header and never reach outside the segment.
struct EXIFTIFF {
    /// One 12-byte directory entry.
    struct Entry: Hashable, Sendable {
        /// The tag (0x8825 is the GPS directory's pointer).
        var tag: UInt16
        /// The field type (5 = RATIONAL, 2 = ASCII, …).
        var type: UInt16
        /// The number of values.
        var count: UInt32
        /// Where the entry itself starts, relative to the TIFF header.
        var offset: Int
    }

    /// One image file directory: its entries and the link to the next.
    struct Directory: Sendable {
        /// Where the directory starts (its entry count), relative to the TIFF header.
        var offset: Int
        /// The entries, in file order.
        var entries: [Entry]
        /// The next directory's offset; nil when the link does not fit in the segment.
        var next: Int?

        /// The bytes the directory occupies (count, entries and, when it fits, the link).
        var byteCount: Int { 2 + 12 * entries.count + (next == nil ? 0 : 4) }
    }

    /// The bytes of the whole file.
    let bytes: [UInt8]
    /// The TIFF header's offset in `bytes`.
    let start: Int
    /// The end of the segment in `bytes`.
    let end: Int
    /// Motorola ("MM") order rather than Intel ("II").
    let bigEndian: Bool

    /// The TIFF data of an Exif segment's payload ("Exif\0" and a pad byte, then TIFF), or nil
    /// when the payload is not Exif at all.
    static func exifPayload(_ bytes: [UInt8], _ payload: Range<Int>) -> Range<Int>? {
        let signature: [UInt8] = Array("Exif".utf8) + [0]
        guard payload.count >= 6, bytes[payload.lowerBound..<payload.lowerBound + 5].elementsEqual(signature) else { return nil }
        return payload.lowerBound + 6..<payload.upperBound
    }

    /// The TIFF data of a PNG `eXIf` or WebP `EXIF` chunk's payload: the payload itself, or
    /// what follows "Exif\0\0" when a writer kept a JPEG's prefix (readers accept both).
    static func chunkTIFF(_ bytes: [UInt8], _ payload: Range<Int>) -> Range<Int> {
        exifPayload(bytes, payload) ?? payload
    }

    /// Reads the TIFF header at the start of `tiff`; nil when it is neither "II*\0" nor "MM\0*".
    init?(_ bytes: [UInt8], tiff: Range<Int>) {
        guard tiff.count >= 8 else { return nil }
        let s = tiff.lowerBound
        switch (bytes[s], bytes[s + 1], bytes[s + 2], bytes[s + 3]) {
        case (0x49, 0x49, 0x2A, 0x00): bigEndian = false
        case (0x4D, 0x4D, 0x00, 0x2A): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        start = s
        end = tiff.upperBound
    }

    /// The TIFF data's length.
    var length: Int { end - start }

    /// The offset of the first directory (IFD0).
    var firstDirectory: Int? { u32(4).map { Int($0) } }

    /// A 16-bit value at `offset`, or nil past the end.
    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= length - 2 else { return nil }
        let a = UInt16(bytes[start + offset]), b = UInt16(bytes[start + offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    /// A 32-bit value at `offset`, or nil past the end.
    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= length - 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[start + offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }

    /// The directory at `offset`, or nil when its entries do not fit in the segment.
    func directory(at offset: Int) -> Directory? {
        guard let count = u16(offset), offset <= length - 2 - 12 * Int(count) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let at = offset + 2 + 12 * index
            guard let tag = u16(at), let type = u16(at + 2), let number = u32(at + 4) else { return nil }
            entries.append(Entry(tag: tag, type: type, count: number, offset: at))
        }
        let next = u32(offset + 2 + 12 * Int(count)).map { Int($0) }
        return Directory(offset: offset, entries: entries, next: next)
    }

    /// IFD0 and the directories chained after it (IFD1 holds the thumbnail), at most `limit`,
    /// stopping at a cycle or at a link that leads nowhere readable.
    func chain(limit: Int = 8) -> [Directory] {
        var result: [Directory] = []
        var seen: Set<Int> = []
        var next = firstDirectory
        while let offset = next, offset != 0, result.count < limit, seen.insert(offset).inserted, let directory = directory(at: offset) {
            result.append(directory)
            next = directory.next
        }
        return result
    }

    /// The size in bytes of one value of `type`, nil for a type TIFF does not define.
    static func valueSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// Where an entry's values lie (inline in the entry when they fit in four bytes, else at the
    /// offset it holds), clipped to the segment; nil for an unknown type or values past the end.
    func values(of entry: Entry) -> Range<Int>? {
        guard let size = Self.valueSize(entry.type) else { return nil }
        let total = Int(entry.count) * size  // at most 2^32 · 8: no overflow in Int
        if total <= 4 { return entry.offset + 8..<entry.offset + 8 + total }
        guard let at = u32(entry.offset + 8).map({ Int($0) }), at < length else { return nil }
        return at..<min(length, at + total)
    }
}
