/// Stripping a file made of chunks (PNG, WebP) with the one Exif and XMP location code: a chunk
/// whose location can be removed in place is edited (its length kept, `seal` then fixes what
/// covers it, a PNG chunk's CRC); a chunk that cannot be edited safely, or still records a
/// location once edited, is left out of the copy, and `finish` fixes what counts the chunks
/// (a WebP's RIFF size and VP8X flags). Every other chunk is copied byte for byte.
enum PhotoChunkStrip {
    /// What `strip` returns.
    struct Result {
        /// The copy.
        var bytes: [UInt8]
        /// What the input recorded.
        var finding: JPEGLocation.Finding
        /// What was changed, in file order.
        var changes: [JPEGLocation.Change]
    }

    /// Strips `bytes`, whose chunks are `chunks` and whose location-bearing chunks `scans` reads.
    static func strip(
        _ bytes: [UInt8], chunks: [PhotoChunk], scans: ([UInt8]) -> [(PhotoChunk, JPEGLocationScan)],
        seal: (inout [UInt8], PhotoChunk) -> Void, finish: (inout [UInt8], _ removed: [PhotoChunk]) -> Void
    ) -> Result {
        let found = scans(bytes)
        var output = bytes
        var changes: [(offset: Int, change: JPEGLocation.Change)] = []
        var removed: [Int: String] = [:]
        for (chunk, scan) in found where scan.present {
            if scan.blankWhole || scan.change == nil {
                removed[chunk.offset] = scan.problem ?? "the chunk cannot be edited in place"
            } else if let change = scan.change {
                for edit in scan.edits { output.replaceSubrange(edit.offset..<edit.offset + edit.bytes.count, with: edit.bytes) }
                seal(&output, chunk)
                changes.append((chunk.offset, change))
            }
        }
        // The edits were made from one reading of each chunk; read the result again, and leave
        // out whatever still records a location (only hostile layouts).
        for (chunk, scan) in scans(output) where scan.present && removed[chunk.offset] == nil {
            removed[chunk.offset] = "editing it in place left location data behind"
        }
        let finding = JPEGLocation.finding(of: found.map(\.1))
        guard !removed.isEmpty else { return Result(bytes: output, finding: finding, changes: changes.map(\.change)) }
        var result: [UInt8] = []
        result.reserveCapacity(output.count)
        var cursor = 0
        var gone: [PhotoChunk] = []
        for chunk in chunks {
            guard let reason = removed[chunk.offset] else { continue }
            result += output[cursor..<chunk.offset]
            cursor = chunk.end
            gone.append(chunk)
            changes.append((chunk.offset, .chunkRemoved(chunkOffset: chunk.offset, reason: reason)))
        }
        result += output[cursor...]
        finish(&result, gone)
        changes.sort { $0.offset < $1.offset }
        return Result(bytes: result, finding: finding, changes: changes.map(\.change))
    }
}
