@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// libFuzzer entry point: `JPEGLocation.find` and `JPEGLocation.strip` on arbitrary bytes, and
/// `PhotoLocation.find` and `PhotoLocation.strip` on the other containers (PNG, WebP, HEIC).
///
/// An input starting with 0x00 is *wrapped*: the rest becomes the TIFF data of an Exif APP1
/// segment in a small JPEG, so mutations reach the directory parser without first breaking the
/// marker structure; 0x02 does the same with an XMP packet; 0x03 puts the rest into a PNG's
/// `eXIf` chunk and 0x04 into a WebP's `EXIF` chunk. Every other input is read as it is (the
/// seeds are whole JPEGs, PNGs, WebPs and HEICs). Then `ExifTarget.check` (JPEG) or
/// `ContainerTarget.check` (the others) holds the result to every property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExifTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    if let first = bytes.first, first == 0x03 || first == 0x04 {
        ContainerTarget.check(ContainerTarget.input(bytes))
        return 0
    }
    let input = ExifTarget.input(bytes)
    switch BlobType.sniff(Array(input.prefix(BlobType.sniffLength))) {
    case .png, .webp, .heic: ContainerTarget.check(input)
    default: ExifTarget.check(input)
    }
    return 0
}

/// The properties of `PhotoLocation` on a PNG, WebP or HEIC.
enum ContainerTarget {
    /// The bytes to read: 0x03 wraps the rest as a PNG `eXIf` chunk (its CRC left zero: the
    /// reader does not check it), 0x04 as a WebP `EXIF` chunk after a VP8X chunk.
    static func input(_ bytes: [UInt8]) -> [UInt8] {
        let payload = Array(bytes.dropFirst().prefix(65000))
        func be(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        if bytes.first == 0x03 {
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(1) + be(1) + [8, 0, 0, 0, 0] + [0, 0, 0, 0]
                + be(payload.count) + Array("eXIf".utf8) + payload + [0, 0, 0, 0] + be(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        }
        let chunks = Array("VP8X".utf8) + [10, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            + Array("EXIF".utf8) + Array(be(payload.count).reversed()) + payload + (payload.count % 2 == 1 ? [0] : [])
        return Array("RIFF".utf8) + Array(be(4 + chunks.count).reversed()) + Array("WEBP".utf8) + chunks
    }

    /// The properties of reading and stripping `input`.
    static func check(_ input: [UInt8]) {
        let type = BlobType.sniff(Array(input.prefix(BlobType.sniffLength)))
        let finding = PhotoLocation.find(in: input)
        let stripped: JPEGLocation.Stripped
        do throws(PhotoLocationError) {
            stripped = try PhotoLocation.strip(input)
        } catch {
            // Only a HEIC that records a location may be refused.
            if type != .heic || !finding.recordsLocation || error.type != .heic { ExifTarget.fail("strip refused", "\(type): \(error)") }
            return
        }
        let output = stripped.bytes
        if stripped.finding != finding { ExifTarget.fail("strip's finding differs from find's", "\(stripped.finding) vs \(finding)") }
        let again = PhotoLocation.find(in: output)
        if again.recordsLocation { ExifTarget.fail("the stripped copy still records a location", "\(type): \(again); input: \(finding)") }
        if BlobType.sniff(Array(output.prefix(BlobType.sniffLength))) != type { ExifTarget.fail("stripping changed the type") }
        if output.count > input.count { ExifTarget.fail("the copy grew", "\(input.count) → \(output.count)") }
        if stripped.keptOtherMetadata && output.count != input.count { ExifTarget.fail("edits in place changed the length") }
        if !finding.recordsLocation {
            if output != input || !stripped.changes.isEmpty { ExifTarget.fail("a file without location was changed", "\(stripped.changes)") }
        } else if stripped.changes.isEmpty {
            ExifTarget.fail("a location was found but nothing removed", "\(finding)")
        }
        do throws(PhotoLocationError) {
            let twice = try PhotoLocation.strip(output)
            if twice.bytes != output || !twice.changes.isEmpty { ExifTarget.fail("stripping twice changed the copy again", "\(twice.changes)") }
        } catch {
            ExifTarget.fail("the stripped copy was refused", "\(error)")
        }
        // The WebP's RIFF size and VP8X flags stay consistent with the chunks left.
        if type == .webp, output.count != input.count {
            let size = WebPChunks.u32(output, 4), before = WebPChunks.u32(input, 4)
            if before == input.count - 8 && size != output.count - 8 { ExifTarget.fail("the RIFF size is wrong", "\(size) for \(output.count) bytes") }
            let chunks = WebPChunks(output).chunks
            if let vp8x = chunks.first, vp8x.is("VP8X"), !vp8x.payload.isEmpty {
                let flags = output[vp8x.payload.lowerBound]
                if flags & WebPLocation.exifFlag != 0 && !chunks.contains(where: { $0.is("EXIF") }) { ExifTarget.fail("the Exif flag names a chunk left out") }
                if flags & WebPLocation.xmpFlag != 0 && !chunks.contains(where: { $0.is("XMP ") }) { ExifTarget.fail("the XMP flag names a chunk left out") }
            }
        }
    }
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
