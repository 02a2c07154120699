/// The walk over a WebP's RIFF chunks (type, little-endian size, payload, a pad byte to an even
/// size) from offset 12: every chunk to the end of the file (not only of the RIFF size, which a
/// hostile file may understate), the last one possibly cut short. Linear: each step moves forward.
struct WebPChunks: Sendable {
    /// Whether the bytes start with "RIFF", a size and "WEBP".
    var isWebP: Bool
    /// The chunks, in file order.
    var chunks: [PhotoChunk]

    /// Walks `bytes`; never reads past the end, whatever they hold.
    init(_ bytes: [UInt8]) {
        chunks = []
        isWebP = bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
        guard isWebP else { return }
        var position = 12
        let count = bytes.count
        while position + 8 <= count {
            let size = Self.u32(bytes, position + 4)
            let data = position + 8
            let end = data + size + size % 2
            if end > count {
                chunks.append(PhotoChunk(type: bytes[position..<position + 4], offset: position, payload: data..<min(data + size, count), end: count, truncated: true))
                break
            }
            chunks.append(PhotoChunk(type: bytes[position..<position + 4], offset: position, payload: data..<data + size, end: end, truncated: false))
            position = end
        }
    }

    /// The little-endian 32-bit value at `offset` (the caller checked that four bytes are there).
    static func u32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
}
