/// The Exif and XMP items of a HEIF file (ISO/IEC 23008-12, ISO/IEC 14496-12): the top-level
/// `meta` box, its item infos (`iinf`/`infe`: type "Exif", or "mime" with the content type
/// "application/rdf+xml") and their places (`iloc`, in the file or in `idat`). Read with bounds
/// checked on every access; the work is linear in the input (every loop consumes bytes, and the
/// extents, which may take none, are capped).
struct HEIFItems: Sendable {
    /// What one item is.
    enum Kind: Sendable {
        case exif
        case xmp
    }

    /// One Exif or XMP item and where its bytes lie.
    struct Item: Sendable {
        var id: UInt32
        var kind: Kind
        /// The item's bytes as ranges of the file, in order; nil when they cannot be located
        /// (no iloc entry, another file, a construction method not read here, past the end).
        var extents: [Range<Int>]?
    }

    /// The most extents read over the whole `iloc` box (each may take no byte of the box).
    static let maxExtents = 4096
    /// The most Exif and XMP items read (each is scanned; items may overlap).
    static let maxItems = 16

    /// The Exif and XMP items, in `iinf` order.
    var items: [Item] = []
    /// Why the metadata could not be read completely, when it could not.
    var problem: String?

    /// A box: its type, where it starts, and its payload (after the header, and after the
    /// version and flags for a full box when the caller skips them).
    struct Box {
        var type: ArraySlice<UInt8>
        var offset: Int
        var payload: Range<Int>
    }

