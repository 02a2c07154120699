import TripSyncPlatform
import TripSyncCore

/// Why a blob could not be stored, read or copied: the file involved, the blob when known, and
/// a reason a caller can switch on (docs/DESIGN.md, "Attachments: blob storage").
package struct BlobError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Reason: Hashable, Sendable {
        /// The file has more bytes than the limit per attachment.
        case tooLarge(size: Int64, limit: Int64)
        /// The source has fewer bytes than the attachment says: still arriving, not complete.
        case incomplete(size: Int64, expected: Int64)
        /// The source has more bytes than the attachment says.
        case wrongSize(size: Int64, expected: Int64)
        /// The source grew, shrank or was replaced while it was read; nothing was taken from it.
        case changedWhileRead
        /// The bytes do not hash to their name: never used; `quarantined` is where they were
        /// moved (nil when they were removed instead, or the file was not ours to move).
        case mismatch(actual: BlobID, quarantined: String?)
        /// No blob of that name is there.
        case missing
        /// Something other than a regular file is where the blob belongs (a link, a folder, a
        /// pipe, a device); it is never followed, read or written through.
        case notAFile(String)
        /// Another copy of the same blob is running (it holds the partial file's lock).
        case busy
        /// A sealed copy (schema 7) that does not open as the attachment's bytes with its key:
        /// a changed byte, a cut stream, another blob's bytes, or a wrong key (`why`). Never
        /// used; `quarantined` is where the sealed bytes were moved.
        case sealRefused(why: String, quarantined: String?)
        /// The file system failed (a full disk, an unplugged drive, no permission); a copy keeps
        /// its partial file and resumes from it next time.
        case fileSystem(FileSystemError)
    }

    /// The file involved, as printed.
    package var path: String
    /// The blob involved, when known.
    package var blob: BlobID?
    /// What went wrong.
    package var reason: Reason

    /// Creates an error.
    package init(path: String, blob: BlobID?, reason: Reason) {
        self.path = path
        self.blob = blob
        self.reason = reason
    }

    /// An error of the file system at `path`.
    init(_ failure: FileSystemError, blob: BlobID?) {
        self.init(path: failure.path, blob: blob, reason: .fileSystem(failure))
    }

    /// `path: what went wrong`, for a person.
    package var description: String {
        switch reason {
        case .tooLarge(let size, let limit):
            return "\(path): has \(size) bytes, more than the limit of \(limit) bytes per attachment"
        case .incomplete(let size, let expected):
            return "\(path): has \(size) of its \(expected) bytes, not complete yet (still arriving)"
        case .wrongSize(let size, let expected):
            return "\(path): has \(size) bytes, expected \(expected)"
        case .changedWhileRead:
            return "\(path): changed while it was read (it grew, shrank or was replaced); not taken"
        case .mismatch(let actual, let quarantined):
            let moved = quarantined.map { ", moved to \($0)" } ?? ""
            return "\(path): its bytes have SHA-256 \(actual), not the \(blob?.hex ?? "expected hash") it is named by; never used\(moved)"
        case .missing:
            return "\(path): no such blob"
        case .notAFile(let what):
            return "\(path): \(what), expected a regular file (never followed)"
        case .busy:
            return "\(path): another copy of this blob is running"
        case .sealRefused(let why, let quarantined):
            let moved = quarantined.map { ", moved to \($0)" } ?? ""
            return "\(path): the sealed bytes do not open as the attachment's bytes with its key (\(why)); never used\(moved)"
        case .fileSystem(let failure):
            return failure.description
        }
    }
}

extension BlobError: TripSyncError {
    /// `.fileSystem`: an attachment's bytes that cannot be stored or read.
    package var errorKind: TripSyncErrorKind { .fileSystem }
}
