import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

extension FolderSync {
    /// Why there is no last folder to sync with (`FolderSync(lastFolderOf:)`): the caller
    /// names a folder instead.
    package enum LastFolderError: Error, Sendable, CustomStringConvertible {
        /// No trip of the home has synced with a folder yet, and no join is pending.
        case none
        /// The home's trips last synced with different folders: each folder with its trips, in
        /// path order.
        case ambiguous([LastFolder])
        /// A trip's settings file (or the trips folder) could not be read: the error, as told.
        case unreadable(String)

        /// What went wrong, in words, without naming any command.
        package var description: String {
            switch self {
            case .none: return "this home has not synced with a folder yet"
            case .ambiguous(let folders):
                let list = folders.map { "\($0.folder) (\($0.trips.map { String($0.description.prefix(8)) }.joined(separator: ", ")))" }
                return "this home's trips last synced with different folders: \(list.joined(separator: "; "))"
            case .unreadable(let error): return error
            }
        }
    }

    /// A folder the home's trips last synced with, and those trips.
    package struct LastFolder: Sendable, Equatable {
        /// The shared folder (an absolute path).
        package var folder: String
        /// The trips that last synced with it (or asked to join through it).
        package var trips: [TripID]
    }

    /// The one folder this home's trips last synced with (each trip's `lastFolder` setting, or
    /// the folder of a pending join). Throws `LastFolderError` when none is recorded, when the
    /// trips used different folders, or when a settings file cannot be read.
    package static func lastFolder(of home: Home) throws(LastFolderError) -> String {
        let folders: [(folder: String, trips: [TripID])]
        do {
            folders = try home.lastFolders()
        } catch {
            throw .unreadable("\(error)")
        }
        guard let only = folders.first else { throw .none }
        guard folders.count == 1 else { throw .ambiguous(folders.map { LastFolder(folder: $0.folder, trips: $0.trips) }) }
        return only.folder
    }

    /// A sync of `home` with the folder its trips last synced with (`lastFolder(of:)`); throws
    /// `LastFolderError` when there is no single such folder. Like every sync, a successful
    /// run records the folder again as each synced trip's last one.
    package init(lastFolderOf home: Home) throws(LastFolderError) {
        self.init(home: home, folder: try FolderSync.lastFolder(of: home))
    }
}

extension FolderSync.LastFolderError: TripSyncError {
    /// No last folder is `.notFound`, several `.ambiguous`, a record that cannot be read
    /// `.fileSystem`; `facts.thing` is "last folder".
    package var errorKind: TripSyncErrorKind {
        switch self {
        case .none: return .notFound
        case .ambiguous: return .ambiguous
        case .unreadable: return .fileSystem
        }
    }

    /// What the error is about: the last folder.
    package var facts: ErrorFacts { ErrorFacts(thing: "last folder") }
}
