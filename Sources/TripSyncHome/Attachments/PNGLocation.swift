import CZlib
import TripSyncCore

/// Where a PNG says it was taken: its `eXIf` chunk (Exif, read by the same code as a JPEG's
/// APP1 segment) and its XMP packet (an `iTXt`, `tEXt` or `zTXt` chunk with the keyword
/// "XML:com.adobe.xmp"), removed in a copy whose edited chunks get their CRC again (zlib's
/// crc32). A chunk that cannot be edited in place (compressed XMP with GPS, read after zlib
/// inflates it; Exif that does not read; ImageMagick's hex "Raw profile type exif/xmp/APP1"
/// text) is left out of the copy instead.
///
/// Both functions take any bytes: bounds are checked on every read and the work is linear in
/// the input. See docs/DESIGN.md, "Attachments: location in photos".
enum PNGLocation {
    /// The keyword of the text chunk that holds XMP.
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    /// What a PNG records of where it was taken; `.notPhoto` when it is not a PNG.
    static func find(in bytes: [UInt8]) -> JPEGLocation.Finding {
        let walk = PNGChunks(bytes)
        guard walk.isPNG else { return .notPhoto }
        return JPEGLocation.finding(of: scans(bytes, walk.chunks).map(\.1))
    }

    /// A copy of `bytes` without the location (see the type's description).
    static func strip(_ bytes: [UInt8]) -> JPEGLocation.Stripped {
        let walk = PNGChunks(bytes)
        guard walk.isPNG else { return JPEGLocation.Stripped(bytes: bytes, finding: .notPhoto, changes: []) }
        let result = PhotoChunkStrip.strip(
            bytes, chunks: walk.chunks, scans: { scans($0, PNGChunks($0).chunks) },
            seal: { output, chunk in seal(&output, chunk) }, finish: { _, _ in })
        return JPEGLocation.Stripped(bytes: result.bytes, finding: result.finding, changes: result.changes)
    }

    /// The scan of every chunk that may hold a location.
    static func scans(_ bytes: [UInt8], _ chunks: [PhotoChunk]) -> [(PhotoChunk, JPEGLocationScan)] {
        chunks.compactMap { chunk in scan(bytes, chunk).map { (chunk, $0) } }
    }

    /// What `chunk` records, or nil when it is no chunk that holds Exif or XMP.
    static func scan(_ bytes: [UInt8], _ chunk: PhotoChunk) -> JPEGLocationScan? {
        let place = "the \(String(decoding: chunk.type, as: UTF8.self)) chunk at offset \(chunk.offset)"
        if chunk.is("eXIf") {
            return EXIFLocation.scan(bytes, tiff: EXIFTIFF.chunkTIFF(bytes, chunk.payload), at: chunk.offset)
        }
        guard chunk.is("iTXt") || chunk.is("tEXt") || chunk.is("zTXt") else { return nil }
        let payload = chunk.payload
        // The keyword: 1 to 79 bytes, then a zero byte.
        guard let keywordEnd = bytes[payload.lowerBound..<min(payload.upperBound, payload.lowerBound + 80)].firstIndex(of: 0) else {
            return nil  // no keyword a reader would take: not XMP
        }
        let keyword = bytes[payload.lowerBound..<keywordEnd]
        if keyword.elementsEqual(xmpKeyword) {
            if chunk.is("tEXt") { return JPEGXMPLocation.scan(bytes, packet: keywordEnd + 1..<payload.upperBound, at: chunk.offset) }
            // zTXt: a compression method byte, then the zlib stream.
            if chunk.is("zTXt") { return compressed(bytes[min(keywordEnd + 2, payload.upperBound)..<payload.upperBound], place: place, at: chunk.offset) }
            // iTXt: compression flag and method, a language tag and a translated keyword (each
            // ended by a zero byte), then the text.
            let flag = keywordEnd + 1
            guard flag + 2 <= payload.upperBound,
                  let languageEnd = bytes[flag + 2..<payload.upperBound].firstIndex(of: 0),
                  let translatedEnd = bytes[languageEnd + 1..<payload.upperBound].firstIndex(of: 0)
            else { return .unreadable("\(place) holds XMP whose header does not read, so it may record a location") }
            guard bytes[flag] == 0 else { return compressed(bytes[translatedEnd + 1..<payload.upperBound], place: place, at: chunk.offset) }
            return JPEGXMPLocation.scan(bytes, packet: translatedEnd + 1..<payload.upperBound, at: chunk.offset)
        }
        // ImageMagick keeps a JPEG's Exif, XMP or APP1 as hex text ("Raw profile type exif").
        let lowered = keyword.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        for profile in ["raw profile type exif", "raw profile type app1", "raw profile type xmp"] where lowered.elementsEqual(profile.utf8) {
            return .unreadable("\(place) holds Exif or XMP as hex text (\"\(profile)\"), which is not read here, so it may record a location")
        }
        return nil
    }

    /// The most bytes compressed XMP may inflate to before it counts as unreadable.
    static let maxInflatedXMP = 16 << 20

    /// What compressed XMP records: inflated by zlib (at most `maxInflatedXMP` bytes) and read
    /// by the XMP code. With GPS properties the chunk is left out of a copy as a whole rather
    /// than recompressed; a stream that does not inflate may record a location.
    static func compressed(_ stream: ArraySlice<UInt8>, place: String, at offset: Int) -> JPEGLocationScan {
        guard let text = Zlib.inflate(stream, limit: maxInflatedXMP) else {
            return .unreadable("\(place) holds compressed XMP that does not inflate (or inflates past \(maxInflatedXMP >> 20) MiB), so it may record a location")
        }
        var scan = JPEGXMPLocation.scan(text, packet: text.indices, at: offset)
        guard scan.present else { return JPEGLocationScan() }
        // The edits are offsets into the inflated text: the chunk goes as a whole instead.
        scan.edits = []
        scan.change = nil
        scan.blankWhole = true
        if scan.coordinate != nil || scan.problem == nil { scan.problem = "\(place) holds compressed XMP with GPS properties, left out rather than recompressed" }
        return scan
    }

    /// Writes the CRC of `chunk` (over its type and data) after its data; a chunk cut short has none.
    static func seal(_ output: inout [UInt8], _ chunk: PhotoChunk) {
        guard !chunk.truncated else { return }
        let crc = output.withUnsafeBufferPointer { buffer -> UInt32 in
            guard let base = buffer.baseAddress else { return 0 }
            return UInt32(truncatingIfNeeded: crc32(0, base + chunk.offset + 4, uInt(chunk.payload.count + 4)))
        }
        let at = chunk.payload.upperBound
        output[at] = UInt8(crc >> 24)
        output[at + 1] = UInt8((crc >> 16) & 0xFF)
        output[at + 2] = UInt8((crc >> 8) & 0xFF)
        output[at + 3] = UInt8(crc & 0xFF)
    }
}
