/// The GPS directory of an Exif segment: found through IFD0's pointer (tag 0x8825, or the same
/// tag in a directory chained after IFD0), decoded, and removed in place. See docs/DESIGN.md,
/// "Attachments: location in photos".
enum EXIFLocation {
    /// The tag of the GPS directory's pointer.
    static let gpsPointer: UInt16 = 0x8825

    /// What the Exif segment `segment` records, or nil when the segment is not Exif.
    static func scan(_ bytes: [UInt8], _ segment: JPEGSegment) -> JPEGLocationScan? {
        guard let data = EXIFTIFF.exifPayload(bytes, segment.payload) else { return nil }
        return scan(bytes, tiff: data, at: segment.offset)
    }

    /// What the TIFF data `data` of `bytes` records: the one reading of Exif GPS for every
    /// container (a JPEG's APP1 segment, a PNG `eXIf` chunk, a WebP `EXIF` chunk, a HEIF Exif
    /// item). `offset` is where its segment or chunk starts, for the messages and the change.
    /// The edits only overwrite bytes inside `data`.
    static func scan(_ bytes: [UInt8], tiff data: Range<Int>, at offset: Int) -> JPEGLocationScan {
        let place = "the Exif data at offset \(offset)"
        guard let tiff = EXIFTIFF(bytes, tiff: data) else {
            return .unreadable("\(place) has no TIFF header (expected \"II*\\0\" or \"MM\\0*\"), so it may record a location")
        }
        guard let first = tiff.firstDirectory, tiff.directory(at: first) != nil else {
            return .unreadable("\(place) has its first directory (IFD0) outside the segment, so it may record a location")
        }
        var scan = JPEGLocationScan()
        var zeroed: [Range<Int>] = []
        var directories: Set<Int> = []
        let chain = tiff.chain()
        for directory in chain {
            let pointers = directory.entries.filter { $0.tag == gpsPointer }
            guard !pointers.isEmpty else { continue }
            scan.present = true
            scan.edits.append(removing(gpsPointer, from: directory, in: tiff))
            for pointer in pointers {
                guard pointer.count == 1, pointer.type == 4 || pointer.type == 13,
                      let at = tiff.u32(pointer.offset + 8).map({ Int($0) }), let gps = tiff.directory(at: at)
                else {
                    scan.problem = scan.problem ?? "\(place) points to a GPS directory that cannot be read"
                    continue
                }
                guard directories.insert(at).inserted else { continue }
                // A photo has one GPS directory; many (only hostile files) would cost time
                // quadratic in the segment, so past a few the segment is blanked instead.
                guard directories.count <= maxGPSDirectories else {
                    return .unreadable("\(place) points to more than \(maxGPSDirectories) GPS directories")
                }
                zeroed.append(gps.offset..<gps.offset + gps.byteCount)
                for entry in gps.entries {
                    if let values = tiff.values(of: entry) { zeroed.append(values) }
                }
                if scan.coordinate == nil {
                    switch coordinate(gps, tiff) {
                    case .success(let coordinate): scan.coordinate = coordinate
                    case .failure(let problem): scan.problem = scan.problem ?? "\(place): \(problem.text)"
                    }
                }
            }
        }
        guard scan.present else { return scan }
        if scan.coordinate != nil { scan.problem = nil }
        // GPS values that overlap the header or a directory of the chain, or a rewritten
        // directory overlapping another, cannot be edited without damaging what is kept (only
        // hostile files do that): blank the segment instead.
        let kept = [0..<8] + chain.map { $0.offset..<$0.offset + $0.byteCount }
        let rewritten = chain.filter { $0.entries.contains { $0.tag == gpsPointer } }.map { $0.offset..<$0.offset + $0.byteCount }
        let zeros = merged(zeroed)
        if zeros.contains(where: { range in kept.contains { $0.overlaps(range) } })
            || rewritten.contains(where: { range in kept.contains { $0 != range && $0.overlaps(range) } }) {
            scan.blankWhole = true
            scan.problem = scan.problem ?? "\(place) has GPS data overlapping its other directories"
            return scan
        }
        for range in zeros {
            scan.edits.append(.init(offset: tiff.start + range.lowerBound, bytes: [UInt8](repeating: 0, count: range.count)))
        }
        scan.change = .exifGPSRemoved(segmentOffset: offset)
        return scan
    }

