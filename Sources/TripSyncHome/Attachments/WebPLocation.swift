/// Where a WebP says it was taken: its `EXIF` chunk (Exif, read by the same code as a JPEG's
/// APP1 segment) and its `XMP ` chunk, removed in place in a copy. A chunk that cannot be edited
/// in place is left out of the copy instead; the RIFF size then shrinks by what was left out,
/// and the VP8X flags (bit 3 Exif, bit 2 XMP) are cleared when no chunk of that kind remains.
///
/// Both functions take any bytes: bounds are checked on every read and the work is linear in
/// the input. See docs/DESIGN.md, "Attachments: location in photos".
enum WebPLocation {
    /// The VP8X flag saying an EXIF chunk follows.
    static let exifFlag: UInt8 = 0x08
    /// The VP8X flag saying an XMP chunk follows.
    static let xmpFlag: UInt8 = 0x04

    /// What a WebP records of where it was taken; `.notPhoto` when it is not a WebP.
    static func find(in bytes: [UInt8]) -> JPEGLocation.Finding {
        let walk = WebPChunks(bytes)
        guard walk.isWebP else { return .notPhoto }
        return JPEGLocation.finding(of: scans(bytes, walk.chunks).map(\.1))
    }

    /// A copy of `bytes` without the location (see the type's description).
    static func strip(_ bytes: [UInt8]) -> JPEGLocation.Stripped {
        let walk = WebPChunks(bytes)
        guard walk.isWebP else { return JPEGLocation.Stripped(bytes: bytes, finding: .notPhoto, changes: []) }
        let result = PhotoChunkStrip.strip(
            bytes, chunks: walk.chunks, scans: { scans($0, WebPChunks($0).chunks) },
            seal: { _, _ in }, finish: { output, removed in finish(&output, removed: removed, original: bytes) })
        return JPEGLocation.Stripped(bytes: result.bytes, finding: result.finding, changes: result.changes)
    }

    /// The scan of every chunk that may hold a location.
    static func scans(_ bytes: [UInt8], _ chunks: [PhotoChunk]) -> [(PhotoChunk, JPEGLocationScan)] {
        chunks.compactMap { chunk in
            if chunk.is("EXIF") { return (chunk, EXIFLocation.scan(bytes, tiff: EXIFTIFF.chunkTIFF(bytes, chunk.payload), at: chunk.offset)) }
            if chunk.is("XMP ") { return (chunk, JPEGXMPLocation.scan(bytes, packet: chunk.payload, at: chunk.offset)) }
            return nil
        }
    }

    /// After chunks were left out: the RIFF size loses their bytes, and the VP8X flags of the
    /// kinds no longer present are cleared.
    static func finish(_ output: inout [UInt8], removed: [PhotoChunk], original: [UInt8]) {
        let riffEnd = 8 + WebPChunks.u32(original, 4)
        let inside = removed.reduce(0) { $0 + max(0, min($1.end, riffEnd) - $1.offset) }
        let size = max(4, WebPChunks.u32(original, 4) - inside)
        for index in 0..<4 { output[4 + index] = UInt8((size >> (8 * index)) & 0xFF) }
        let left = WebPChunks(output).chunks
        guard let vp8x = left.first, vp8x.is("VP8X"), !vp8x.payload.isEmpty else { return }
        var flags = output[vp8x.payload.lowerBound]
        if !left.contains(where: { $0.is("EXIF") }) { flags &= ~exifFlag }
        if !left.contains(where: { $0.is("XMP ") }) { flags &= ~xmpFlag }
        output[vp8x.payload.lowerBound] = flags
    }
}
