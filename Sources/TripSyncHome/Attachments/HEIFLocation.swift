/// Where a HEIC/HEIF photo says it was taken: its Exif items (read by the same code as a JPEG's
/// APP1 segment, after the item's 4-byte offset to the TIFF header) and its XMP items. The
/// location is removed in place, no byte moving, so every box, offset and the `iloc` table stay
/// valid: that is possible when each item with a location lies in one extent of the file and
/// the edits are clean. Anything else (an item in several extents or another file, Exif that
/// does not read, a location left after editing) is not rewritten: `strip` returns nil, and
/// the caller refuses to store a copy.
///
/// Both functions take any bytes: bounds are checked on every read and the work is linear in
/// the input. See docs/DESIGN.md, "Attachments: location in photos".
enum HEIFLocation {
    /// One item's scan, and whether its edits are offsets into the file itself.
    struct ItemScan {
        var scan: JPEGLocationScan
        var inPlace: Bool
    }

    /// What a HEIC/HEIF file records of where it was taken.
    static func find(in bytes: [UInt8]) -> JPEGLocation.Finding {
        JPEGLocation.finding(of: scans(bytes).map(\.scan))
    }

    /// A copy without the location, or nil when it cannot be made in place (see the type).
    static func strip(_ bytes: [UInt8]) -> JPEGLocation.Stripped? {
        let found = scans(bytes)
        var output = bytes
        var changes: [JPEGLocation.Change] = []
        for item in found where item.scan.present {
            guard item.inPlace, !item.scan.blankWhole, let change = item.scan.change else { return nil }
            for edit in item.scan.edits { output.replaceSubrange(edit.offset..<edit.offset + edit.bytes.count, with: edit.bytes) }
            changes.append(change)
        }
        guard !scans(output).contains(where: \.scan.present) else { return nil }
        return JPEGLocation.Stripped(bytes: output, finding: JPEGLocation.finding(of: found.map(\.scan)), changes: changes)
    }

    /// Every Exif and XMP item's scan.
    static func scans(_ bytes: [UInt8]) -> [ItemScan] {
        let items = HEIFItems(bytes)
        var result: [ItemScan] = []
        if let problem = items.problem {
            result.append(ItemScan(scan: .unreadable("the HEIF metadata cannot be read (\(problem)), so it may record a location"), inPlace: false))
        }
        for item in items.items {
            let name = item.kind == .exif ? "Exif" : "XMP"
            guard let extents = item.extents else {
                result.append(ItemScan(scan: .unreadable("the \(name) item \(item.id) has no place in this file that is read here, so it may record a location"), inPlace: false))
                continue
            }
            guard let first = extents.first else { continue }  // an item of no bytes
            // One extent: read where it lies, so the edits are offsets into the file. Several:
            // read a joined copy (bounded by the file's size), for the finding only.
            let inPlace = extents.count == 1
            let data: [UInt8]
            let range: Range<Int>
            if inPlace {
                data = bytes
                range = first
            } else {
                guard extents.reduce(0, { $0 + $1.count }) <= bytes.count else {
                    result.append(ItemScan(scan: .unreadable("the \(name) item \(item.id) is larger than the file, so it may record a location"), inPlace: false))
                    continue
                }
                data = extents.flatMap { bytes[$0] }
                range = data.indices
            }
            result.append(ItemScan(scan: scan(data, range, item, at: first.lowerBound), inPlace: inPlace))
        }
        return result
    }

    /// The scan of one item's bytes `range` of `data`.
    private static func scan(_ data: [UInt8], _ range: Range<Int>, _ item: HEIFItems.Item, at offset: Int) -> JPEGLocationScan {
        switch item.kind {
        case .xmp:
            return JPEGXMPLocation.scan(data, packet: range, at: offset)
        case .exif:
            // exif_tiff_header_offset (32 bits), then that many bytes, then the TIFF header.
            guard range.count >= 4 else { return .unreadable("the Exif item \(item.id) at offset \(offset) is cut short, so it may record a location") }
            let skip = HEIFItems.u32(data, range.lowerBound)
            guard skip <= range.count - 4 else {
                return .unreadable("the Exif item \(item.id) at offset \(offset) points past its end, so it may record a location")
            }
            return EXIFLocation.scan(data, tiff: range.lowerBound + 4 + skip..<range.upperBound, at: offset)
        }
    }
}
