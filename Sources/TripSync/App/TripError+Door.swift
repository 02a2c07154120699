import TripSyncPlatform
import TripSyncCore
import TripSyncHome

extension TripError {
    /// Whether `error` is of a type the app API hands out as it is (`TripError` and the app's
    /// own error types); any other is thrown by the door as a `TripError`.
    package static func isPublic(_ error: any Error) -> Bool {
        switch error {
        case is TripError, is TripFileError, is FileSystemError, is TripStoreError, is EditError, is InviteError, is MembershipError, is AttachmentError,
            is TripImport.Refusal:
            return true
        default:
            return false
        }
    }

    /// Runs `body`; an error of a type below the app API (`LastFolderError`, `MergeError`,
    /// `BlobError`, …) is thrown as a `TripError` of the same kind, facts and words.
    package static func door<T>(_ body: () throws -> T) throws -> T {
        try wrapping(keeping: isPublic, body)
    }
}
