/// One chunk of a PNG or WebP file: its four-letter type, where its header starts, its payload
/// and where it ends (after a PNG chunk's CRC, after a WebP chunk's pad byte).
struct PhotoChunk: Hashable, Sendable {
    /// The chunk type ("eXIf", "iTXt", "EXIF", "XMP ", …) as its four bytes.
    var type: ArraySlice<UInt8>
    /// The offset of the chunk's first byte (its length field in a PNG, its type in a WebP).
    var offset: Int
    /// The payload, clipped to the file when the file is cut short inside it.
    var payload: Range<Int>
    /// The offset just after the chunk; the file's length when it is cut short.
    var end: Int
    /// Whether the file ends inside the chunk.
    var truncated: Bool

    /// Whether the type is `name`.
    func `is`(_ name: String) -> Bool { type.elementsEqual(name.utf8) }
}
