@testable import TripSync

/// libFuzzer entry point: `JPEGLocation.find` and `JPEGLocation.strip` on arbitrary bytes.
///
/// An input starting with 0x00 is *wrapped*: the rest becomes the TIFF data of an Exif APP1
/// segment in a small JPEG, so mutations reach the directory parser without first breaking the
/// marker structure; 0x02 does the same with an XMP packet. Every other input is read as it is
/// (the seeds are whole JPEGs). Then `ExifTarget.check` holds the result to every property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExifTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    ExifTarget.check(ExifTarget.input(bytes))
    return 0
}

enum ExifTarget {
    /// The bytes to read: wrapped into a JPEG for inputs starting with 0x00 or 0x02.
    static func input(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.first, first == 0x00 || first == 0x02 else { return bytes }
        let header = first == 0x00 ? Array("Exif".utf8) + [0, 0] : Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        let payload = header + bytes.dropFirst().prefix(65533 - header.count)
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9]
    }

    static func fail(_ property: String, _ detail: @autoclosure () -> String = "") -> Never {
        fatalError("FuzzExif: \(property) \(detail())")
    }

    /// The properties of reading and stripping `input`.
    static func check(_ input: [UInt8]) {
        let finding = JPEGLocation.find(in: input)
        let stripped = JPEGLocation.strip(input)
        let output = stripped.bytes
        if stripped.finding != finding { fail("strip's finding differs from find's", "\(stripped.finding) vs \(finding)") }
        // In place: never longer, never shorter.
        if output.count != input.count { fail("the copy's length changed", "\(input.count) → \(output.count)") }
        let again = JPEGLocation.find(in: output)
        if again.recordsLocation { fail("the stripped copy still records a location", "\(again); input: \(finding)") }
        if (finding == .notJPEG) != (again == .notJPEG) { fail("stripping changed whether it is a JPEG") }
        if !finding.recordsLocation {
            if output != input || !stripped.changes.isEmpty { fail("a file without location was changed", "\(stripped.changes)") }
        } else if stripped.changes.isEmpty {
            fail("a location was found but nothing removed", "\(finding)")
        }
        let twice = JPEGLocation.strip(output)
        if twice.bytes != output || !twice.changes.isEmpty { fail("stripping twice changed the copy again", "\(twice.changes)") }
        // Only APP1 segments change; everything else (image data, other segments) is the same bytes.
        let segments = JPEGSegments(input).app1
        var next = 0
        for index in input.indices where input[index] != output[index] {
            while next < segments.count && segments[next].range.upperBound <= index { next += 1 }
            if next == segments.count || !segments[next].range.contains(index) {
                fail("a byte outside every APP1 segment changed", "at offset \(index)")
            }
        }
        // Kept metadata: when no segment was blanked, each Exif segment's IFD0 keeps its orientation.
        guard stripped.keptOtherMetadata else { return }
        for segment in segments {
            if let before = orientation(input, segment), orientation(output, segment) != before {
                fail("orientation lost", "segment at \(segment.offset)")
            }
        }
    }

    /// The raw orientation entry (all 12 bytes) of the IFD0 of the Exif segment `segment`.
    static func orientation(_ bytes: [UInt8], _ segment: JPEGSegment) -> [UInt8]? {
        guard let data = EXIFTIFF.exifPayload(bytes, segment.payload), let tiff = EXIFTIFF(bytes, tiff: data),
              let first = tiff.firstDirectory, let ifd0 = tiff.directory(at: first),
              let entry = ifd0.entries.first(where: { $0.tag == 0x0112 })
        else { return nil }
        return Array(bytes[tiff.start + entry.offset..<tiff.start + entry.offset + 12])
    }
}