    /// The most GPS directories one segment may point to before it is blanked whole.
    static let maxGPSDirectories = 4

    /// `ranges` sorted and joined where they overlap or touch, so the zeros written never add
    /// up to more than the segment.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The edit rewriting `directory` without its `tag` entries: the later entries move up, the
    /// link to the next directory follows them, zeros fill the freed bytes. Nothing outside the
    /// directory moves, and no offset in the file points inside a directory's entries.
    static func removing(_ tag: UInt16, from directory: EXIFTIFF.Directory, in tiff: EXIFTIFF) -> JPEGLocationScan.Edit {
        let kept = directory.entries.filter { $0.tag != tag }
        let count = UInt16(kept.count)
        var bytes: [UInt8] = tiff.bigEndian ? [UInt8(count >> 8), UInt8(count & 0xFF)] : [UInt8(count & 0xFF), UInt8(count >> 8)]
        for entry in kept { bytes += tiff.bytes[tiff.start + entry.offset..<tiff.start + entry.offset + 12] }
        let link = tiff.start + directory.offset + 2 + 12 * directory.entries.count
        bytes += directory.next == nil ? [0, 0, 0, 0] : Array(tiff.bytes[link..<link + 4])
        bytes += [UInt8](repeating: 0, count: max(0, directory.byteCount - bytes.count))
        return .init(offset: tiff.start + directory.offset, bytes: bytes)
    }

    /// A reason the GPS directory's position does not decode.
    struct Problem: Error {
        var text: String
    }

    /// The latitude and longitude of a GPS directory (tags 1 to 4: refs and rationals).
    static func coordinate(_ gps: EXIFTIFF.Directory, _ tiff: EXIFTIFF) -> Result<JPEGLocation.Coordinate, Problem> {
        func entry(_ tag: UInt16) -> EXIFTIFF.Entry? { gps.entries.first { $0.tag == tag } }
        guard let latitudeRef = reference(entry(1), tiff, "NS") else {
            return .failure(Problem(text: "GPSLatitudeRef (tag 1) is missing or not N or S"))
        }
        guard let latitude = degrees(entry(2), tiff, limit: 90) else {
            return .failure(Problem(text: "GPSLatitude (tag 2) is missing or not 1 to 3 rationals making at most 90 degrees"))
        }
        guard let longitudeRef = reference(entry(3), tiff, "EW") else {
            return .failure(Problem(text: "GPSLongitudeRef (tag 3) is missing or not E or W"))
        }
        guard let longitude = degrees(entry(4), tiff, limit: 180) else {
            return .failure(Problem(text: "GPSLongitude (tag 4) is missing or not 1 to 3 rationals making at most 180 degrees"))
        }
        return .success(JPEGLocation.Coordinate(
            latitude: latitudeRef == UInt8(ascii: "S") ? -latitude : latitude,
            longitude: longitudeRef == UInt8(ascii: "W") ? -longitude : longitude,
            source: .exif))
    }

    /// The first letter of an ASCII reference entry when it is one of `letters`.
    private static func reference(_ entry: EXIFTIFF.Entry?, _ tiff: EXIFTIFF, _ letters: String) -> UInt8? {
        guard let entry, entry.type == 2, entry.count >= 1, let values = tiff.values(of: entry) else { return nil }
        let letter = tiff.bytes[tiff.start + values.lowerBound]
        return letters.utf8.contains(letter) ? letter : nil
    }

    /// Degrees, minutes and seconds (one to three rationals) as degrees, at most `limit`.
    private static func degrees(_ entry: EXIFTIFF.Entry?, _ tiff: EXIFTIFF, limit: Double) -> Double? {
        guard let entry, entry.type == 5 || entry.type == 10, (1...3).contains(entry.count),
              let values = tiff.values(of: entry), values.count == 8 * Int(entry.count)
        else { return nil }
        var total = 0.0
        var scale = 1.0
        for index in 0..<Int(entry.count) {
            guard let numerator = tiff.u32(values.lowerBound + 8 * index),
                  let denominator = tiff.u32(values.lowerBound + 8 * index + 4), denominator != 0
            else { return nil }
            let ratio = entry.type == 10
                ? Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
                : Double(numerator) / Double(denominator)
            total += ratio / scale
            scale *= 60
        }
        return total.isFinite && total >= 0 && total <= limit ? total : nil
    }
}
