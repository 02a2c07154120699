import TripSyncPlatform
import TripSyncCore

/// Where a photo says it was taken, whatever its container: JPEG (APP1 Exif and XMP), PNG
/// (`eXIf`, XMP in `iTXt`), WebP (`EXIF`, `XMP `) and HEIC/HEIF (Exif and XMP items), the type
/// sniffed from the first bytes as `BlobType` does. One Exif reading and one XMP reading serve
/// every container; each container only says where its Exif and XMP lie and how a copy is made.
///
/// Both functions take any bytes: they never read out of bounds and do work linear in the input.
/// See docs/DESIGN.md, "Attachments: location in photos".
///
/// ```swift
/// if PhotoLocation.find(in: photo).recordsLocation { … }
/// let copy = try PhotoLocation.strip(photo).bytes
/// ```
package enum PhotoLocation {
    /// The types whose location is read (and, but for some HEIC files, removed).
    package static let readTypes: [BlobType] = [.jpeg, .png, .webp, .heic]

    /// What the photo records of where it was taken; `.notPhoto` for any other type (GIF, PDF, …).
    package static func find(in bytes: [UInt8]) -> JPEGLocation.Finding {
        switch BlobType.sniff(Array(bytes.prefix(BlobType.sniffLength))) {
        case .jpeg: JPEGLocation.find(in: bytes)
        case .png: PNGLocation.find(in: bytes)
        case .webp: WebPLocation.find(in: bytes)
        case .heic: HEIFLocation.find(in: bytes)
        case .gif, .pdf, .octetStream: .notPhoto
        }
    }

    /// A copy of the photo without the location: a JPEG, WebP or HEIC keeps its length (the
    /// location is overwritten in place); a PNG or WebP chunk that cannot be edited in place is
    /// left out. A photo without location comes back unchanged.
    ///
    /// - Throws: `PhotoLocationError` for a type whose location is not read (a copy could not
    ///   be promised without one), and for a HEIC/HEIF file with a location that cannot be
    ///   removed in place.
    package static func strip(_ bytes: [UInt8]) throws(PhotoLocationError) -> JPEGLocation.Stripped {
        let type = BlobType.sniff(Array(bytes.prefix(BlobType.sniffLength)))
        switch type {
        case .jpeg: return JPEGLocation.strip(bytes)
        case .png: return PNGLocation.strip(bytes)
        case .webp: return WebPLocation.strip(bytes)
        case .heic:
            let finding = HEIFLocation.find(in: bytes)
            guard finding.recordsLocation else { return JPEGLocation.Stripped(bytes: bytes, finding: finding, changes: []) }
            guard let stripped = HEIFLocation.strip(bytes) else { throw PhotoLocationError(type: type, finding: finding) }
            return stripped
        case .gif, .pdf, .octetStream:
            throw PhotoLocationError(type: type, finding: .notPhoto)
        }
    }

    /// Reads the file at `input` (at most `maxBytes`), strips it and writes the copy to `output`
    /// atomically and durably (temp file, fsync, rename), even when nothing had to be removed.
    /// Nothing is written when `strip` refuses.
    ///
    /// - Throws: `FileSystemError` naming the file that could not be read or written, or
    ///   `PhotoLocationError`.
    package static func stripFile(_ input: String, to output: String, maxBytes: Int) throws -> JPEGLocation.Stripped {
        let stripped = try strip(try FileIO.readFile(input, maxBytes: maxBytes))
        try FileIO.writeAtomically(stripped.bytes, to: output)
        return stripped
    }
}

/// Why `PhotoLocation.strip` made no copy: the type, and what the file records.
package struct PhotoLocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sniffed type.
    package var type: BlobType
    /// What the file records (`.notPhoto` for a type whose location is not read).
    package var finding: JPEGLocation.Finding

    /// Creates an error.
    package init(type: BlobType, finding: JPEGLocation.Finding) {
        self.type = type
        self.finding = finding
    }

    /// What a person reads.
    package var description: String {
        if type == .heic {
            return "the location of this \(type.rawValue) photo (\(finding)) cannot be removed in place "
                + "(its Exif or XMP item is split, stored elsewhere or does not read), and TripSync does not rewrite HEIF files"
        }
        return "a location is read and removed only in JPEG, PNG, WebP and HEIC photos; this file is \(type.rawValue)"
    }
}

extension PhotoLocationError: TripSyncError {
    /// `.invalidValue`: a photo whose location cannot be removed.
    package var errorKind: TripSyncErrorKind { .invalidValue }
}
