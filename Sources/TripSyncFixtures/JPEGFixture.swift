/// JPEG files built in code for the location tests, the fuzz seeds and the benchmark: an Exif
/// APP1 segment in either byte order (IFD0 with orientation and a camera make, an Exif
/// directory, a GPS directory, IFD1 with a thumbnail), an optional XMP packet, and frame
/// segments with entropy-coded data. The image data does not decode to pixels; the structure
/// around it is what a JPEG's metadata readers walk.
package struct JPEGFixture: Sendable {
    /// The TIFF byte order of the Exif data.
    package enum ByteOrder: Sendable {
        /// Intel, "II".
        case little
        /// Motorola, "MM".
        case big
    }

    /// An unsigned rational, numerator over denominator.
    package typealias Rational = (numerator: UInt32, denominator: UInt32)

    /// The GPS directory's position: refs and degrees, minutes, seconds.
    package struct GPS: Sendable {
        /// "N" or "S".
        package var latitudeRef: String
        /// Degrees, minutes, seconds.
        package var latitude: [Rational]
        /// "E" or "W".
        package var longitudeRef: String
        /// Degrees, minutes, seconds.
        package var longitude: [Rational]
        /// Metres above sea level, when recorded.
        package var altitude: Rational?

        /// Lisbon, Praça do Comércio: 38° 42' 28.44" N, 9° 8' 11.52" W, 7 m.
        package static let lisbon = GPS(latitudeRef: "N", latitude: [(38, 1), (42, 1), (2844, 100)],
                                       longitudeRef: "W", longitude: [(9, 1), (8, 1), (1152, 100)], altitude: (7, 1))

        /// Creates a position.
        package init(latitudeRef: String, latitude: [Rational], longitudeRef: String, longitude: [Rational], altitude: Rational? = nil) {
            self.latitudeRef = latitudeRef
            self.latitude = latitude
            self.longitudeRef = longitudeRef
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// Where the parts of the TIFF data lie, relative to its header (what hostile tests corrupt).
    package struct Layout: Sendable {
        /// IFD0's offset.
        package var ifd0 = 8
        /// The Exif directory's offset, when there is one.
        package var exif: Int?
        /// The GPS directory's offset, when there is one.
        package var gps: Int?
        /// IFD1's offset, when there is one.
        package var ifd1: Int?
        /// The thumbnail's offset, when there is one.
        package var thumbnail: Int?
    }

    /// The Exif byte order.
    package var byteOrder: ByteOrder = .little
    /// Orientation (tag 0x0112), when written.
    package var orientation: UInt16? = 6
    /// The camera make (tag 0x010F, stored outside the entry).
    package var make: String? = "TripSync Camera"
    /// The capture time in the Exif directory (tag 0x9003), when written.
    package var dateTimeOriginal: String? = "2027:06:10 12:30:00"
    /// The GPS directory, when written.
    package var gps: GPS? = .lisbon
    /// Whether IFD1 with a small JPEG thumbnail follows IFD0.
    package var thumbnail = true
    /// Whether the Exif APP1 segment is written at all.
    package var exif = true
    /// An XMP packet (its text, written after the standard XMP header), when written.
    package var xmp: String?
    /// The entropy-coded data between SOS and EOI (with a stuffed byte and a restart marker).
    package var scanData: [UInt8] = [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78, 0x9A, 0xBC, 0xDE, 0xF0]

    /// The default fixture: little-endian Exif with orientation 6, a make, an Exif directory,
    /// the Lisbon GPS directory and a thumbnail.
    package init() {}

    /// An XMP packet whose exif:GPSLatitude and exif:GPSLongitude are attributes (like Lightroom's).
    package static func xmpAttributes(latitude: String = "38,42.474N", longitude: String = "9,8.192W") -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
         tiff:Orientation="6" exif:GPSLatitude="\(latitude)" exif:GPSLongitude="\(longitude)" exif:GPSAltitude="7/1"/>
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// An XMP packet whose GPS properties are elements.
    package static func xmpElements(latitude: String = "38,42,28.44N", longitude: String = "9,8,11.52W") -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
         <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tram 28</rdf:li></rdf:Alt></dc:title>
         <exif:GPSLatitude>\(latitude)</exif:GPSLatitude>
         <exif:GPSLongitude>\(longitude)</exif:GPSLongitude>
         <exif:GPSVersionID>2.3.0.0</exif:GPSVersionID>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// The whole JPEG.
    package func bytes() -> [UInt8] {
        var segments: [(UInt8, [UInt8])] = [(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])]
        if exif { segments.append((0xE1, Array("Exif".utf8) + [0, 0] + tiff().bytes)) }
        if let xmp { segments.append((0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8))) }
        return Self.jpeg(segments: segments, scanData: scanData)
    }

    /// The GPS values as stored (latitude, longitude and altitude rationals, in this byte order):
    /// what must not be left in a stripped copy.
    package func gpsValueBytes() -> [[UInt8]] {
        guard let gps else { return [] }
        let order = Encoder(big: byteOrder == .big)
        return [order.rationals(gps.latitude), order.rationals(gps.longitude)] + (gps.altitude.map { [order.rationals([$0])] } ?? [])
    }

    /// A JPEG of `segments` (marker, payload) between SOI and the frame, then the frame header
    /// segments, SOS, `scanData` and EOI.
    package static func jpeg(segments: [(marker: UInt8, payload: [UInt8])], scanData: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        let frame: [(UInt8, [UInt8])] = [
            (0xDB, [0] + (1...64).map { UInt8($0) }),  // one quantisation table
            (0xC0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]),  // 16×16, one component
            (0xC4, [0] + [UInt8](repeating: 0, count: 15) + [1] + [0]),  // one Huffman table
            (0xDA, [1, 1, 0, 0, 63, 0]),  // start of scan
        ]
        for (marker, payload) in segments + frame {
            let length = payload.count + 2
            out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return out + scanData + [0xFF, 0xD9]
    }

    /// The Exif TIFF data and where its parts lie.
    package func tiff() -> (bytes: [UInt8], layout: Layout) {
        let order = Encoder(big: byteOrder == .big)
        var layout = Layout()
        // IFD0's entries, with the pointers' values filled in once the sizes are known.
        var ifd0: [Field] = []
        if let make { ifd0.append(Field(tag: 0x010F, type: 2, count: make.utf8.count + 1, value: Array(make.utf8) + [0])) }
        if let orientation { ifd0.append(Field(tag: 0x0112, type: 3, count: 1, value: order.u16(orientation))) }
        let exifFields: [Field] = dateTimeOriginal.map { [Field(tag: 0x9003, type: 2, count: $0.utf8.count + 1, value: Array($0.utf8) + [0])] } ?? []
        var gpsFields: [Field] = []
        if let gps {
            gpsFields = [
                Field(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0]),
                Field(tag: 0x0001, type: 2, count: 2, value: Array(gps.latitudeRef.utf8.prefix(1)) + [0]),
                Field(tag: 0x0002, type: 5, count: gps.latitude.count, value: order.rationals(gps.latitude)),
                Field(tag: 0x0003, type: 2, count: 2, value: Array(gps.longitudeRef.utf8.prefix(1)) + [0]),
                Field(tag: 0x0004, type: 5, count: gps.longitude.count, value: order.rationals(gps.longitude)),
            ]
            if let altitude = gps.altitude {
                gpsFields += [Field(tag: 0x0005, type: 1, count: 1, value: [0]), Field(tag: 0x0006, type: 5, count: 1, value: order.rationals([altitude]))]
            }
        }
        let thumbnailBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01, 0xFF, 0xD9]
        var ifd1: [Field] = [Field(tag: 0x0103, type: 3, count: 1, value: order.u16(6))]
        if !exifFields.isEmpty { ifd0.append(Field(tag: 0x8769, type: 4, count: 1, value: [0, 0, 0, 0])) }
        if gps != nil { ifd0.append(Field(tag: 0x8825, type: 4, count: 1, value: [0, 0, 0, 0])) }
        if thumbnail {
            ifd1 += [Field(tag: 0x0201, type: 4, count: 1, value: [0, 0, 0, 0]), Field(tag: 0x0202, type: 4, count: 1, value: order.u32(UInt32(thumbnailBytes.count)))]
        }
        // Sizes are known before the pointers' values: lay out IFD0, Exif, GPS, IFD1, thumbnail.
        var next = 8 + Self.size(ifd0)
        if !exifFields.isEmpty { layout.exif = next; next += Self.size(exifFields) }
        if gps != nil { layout.gps = next; next += Self.size(gpsFields) }
        if thumbnail { layout.ifd1 = next; next += Self.size(ifd1); layout.thumbnail = next }
        for index in ifd0.indices {
            if ifd0[index].tag == 0x8769, let at = layout.exif { ifd0[index].value = order.u32(UInt32(at)) }
            if ifd0[index].tag == 0x8825, let at = layout.gps { ifd0[index].value = order.u32(UInt32(at)) }
        }
        for index in ifd1.indices where ifd1[index].tag == 0x0201 {
            ifd1[index].value = order.u32(UInt32(layout.thumbnail ?? 0))
        }
        var out: [UInt8] = byteOrder == .big ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        out += order.u32(8)
        out += order.directory(ifd0, at: 8, next: layout.ifd1 ?? 0)
        if let at = layout.exif { out += order.directory(exifFields, at: at, next: 0) }
        if let at = layout.gps { out += order.directory(gpsFields, at: at, next: 0) }
        if let at = layout.ifd1 { out += order.directory(ifd1, at: at, next: 0) + thumbnailBytes }
        return (out, layout)
    }

    /// One directory entry with its value bytes already in the byte order.
    struct Field {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var value: [UInt8]
    }

    /// A directory's size: count, entries, link, then the values that do not fit in an entry.
    static func size(_ fields: [Field]) -> Int {
        2 + 12 * fields.count + 4 + fields.reduce(0) { $0 + ($1.value.count > 4 ? $1.value.count + $1.value.count % 2 : 0) }
    }

    /// Numbers in one byte order.
    struct Encoder {
        var big: Bool

        func u16(_ value: UInt16) -> [UInt8] {
            big ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }

        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            return big ? bytes.reversed() : bytes
        }

        func rationals(_ values: [Rational]) -> [UInt8] {
            values.flatMap { u32($0.numerator) + u32($0.denominator) }
        }

        /// A directory at `offset`: entries (values of more than four bytes after the link, each
        /// at an even offset), the link to `next`, then those values.
        func directory(_ fields: [Field], at offset: Int, next: Int) -> [UInt8] {
            var entries = u16(UInt16(fields.count))
            var data: [UInt8] = []
            var dataAt = offset + 2 + 12 * fields.count + 4
            for field in fields {
                entries += u16(field.tag) + u16(field.type) + u32(UInt32(field.count))
                if field.value.count <= 4 {
                    entries += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
                } else {
                    entries += u32(UInt32(dataAt))
                    let padded = field.value + (field.value.count % 2 == 1 ? [0] : [])
                    data += padded
                    dataAt += padded.count
                }
            }
            return entries + u32(UInt32(next)) + data
        }
    }
}
