/// The type of a blob, sniffed from its first bytes (the magic numbers), never from its name.
package enum BlobType: String, Sendable, CaseIterable {
    /// A JPEG image (`FF D8 FF`).
    case jpeg = "image/jpeg"
    /// A PNG image (its 8-byte signature).
    case png = "image/png"
    /// A GIF image (`GIF87a` or `GIF89a`).
    case gif = "image/gif"
    /// A WebP image (`RIFF`, a size, `WEBP`).
    case webp = "image/webp"
    /// A HEIC/HEIF image (an ISO base media `ftyp` box with a HEIF brand).
    case heic = "image/heic"
    /// A PDF document (`%PDF-`).
    case pdf = "application/pdf"
    /// Anything else.
    case octetStream = "application/octet-stream"

    /// How many first bytes `sniff` looks at (the `ftyp` box's brands lie within them).
    package static let sniffLength = 64

    /// The brands of an `ftyp` box that make a file HEIC/HEIF (ISO/IEC 23008-12).
    private static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]

    /// The type of a file whose first bytes are `prefix` (at least `sniffLength` of them when
    /// the file is that long).
    package static func sniff(_ prefix: [UInt8]) -> BlobType {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + magic.count && prefix[offset..<offset + magic.count].elementsEqual(magic)
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if isHEIF(prefix) { return .heic }
        return .octetStream
    }

    /// An `ftyp` box first, whose major brand or one of whose compatible brands is a HEIF brand
    /// (an AVIF, `avif` with `mif1` compatible, counts as HEIF only by that compatible brand,
    /// so AVIF's own major brand is checked first).
    private static func isHEIF(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 16, prefix[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let size = Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
        guard size >= 16, size % 4 == 0 else { return false }
        func brand(at offset: Int) -> String? {
            guard offset + 4 <= min(size, prefix.count) else { return nil }
            return String(decoding: prefix[offset..<offset + 4], as: UTF8.self)
        }
        guard let major = brand(at: 8) else { return false }
        if major == "avif" || major == "avis" { return false }
        if heifBrands.contains(major) { return true }
        var offset = 16  // after the major brand and the minor version
        while let compatible = brand(at: offset) {
            if heifBrands.contains(compatible) { return true }
            offset += 4
        }
        return false
    }
}
