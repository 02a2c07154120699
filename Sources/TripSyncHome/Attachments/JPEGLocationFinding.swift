extension JPEGLocation {
    /// What a file records of where a photo was taken.
    package enum Finding: Hashable, Sendable, CustomStringConvertible {
        /// The bytes are not a JPEG (no start-of-image marker).
        case notJPEG
        /// The bytes are no photo whose location is read (JPEG, PNG, WebP, HEIC/HEIF): what
        /// `PhotoLocation` says of a GIF, a PDF or anything else.
        case notPhoto
        /// A photo that records no location.
        case none
        /// A photo that records this latitude and longitude.
        case location(Coordinate)
        /// A photo with location data (or data that may hold it) whose position does not decode;
        /// the text says where and why.
        case unreadable(String)

        /// Whether the file records, or may record, where the photo was taken.
        package var recordsLocation: Bool {
            switch self {
            case .notJPEG, .notPhoto, .none: false
            case .location, .unreadable: true
            }
        }

        /// A line for a person: "no location", "location 38.713900, -9.139400 (Exif GPS)", ….
        package var description: String {
            switch self {
            case .notJPEG: "not a JPEG"
            case .notPhoto: "not a JPEG, PNG, WebP or HEIC photo"
            case .none: "no location"
            case .location(let coordinate): "location \(coordinate)"
            case .unreadable(let reason): "location data that cannot be read: \(reason)"
            }
        }
    }

    /// Where the location was found.
    package enum Source: String, Hashable, Sendable {
        /// The Exif GPS directory (a JPEG's APP1 "Exif", a PNG's eXIf, a WebP's EXIF, a HEIF Exif item).
        case exif
        /// An XMP packet (exif:GPSLatitude, exif:GPSLongitude), in any container.
        case xmp
    }

    /// A latitude and longitude in signed degrees (north and east positive).
    package struct Coordinate: Hashable, Sendable, CustomStringConvertible {
        /// Degrees north (negative: south), -90 to 90.
        package var latitude: Double
        /// Degrees east (negative: west), -180 to 180.
        package var longitude: Double
        /// Where it was read.
        package var source: Source

        /// Creates a coordinate.
        package init(latitude: Double, longitude: Double, source: Source) {
            self.latitude = latitude
            self.longitude = longitude
            self.source = source
        }

        /// "38.713900, -9.139400 (Exif GPS)".
        package var description: String {
            "\(Self.sixDecimals(latitude)), \(Self.sixDecimals(longitude)) (\(source == .exif ? "Exif GPS" : "XMP"))"
        }

        private static func sixDecimals(_ value: Double) -> String {
            let micro = (abs(value) * 1_000_000).rounded()
            let whole = Int(micro / 1_000_000)
            let fraction = String(Int(micro.truncatingRemainder(dividingBy: 1_000_000)))
            return (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
        }
    }
}
