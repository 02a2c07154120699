/// The walk over a PNG's chunks (length, type, data, CRC): every chunk up to the first one whose
/// header does not read, the last one possibly cut short, and on past IEND while chunks still
/// read (a reader that ignores IEND would see them). Linear: each step moves forward.
struct PNGChunks: Sendable {
    /// The PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether the bytes start with the PNG signature.
    var isPNG: Bool
    /// The chunks, in file order.
    var chunks: [PhotoChunk]

    /// Walks `bytes`; never reads past the end, whatever they hold.
    init(_ bytes: [UInt8]) {
        chunks = []
        isPNG = bytes.starts(with: Self.signature)
        guard isPNG else { return }
        var position = Self.signature.count
        let count = bytes.count
        while position + 8 <= count {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length <= 0x7FFF_FFFF else { break }  // the PNG limit: past it, the structure is broken
            let type = bytes[position + 4..<position + 8]
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { break }
            let data = position + 8
            let end = data + length + 4
            if end > count {
                chunks.append(PhotoChunk(type: type, offset: position, payload: data..<min(data + length, count), end: count, truncated: true))
                break
            }
            chunks.append(PhotoChunk(type: type, offset: position, payload: data..<data + length, end: end, truncated: false))
            position = end
        }
    }
}
