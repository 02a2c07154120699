/// GPS properties in XMP (APP1 "http://ns.adobe.com/xap/1.0/"): any property whose local name
/// starts with "GPS" (exif:GPSLatitude, exif:GPSLongitude, exif:GPSAltitude, …), as an
/// attribute or as an element, whatever its prefix. Stripping writes spaces over each property,
/// so the packet keeps its length and stays well-formed XML; a packet whose GPS properties
/// cannot be delimited is blanked whole. Extended XMP (chunks of a packet too large for one
/// segment) is scanned as one text and blanked whole when it mentions GPS.
enum JPEGXMPLocation {
    /// The payload's start in a standard XMP segment.
    static let packetHeader = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The payload's start in an extended XMP segment (then a 32-byte GUID, length and offset).
    static let extensionHeader = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]

    /// One GPS property: the bytes it occupies and its value's text, when it has one.
    struct Property {
        var range: Range<Int>
        var localName: ArraySlice<UInt8>
        var value: Range<Int>?
    }

    /// What the GPS properties of a standard XMP segment record, or nil when it is not XMP.
    static func scan(_ bytes: [UInt8], _ segment: JPEGSegment) -> JPEGLocationScan? {
        guard bytes[segment.payload].starts(with: packetHeader) else { return nil }
        return scan(bytes, packet: segment.payload.lowerBound + packetHeader.count..<segment.payload.upperBound, at: segment.offset)
    }

    /// What the GPS properties of the XMP packet `packet` of `bytes` record: the one reading of
    /// XMP GPS for every container (a JPEG's APP1 segment, a PNG `iTXt` chunk, a WebP `XMP `
    /// chunk, a HEIF XMP item). `offset` is where its segment or chunk starts. The edits only
    /// overwrite bytes inside `packet`.
    static func scan(_ bytes: [UInt8], packet: Range<Int>, at offset: Int) -> JPEGLocationScan {
        let place = "the XMP packet at offset \(offset)"
        guard let properties = properties(in: bytes, packet) else {
            return .unreadable("\(place) has a GPS property that cannot be delimited, so it may record a location")
        }
        guard !properties.isEmpty else { return JPEGLocationScan() }
        var scan = JPEGLocationScan(present: true)
        scan.edits = properties.map { .init(offset: $0.range.lowerBound, bytes: [UInt8](repeating: 0x20, count: $0.range.count)) }
        scan.change = .xmpPropertiesRemoved(segmentOffset: offset, count: properties.count)
        decode(properties, bytes, into: &scan, place: place)
        return scan
    }

    /// Whether `segment` is a chunk of extended XMP.
    static func isExtension(_ bytes: [UInt8], _ segment: JPEGSegment) -> Bool {
        bytes[segment.payload].starts(with: extensionHeader)
    }

    /// What the extended XMP chunks record, read as one text in file order: any ":GPS" in it
    /// counts, and the edits blank every chunk.
    static func scanExtensions(_ bytes: [UInt8], _ segments: [JPEGSegment]) -> JPEGLocationScan {
        var text: [UInt8] = []
        for segment in segments {
            let skip = min(segment.payload.count, extensionHeader.count + 40)
            text += bytes[segment.payload.lowerBound + skip..<segment.payload.upperBound]
        }
        guard let first = segments.first, find(Array(":GPS".utf8), in: text, text.indices) != nil else { return JPEGLocationScan() }
        var scan = JPEGLocationScan(present: true, blankWhole: true)
        let place = "the extended XMP at offset \(first.offset)"
        decode(properties(in: text, text.indices) ?? [], text, into: &scan, place: place)
        if scan.coordinate == nil { scan.problem = "\(place) mentions GPS data that cannot be read" }
        return scan
    }

    /// Sets the coordinate from exif:GPSLatitude and exif:GPSLongitude, or the problem.
    private static func decode(_ properties: [Property], _ bytes: [UInt8], into scan: inout JPEGLocationScan, place: String) {
        func value(_ name: String) -> ArraySlice<UInt8>? {
            guard let property = properties.first(where: { $0.localName.elementsEqual(name.utf8) }), let range = property.value else { return nil }
            return bytes[range]
        }
        if let latitude = value("GPSLatitude").flatMap({ degrees($0, "NS", limit: 90) }),
           let longitude = value("GPSLongitude").flatMap({ degrees($0, "EW", limit: 180) }) {
            scan.coordinate = JPEGLocation.Coordinate(latitude: latitude, longitude: longitude, source: .xmp)
        } else {
            scan.problem = "\(place) has GPS properties without a readable GPSLatitude and GPSLongitude (\"DDD,MM,SSk\" or \"DDD,MM.mmk\")"
        }
    }

    /// An XMP GPS coordinate, "DDD,MM,SSk" or "DDD,MM.mmk" (k a letter of `letters`), in signed degrees.
    static func degrees(_ text: ArraySlice<UInt8>, _ letters: String, limit: Double) -> Double? {
        let trimmed = text.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard let letter = trimmed.last, letters.utf8.contains(letter) else { return nil }
        let parts = trimmed.dropLast().split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        var scale = 1.0
        for part in parts {
            guard !part.isEmpty, part.count <= 32, part.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
                  let number = Double(String(decoding: part, as: UTF8.self))
            else { return nil }
            total += number / scale
            scale *= 60
        }
        guard total.isFinite, total <= limit else { return nil }
        return letter == letters.utf8.last ? -total : total
    }

    /// The GPS properties in `range` of `bytes`, in order; nil when one cannot be delimited
    /// (an unclosed element or quote, a prefix too long to trace). Linear: every search moves
    /// forward and the next starts where the last property ended.
    static func properties(in bytes: [UInt8], _ range: Range<Int>) -> [Property]? {
        let marker = Array(":GPS".utf8)
        var found: [Property] = []
        var position = range.lowerBound
        let end = range.upperBound
        while let colon = find(marker, in: bytes, position..<end) {
            var prefixStart = colon
            while prefixStart > position && colon - prefixStart < 64 && isNameByte(bytes[prefixStart - 1]) { prefixStart -= 1 }
            var nameEnd = colon + marker.count
            while nameEnd < end && isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let localName = bytes[colon + 1..<nameEnd]
            let before: UInt8? = prefixStart > range.lowerBound ? bytes[prefixStart - 1] : nil
            if prefixStart == colon {  // no prefix: not a property of any namespace
                position = nameEnd
                continue
            }
            if before.map(isNameByte) == true { return nil }  // a prefix longer than we trace
            if before == UInt8(ascii: "<") {
                guard let (elementEnd, value) = element(bytes, open: prefixStart - 1, name: prefixStart..<nameEnd, end) else { return nil }
                found.append(Property(range: prefixStart - 1..<elementEnd, localName: localName, value: value))
                position = elementEnd
            } else if before == UInt8(ascii: "/") {
                return nil  // a closing tag whose opening tag was not recognised
            } else if let value = attributeValue(bytes, after: nameEnd, end) {
                guard let value else { return nil }
                found.append(Property(range: prefixStart..<value.upperBound + 1, localName: localName, value: value))
                position = value.upperBound + 1
            } else {
                position = nameEnd  // a mention in text
            }
        }
        return found
    }

    /// After a name: `= "value"` gives the value's range (`.some(nil)` when the quote is never
    /// closed); nil when no `=` and quote follow (not an attribute).
    private static func attributeValue(_ bytes: [UInt8], after start: Int, _ end: Int) -> Range<Int>?? {
        var index = start
        while index < end && isSpace(bytes[index]) { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < end && isSpace(bytes[index]) { index += 1 }
        guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        guard let close = bytes[index + 1..<end].firstIndex(of: bytes[index]) else { return .some(nil) }
        return .some(index + 1..<close)
    }

    /// An element opened at `open`: the end of its closing tag (or of the empty-element tag) and
    /// its content; nil when it is not closed.
    private static func element(_ bytes: [UInt8], open: Int, name: Range<Int>, _ end: Int) -> (Int, Range<Int>?)? {
        var index = name.upperBound
        guard index < end, bytes[index] == UInt8(ascii: ">") || bytes[index] == UInt8(ascii: "/") || isSpace(bytes[index]) else { return nil }
        while index < end && bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                guard let close = bytes[index + 1..<end].firstIndex(of: bytes[index]) else { return nil }
                index = close
            }
            index += 1
        }
        guard index < end else { return nil }
        if bytes[index - 1] == UInt8(ascii: "/") { return (index + 1, nil) }
        let content = index + 1
        let closing = Array("</".utf8) + bytes[name]
        guard let closeAt = find(closing, in: bytes, content..<end) else { return nil }
        var after = closeAt + closing.count
        while after < end && isSpace(bytes[after]) { after += 1 }
        guard after < end, bytes[after] == UInt8(ascii: ">") else { return nil }
        return (after + 1, content..<closeAt)
    }

    /// The first occurrence of `needle` inside `range` of `bytes`.
    static func find(_ needle: [UInt8], in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard let first = needle.first, range.count >= needle.count else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while index <= last {
            if bytes[index] == first && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte >= 0x80
    }
}
