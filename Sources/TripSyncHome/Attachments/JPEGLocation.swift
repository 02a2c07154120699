import TripSyncPlatform

/// Where a JPEG says it was taken: found in its Exif GPS directory or its XMP packet, and
/// removed from a copy that keeps everything else byte for byte.
///
/// Both functions take any bytes: they never read out of bounds and do work linear in the input.
/// See docs/DESIGN.md, "Attachments: location in photos".
///
/// ```swift
/// if case .location(let where) = JPEGLocation.find(in: photo) { print("taken at \(where)") }
/// let copy = JPEGLocation.strip(photo).bytes
/// ```
package enum JPEGLocation {
    /// What a JPEG records of where it was taken.
    ///
    /// Among several sources, a decoded coordinate wins (Exif before XMP), then the first
    /// source that cannot be read.
    package static func find(in bytes: [UInt8]) -> Finding {
        let segments = JPEGSegments(bytes)
        guard segments.isJPEG else { return .notJPEG }
        return finding(of: scans(bytes, segments))
    }

    /// A copy of `bytes` without the location.
    ///
    /// The Exif GPS directory's pointer leaves IFD0 and the directory and its values are
    /// zeroed in place; XMP GPS properties are overwritten with spaces. No byte moves, so the
    /// orientation, every other tag, the thumbnail and the image data stay as they were. A
    /// segment that cannot be edited safely (Exif whose structure does not read, XMP whose GPS
    /// properties cannot be delimited, extended XMP) becomes a comment segment of zeros of the
    /// same length instead. Bytes that are not a JPEG, or a JPEG without location, come back
    /// unchanged. The copy always reads as `.none` (or `.notJPEG`).
    package static func strip(_ bytes: [UInt8]) -> Stripped {
        let segments = JPEGSegments(bytes)
        guard segments.isJPEG else { return Stripped(bytes: bytes, finding: .notJPEG, changes: []) }
        let found = scans(bytes, segments)
        var output = bytes
        var changes: [Change] = []
        for (parts, scan) in found where scan.present {
            if scan.blankWhole || scan.change == nil {
                blank(parts, in: &output)
                changes.append(.segmentBlanked(segmentOffset: parts[0].offset, reason: scan.problem ?? "the segment cannot be edited in place"))
            } else if let change = scan.change {
                for edit in scan.edits { output.replaceSubrange(edit.offset..<edit.offset + edit.bytes.count, with: edit.bytes) }
                changes.append(change)
            }
        }
        // The edits were made from one reading of each segment; read the result again, and blank
        // whatever still records a location (only hostile layouts, where GPS values overlap other data).
        for (parts, scan) in scans(output, JPEGSegments(output)) where scan.present {
            blank(parts, in: &output)
            changes.append(.segmentBlanked(segmentOffset: parts[0].offset, reason: "editing it in place left location data behind"))
        }
        return Stripped(bytes: output, finding: finding(of: found), changes: changes)
    }

    /// Reads the file at `input` (at most `maxBytes`), strips it and writes the copy to `output`
    /// atomically and durably (temp file, fsync, rename), even when nothing had to be removed.
    ///
    /// - Throws: `FileSystemError` naming the file that could not be read or written.
    package static func stripFile(_ input: String, to output: String, maxBytes: Int) throws -> Stripped {
        let stripped = strip(try FileIO.readFile(input, maxBytes: maxBytes))
        try FileIO.writeAtomically(stripped.bytes, to: output)
        return stripped
    }

    /// Every APP1 segment's scan: Exif and standard XMP one by one, extended XMP as one group.
    static func scans(_ bytes: [UInt8], _ segments: JPEGSegments) -> [([JPEGSegment], JPEGLocationScan)] {
        var result: [([JPEGSegment], JPEGLocationScan)] = []
        var extensions: [JPEGSegment] = []
        for segment in segments.app1 {
            if let scan = EXIFLocation.scan(bytes, segment) ?? JPEGXMPLocation.scan(bytes, segment) {
                result.append(([segment], scan))
            } else if JPEGXMPLocation.isExtension(bytes, segment) {
                extensions.append(segment)
            }
        }
        if !extensions.isEmpty { result.append((extensions, JPEGXMPLocation.scanExtensions(bytes, extensions))) }
        return result
    }

    /// The finding that sums up the scans.
    private static func finding(of scans: [([JPEGSegment], JPEGLocationScan)]) -> Finding {
        finding(of: scans.map(\.1))
    }

    /// The finding that sums up the scans of one file, whatever its container.
    static func finding(of scans: [JPEGLocationScan]) -> Finding {
        let present = scans.filter(\.present)
        let coordinates = present.compactMap(\.coordinate)
        if let best = coordinates.first(where: { $0.source == .exif }) ?? coordinates.first { return .location(best) }
        if let first = present.first { return .unreadable(first.problem ?? "location data that cannot be read") }
        return .none
    }

    /// Turns `parts` into comment segments of zeros.
    private static func blank(_ parts: [JPEGSegment], in output: inout [UInt8]) {
        for part in parts {
            for edit in JPEGLocationScan.blanking(part) {
                output.replaceSubrange(edit.offset..<edit.offset + edit.bytes.count, with: edit.bytes)
            }
        }
    }
}
