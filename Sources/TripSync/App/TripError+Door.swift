import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

extension TripError {
    /// `error` as a public call throws it: an error of a type below the app API (`package`:
    /// `LastFolderError`, `MergeError`, `BlobError`, `FileMergeError`, `PhotoLocationError`, an
    /// unreadable replica's failure) becomes a `TripError` of the same kind, facts and words; a
    /// blob's file system failure is that `FileSystemError`; any other error is as it was.
    package static func forApp(_ error: any Error) -> any Error {
        switch error {
        case let error as BlobError:
            if case .fileSystem(let cause) = error.reason { return cause }
            return TripError(error.errorKind, facts: ErrorFacts(file: error.path), message: error.description)
        case let error as MergeError:
            return TripError(error.errorKind, facts: ErrorFacts(pointer: error.pointer), message: error.description)
        case is FolderSync.LastFolderError, is FileMergeError, is PhotoLocationError, is HomeTrips.Unreadable.Failure, is SyncLoop.Failure:
            return TripError(error)
        default:
            return error
        }
    }

    /// Runs `body`, throwing what it throws as the app sees it (`forApp`): every public call of
    /// the door and of a store that reaches below the app API runs in it.
    package static func door<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw forApp(error)
        }
    }
}
