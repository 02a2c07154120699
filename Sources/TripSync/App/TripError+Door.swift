import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

extension TripError {
    /// `error` as a public call throws it: every error of the library is a `TripError`. One of a
    /// type below the app API (`package`: `LastFolderError`, `MergeError`, `BlobError`,
    /// `FileMergeError`, `PhotoLocationError`, an unreadable replica's failure) becomes one of the
    /// same kind, facts and words; one of the library's own types the faces word themselves
    /// (`EditError`, `TripStoreError`, `TripFileError`, `FileSystemError`, an import's refusal,
    /// `AttachmentError`, a blob's file system failure) is wrapped with it as its `cause`. An
    /// error that is not the library's (thrown by an app's own closure) is as it was.
    package static func forApp(_ error: any Error) -> any Error {
        switch error {
        case let error as TripError:
            return error
        case let error as BlobError:
            if case .fileSystem(let cause) = error.reason { return TripError(wrapping: cause) }
            return TripError(error.errorKind, facts: ErrorFacts(file: error.path), message: error.description)
        case let error as MergeError:
            return TripError(error.errorKind, facts: ErrorFacts(pointer: error.pointer), message: error.description)
        case is FolderSync.LastFolderError, is FileMergeError, is PhotoLocationError, is HomeTrips.Unreadable.Failure, is SyncLoop.Failure:
            return TripError(error)
        case let error as any TripSyncError:
            return TripError(wrapping: error)
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

    /// Runs `body`, a call that throws only the library's own errors (an editor's write), and
    /// throws what it throws as a `TripError` (`forApp`; anything else as `.refused`).
    package static func typed<T>(_ body: () throws -> T) throws(TripError) -> T {
        do {
            return try body()
        } catch {
            throw TripError(forApp(error))
        }
    }
}
