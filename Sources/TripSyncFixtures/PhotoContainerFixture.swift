import CZlib

/// PNG, WebP and HEIC files built in code around the Exif TIFF data and XMP packets of
/// `JPEGFixture`, for the location tests, the fuzz seeds and the benchmark. The image data does
/// not decode to pixels; the containers' structure (PNG chunks with their CRCs, RIFF chunks with
/// the VP8X flags, HEIF boxes with `iinf` and `iloc`) is what metadata readers walk.
package enum PhotoContainerFixture {
    /// Which chunk holds a PNG's XMP packet.
    package enum PNGXMP: Sendable {
        /// An uncompressed `iTXt` chunk (what exiftool and Pillow's `PngInfo.add_itxt` write).
        case iTXt
        /// A compressed `iTXt` chunk (the packet deflated by zlib).
        case compressedITXt
        /// A `tEXt` chunk.
        case tEXt
    }

    /// One PNG chunk: length, type, data, CRC (zlib's crc32 over type and data).
    package static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let body = typeBytes + data
        let crc = body.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, uInt($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    /// A 1×1 grey PNG with an `eXIf` chunk holding `exif` (TIFF data, after "Exif\0\0" when
    /// `exifPrefix`) and an XMP packet in the chunk `xmpChunk`, before the image data.
    package static func png(exif: [UInt8]?, exifPrefix: Bool = false, xmp: String? = nil, xmpChunk: PNGXMP = .iTXt) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += pngChunk("IHDR", bigEndian(1) + bigEndian(1) + [8, 0, 0, 0, 0])
        if let exif { out += pngChunk("eXIf", (exifPrefix ? Array("Exif".utf8) + [0, 0] : []) + exif) }
        if let xmp {
            let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
            switch xmpChunk {
            case .iTXt: out += pngChunk("iTXt", keyword + [0, 0, 0, 0] + Array(xmp.utf8))
            case .compressedITXt: out += pngChunk("iTXt", keyword + [1, 0, 0, 0] + deflate(Array(xmp.utf8)))
            case .tEXt: out += pngChunk("tEXt", keyword + Array(xmp.utf8))
            }
        }
        out += pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
        out += pngChunk("IEND", [])
        return out
    }

    /// One RIFF chunk: type, little-endian size, data, a zero pad byte when the size is odd.
    package static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + littleEndian(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// A WebP (extended format: VP8X with the Exif and XMP flags set for what follows, a VP8L
    /// image chunk, then `EXIF` and `XMP ` chunks); without `vp8x`, the simple format with the
    /// metadata chunks after the image chunk.
    package static func webp(exif: [UInt8]?, exifPrefix: Bool = false, xmp: String? = nil, vp8x: Bool = true) -> [UInt8] {
        var chunks: [UInt8] = []
        if vp8x {
            let flags: UInt8 = (exif != nil ? 0x08 : 0) | (xmp != nil ? 0x04 : 0)
            chunks += riffChunk("VP8X", [flags, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        chunks += riffChunk("VP8L", [0x2F, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00])
        if let exif { chunks += riffChunk("EXIF", (exifPrefix ? Array("Exif".utf8) + [0, 0] : []) + exif) }
        if let xmp { chunks += riffChunk("XMP ", Array(xmp.utf8)) }
        return Array("RIFF".utf8) + littleEndian(UInt32(4 + chunks.count)) + Array("WEBP".utf8) + chunks
    }

    /// Where a HEIC fixture keeps its Exif item.
    package enum HEIFPlace: Sendable {
        /// One extent in `mdat` (construction method 0).
        case mdat
        /// One extent in `idat` (construction method 1).
        case idat
        /// Two extents in `mdat`: readable, but not editable in place.
        case split
    }

    /// A HEIC: `ftyp` (heic, mif1), `meta` with `hdlr`, `iinf` (an hvc1 image item 1, an Exif
    /// item 2, a "mime" XMP item 3), `iloc` version 1 and, for `.idat`, an `idat` box; then
    /// `mdat` with the image bytes, the Exif item ("Exif\0\0" and its 4-byte offset 6 first,
    /// as cameras write it) and the XMP packet.
    package static func heic(exif: [UInt8]?, xmp: String? = nil, place: HEIFPlace = .mdat) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let image: [UInt8] = [0x00, 0x00, 0x00, 0x04, 0x26, 0x01, 0xAF, 0x13]
        let exifItem = exif.map { bigEndian(6) + Array("Exif".utf8) + [0, 0] + $0 }
        let xmpItem = xmp.map { Array($0.utf8) }
        func infe(_ id: UInt16, _ type: String, _ rest: [UInt8]) -> [UInt8] {
            fullBox("infe", version: 2, bigEndian16(id) + [0, 0] + Array(type.utf8) + rest)
        }
        var infos = infe(1, "hvc1", [0])
        if exifItem != nil { infos += infe(2, "Exif", [0]) }
        if xmpItem != nil { infos += infe(3, "mime", Array("XMP".utf8) + [0] + Array("application/rdf+xml".utf8) + [0]) }
        let itemCount = 1 + (exifItem == nil ? 0 : 1) + (xmpItem == nil ? 0 : 1)
        let iinf = fullBox("iinf", version: 0, bigEndian16(UInt16(itemCount)) + infos)
        let hdlr = fullBox("hdlr", version: 0, [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        // iloc version 1: offsets and lengths of 4 bytes, no base offset, no index.
        func iloc(mdatData: Int) -> [UInt8] {
            var entries: [UInt8] = []
            func entry(_ id: UInt16, method: UInt16, _ extents: [(Int, Int)]) {
                entries += bigEndian16(id) + bigEndian16(method) + [0, 0] + bigEndian16(UInt16(extents.count))
                for (offset, length) in extents { entries += bigEndian(UInt32(offset)) + bigEndian(UInt32(length)) }
            }
            entry(1, method: 0, [(mdatData, image.count)])
            var next = mdatData + image.count
            if let exifItem {
                switch place {
                case .mdat: entry(2, method: 0, [(next, exifItem.count)]); next += exifItem.count
                case .idat: entry(2, method: 1, [(0, exifItem.count)])
                case .split:
                    let half = exifItem.count / 2
                    entry(2, method: 0, [(next, half), (next + half, exifItem.count - half)])
                    next += exifItem.count
                }
            }
            if let xmpItem { entry(3, method: 0, [(next, xmpItem.count)]) }
            return fullBox("iloc", version: 1, [0x44, 0x00] + bigEndian16(UInt16(itemCount)) + entries)
        }
        let idat = place == .idat ? exifItem.map { box("idat", $0) } ?? [] : []
        func meta(_ mdatData: Int) -> [UInt8] { fullBox("meta", version: 0, hdlr + iinf + iloc(mdatData: mdatData) + idat) }
        // The sizes do not depend on the offsets: lay out once with 0, then with the real one.
        let mdatData = ftyp.count + meta(0).count + 8
        var data = image
        if place != .idat, let exifItem { data += exifItem }
        if let xmpItem { data += xmpItem }
        return ftyp + meta(mdatData) + box("mdat", data)
    }

    /// An ISO base media box.
    package static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        bigEndian(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A full box: version, three bytes of flags, then the payload.
    package static func fullBox(_ type: String, version: UInt8, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    /// Whether every chunk of the PNG `bytes` has the CRC zlib computes (false when a chunk does
    /// not read).
    package static func pngCRCsHold(_ bytes: [UInt8]) -> Bool {
        var position = 8
        while position < bytes.count {
            guard position + 12 <= bytes.count else { return false }
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard position + 12 + length <= bytes.count else { return false }
            let body = Array(bytes[position + 4..<position + 8 + length])
            let crc = body.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, uInt($0.count))) }
            guard Array(bytes[position + 8 + length..<position + 12 + length]) == bigEndian(crc) else { return false }
            position += 12 + length
        }
        return true
    }

    /// `data` deflated by zlib (a zlib stream, as a compressed iTXt holds).
    package static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBufferPointer { input in compress(&out, &length, input.baseAddress, uLong(input.count)) }
        return status == Z_OK ? Array(out.prefix(Int(length))) : []
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
    static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func littleEndian(_ value: UInt32) -> [UInt8] { bigEndian(value).reversed() }
}
