/// What one APP1 segment says about location, and the edits that remove it.
struct JPEGLocationScan: Sendable {
    /// Bytes to write over the input at `offset`, same length: nothing else moves.
    struct Edit: Sendable {
        var offset: Int
        var bytes: [UInt8]
    }

    /// Whether the segment records (or may record) where the photo was taken.
    var present = false
    /// The latitude and longitude, when they decode.
    var coordinate: JPEGLocation.Coordinate?
    /// Why the location cannot be read, when it cannot.
    var problem: String?
    /// The in-place edits that remove the location and keep everything else.
    var edits: [Edit] = []
    /// Set when no in-place edit is safe: the whole segment is blanked instead.
    var blankWhole = false
    /// What the edits remove, for the caller's report.
    var change: JPEGLocation.Change?

    /// A segment that may hold a location but cannot be read: blanked as a whole.
    static func unreadable(_ problem: String) -> JPEGLocationScan {
        JPEGLocationScan(present: true, problem: problem, blankWhole: true)
    }

    /// The edit turning `segment` into a comment (COM) of zeros of the same length: every
    /// reader skips it, and no offset elsewhere in the file moves.
    static func blanking(_ segment: JPEGSegment) -> [Edit] {
        [Edit(offset: segment.offset + 1, bytes: [0xFE]),
         Edit(offset: segment.payload.lowerBound, bytes: [UInt8](repeating: 0, count: segment.payload.count))]
    }
}
