extension JPEGLocation {
    /// The result of `JPEGLocation.strip`: the copy and what was taken out of it.
    package struct Stripped: Sendable {
        /// The copy: the input's length, without location.
        package var bytes: [UInt8]
        /// What the input recorded before stripping.
        package var finding: Finding
        /// What was changed, in file order; empty when the copy equals the input.
        package var changes: [Change]

        /// Whether everything but the location was kept: no segment had to be blanked or
        /// chunk removed whole.
        package var keptOtherMetadata: Bool {
            !changes.contains {
                switch $0 {
                case .segmentBlanked, .chunkRemoved: true
                case .exifGPSRemoved, .xmpPropertiesRemoved: false
                }
            }
        }
    }

    /// One change `strip` made.
    package enum Change: Hashable, Sendable, CustomStringConvertible {
        /// The Exif segment at this offset lost its GPS directory (pointer removed, values zeroed).
        case exifGPSRemoved(segmentOffset: Int)
        /// The XMP packet at this offset had this many GPS properties overwritten with spaces.
        case xmpPropertiesRemoved(segmentOffset: Int, count: Int)
        /// The segment at this offset was turned into a comment of zeros, for this reason.
        case segmentBlanked(segmentOffset: Int, reason: String)

        /// The chunk (of a PNG or WebP) at this offset was left out of the copy, for this reason.
        case chunkRemoved(chunkOffset: Int, reason: String)

        /// A line for a person.
        package var description: String {
            switch self {
            case .exifGPSRemoved(let offset): "removed the Exif GPS directory (segment at offset \(offset))"
            case .xmpPropertiesRemoved(let offset, let count): "removed \(count) XMP GPS propert\(count == 1 ? "y" : "ies") (segment at offset \(offset))"
            case .segmentBlanked(let offset, let reason): "blanked the segment at offset \(offset): \(reason)"
            case .chunkRemoved(let offset, let reason): "removed the chunk at offset \(offset): \(reason)"
            }
        }
    }
}