    /// The boxes in `range` of `bytes`, stopping at one whose header does not read.
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [Box] {
        var result: [Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound {
            var size = u32(bytes, position)
            var header = 8
            if size == 1 {
                guard position + 16 <= range.upperBound, let large = u64(bytes, position + 8) else { break }
                size = large
                header = 16
            } else if size == 0 {
                size = range.upperBound - position
            }
            guard size >= header, size <= range.upperBound - position else { break }
            result.append(Box(type: bytes[position + 4..<position + 8], offset: position, payload: position + header..<position + size))
            position += size
        }
        return result
    }

    /// Reads the items of `bytes` (a file whose type was sniffed as HEIC/HEIF).
    init(_ bytes: [UInt8]) {
        guard let meta = Self.boxes(bytes, bytes.indices).first(where: { $0.type.elementsEqual("meta".utf8) }) else { return }
        guard meta.payload.count >= 4 else {
            problem = "its meta box at offset \(meta.offset) is cut short"
            return
        }
        let children = Self.boxes(bytes, meta.payload.lowerBound + 4..<meta.payload.upperBound)
        func child(_ name: String) -> Box? { children.first { $0.type.elementsEqual(name.utf8) } }
        guard let iinf = child("iinf") else { return }
        // iinf: version, flags, an entry count (16 bits in version 0), then infe boxes.
        let countSize = iinf.payload.count >= 1 && bytes[iinf.payload.lowerBound] == 0 ? 2 : 4
        let entries = iinf.payload.lowerBound + 4 + countSize
        guard entries <= iinf.payload.upperBound else {
            problem = "its iinf box at offset \(iinf.offset) is cut short"
            return
        }
        for infe in Self.boxes(bytes, entries..<iinf.payload.upperBound) where infe.type.elementsEqual("infe".utf8) {
            guard let item = Self.item(bytes, infe) else { continue }
            guard items.count < Self.maxItems else {
                problem = "it has more than \(Self.maxItems) Exif and XMP items"
                return
            }
            items.append(item)
        }
        guard !items.isEmpty else { return }
        let places = child("iloc").map { Self.locations(bytes, $0, idat: child("idat")?.payload) } ?? [:]
        for index in items.indices { items[index].extents = places[items[index].id] ?? nil }
    }

    /// The Exif or XMP item an `infe` box (version 2 or 3) describes, or nil for another item.
    private static func item(_ bytes: [UInt8], _ infe: Box) -> Item? {
        let p = infe.payload
        guard p.count >= 4, bytes[p.lowerBound] == 2 || bytes[p.lowerBound] == 3 else { return nil }
        let wide = bytes[p.lowerBound] == 3
        var at = p.lowerBound + 4
        let idSize = wide ? 4 : 2
        guard at + idSize + 2 + 4 <= p.upperBound else { return nil }
        let id = UInt32(wide ? u32(bytes, at) : u16(bytes, at))
        at += idSize + 2  // the item ID, then item_protection_index
        let type = bytes[at..<at + 4]
        at += 4
        if type.elementsEqual("Exif".utf8) { return Item(id: id, kind: .exif, extents: nil) }
        guard type.elementsEqual("mime".utf8) else { return nil }
        // item_name, then content_type, each ended by a zero byte.
        guard let nameEnd = bytes[at..<p.upperBound].firstIndex(of: 0) else { return nil }
        let content = nameEnd + 1
        let contentEnd = bytes[content..<p.upperBound].firstIndex(of: 0) ?? p.upperBound
        guard bytes[content..<contentEnd].elementsEqual("application/rdf+xml".utf8) else { return nil }
        return Item(id: id, kind: .xmp, extents: nil)
    }

    /// Every item's extents from an `iloc` box (versions 0 to 2); an item whose extents cannot
    /// be placed in this file maps to nil.
    private static func locations(_ bytes: [UInt8], _ iloc: Box, idat: Range<Int>?) -> [UInt32: [Range<Int>]?] {
        var result: [UInt32: [Range<Int>]?] = [:]
        let p = iloc.payload
        guard p.count >= 6 else { return result }
        let version = bytes[p.lowerBound]
        guard version <= 2 else { return result }
        var at = p.lowerBound + 4
        let offsetSize = Int(bytes[at] >> 4), lengthSize = Int(bytes[at] & 0x0F)
        let baseSize = Int(bytes[at + 1] >> 4), indexSize = version >= 1 ? Int(bytes[at + 1] & 0x0F) : 0
        at += 2
        guard [offsetSize, lengthSize, baseSize, indexSize].allSatisfy({ $0 == 0 || $0 == 4 || $0 == 8 }) else { return result }
        func read(_ size: Int) -> Int? {
            guard at + size <= p.upperBound else { return nil }
            defer { at += size }
            switch size {
            case 0: return 0
            case 2: return u16(bytes, at)
            case 4: return u32(bytes, at)
            default: return u64(bytes, at)
            }
        }
        let idSize = version < 2 ? 2 : 4
        guard let itemCount = read(idSize) else { return result }
        var extentsRead = 0
        for _ in 0..<itemCount {
            guard let id = read(idSize), let method = version >= 1 ? read(2).map({ $0 & 0x0F }) : 0,
                  let reference = read(2), let base = read(baseSize), let extentCount = read(2)
            else { break }
            var extents: [Range<Int>]? = []
            for _ in 0..<extentCount {
                extentsRead += 1
                guard extentsRead <= maxExtents, read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else {
                    return result
                }
                // Method 0: in this file; 1: inside idat; anything else is not read here.
                let origin: Range<Int>? = reference != 0 ? nil : method == 0 ? bytes.indices : method == 1 ? idat : nil
                guard let origin, let start = add(origin.lowerBound, base, offset), start <= origin.upperBound,
                      let end = length == 0 ? origin.upperBound : add(start, length), end <= origin.upperBound
                else {
                    extents = nil
                    continue
                }
                extents?.append(start..<end)
            }
            result[UInt32(id)] = extents
        }
        return result
    }

    /// The sum, nil when it overflows.
    private static func add(_ values: Int...) -> Int? {
        var total = 0
        for value in values {
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return nil }
            total = sum
        }
        return total
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) << 16 | u16(bytes, at + 2) }
    /// A 64-bit value, nil past `Int.max`.
    static func u64(_ bytes: [UInt8], _ at: Int) -> Int? {
        let high = u32(bytes, at)
        guard high < 0x8000_0000 else { return nil }
        return high << 32 | u32(bytes, at + 4)
    }
}
