import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// `gc`: removes blobs nothing names (docs/DESIGN.md, "Attachments"). In a home, a blob (plain,
/// or a sealed copy in `blobs/sealed/`) stays while any attachment of any trip here (live,
/// detached, of a deleted item, or staged) names it. In a trip folder, a blob stays while any
/// readable trip file there, this home's replica or its staged list names it by its folder name
/// (a sealed blob by the SHA-256 of its sealed bytes, a plain one by its own), or its retention
/// has not passed; a trip file that cannot be read keeps every blob of its trip (it may name
/// them).
package enum BlobCleanup {
    /// What a cleanup removed (or, dry, would remove).
    package struct Result: Hashable, Sendable {
        /// The blobs removed, as printed paths.
        package var removed: [String] = []
        /// Their bytes.
        package var bytes: Int64 = 0
        /// Blobs kept because something names them, or their retention has not passed.
        package var kept = 0
        /// Why some trip's blobs were all kept (a file that could not be read).
        package var notices: [String] = []
    }

    /// Every blob this home's trips name: in the home (plain names and sealed copies' names)
    /// and in their trip folders (`folderNames`); or the trip files that could not be read.
    static func homeNames(_ home: Home) throws -> (
        names: [TripID: Set<String>], folderNames: [TripID: Set<String>], horizons: [TripID: UInt64], unreadable: [String]
    ) {
        let listing = try home.listTrips()
        var names: [TripID: Set<String>] = [:]
        var folderNames: [TripID: Set<String>] = [:]
        var horizons: [TripID: UInt64] = [:]
        for trip in listing.trips {
            let document = trip.document
            horizons[document.tripID] = document.acknowledgedHorizon
            let references = document.attachments.values.flatMap { $0.blob?.versions.map(\.value) ?? [] }
            var set = Set(references.map(\.sha256)).union(references.compactMap(\.sealed?.sha256))
            var inFolder = Set(references.map(\.folderSHA256))
            for entry in try StagedAttachments.load(home, document.tripID).entries {
                set.insert(entry.blob.sha256)
                if let sealed = entry.blob.sealed { set.insert(sealed.sha256) }
                inFolder.insert(entry.blob.folderSHA256)
            }
            names[document.tripID] = set
            folderNames[document.tripID] = inFolder
        }
        return (names, folderNames, horizons, listing.unreadable.map(\.path))
    }

    /// Removes the home's blobs no attachment of its trips names (all kept when a trip file of
    /// the home cannot be read).
    package static func home(_ home: Home, dryRun: Bool) throws -> Result {
        var result = Result()
        let (names, _, _, unreadable) = try homeNames(home)
        let store = try BlobStore(home: home.path)
        guard unreadable.isEmpty else {
            result.kept = try store.list().count + store.listSealed().count
            result.notices = unreadable.map { "\($0): cannot be read, so every blob is kept (it may name them)" }
            return result
        }
        let named = names.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        for blob in try store.list() {
            if named.contains(blob.hex) {
                result.kept += 1
                continue
            }
            let size = store.blobs.kind(of: blob.entryName)?.stamp.size ?? 0
            if try dryRun || store.remove(blob) {
                result.removed.append(store.path(of: blob))
                result.bytes += size
            }
        }
        for blob in try store.listSealed() {
            if named.contains(blob.hex) {
                result.kept += 1
                continue
            }
            let size = store.sealedFolder.kind(of: blob.entryName)?.stamp.size ?? 0
            if try dryRun || store.removeSealed(blob) {
                result.removed.append(store.sealedPath(of: blob))
                result.bytes += size
            }
        }
        return result
    }

    /// Removes, in `folder`, the blobs of this home's trips that no readable trip file in the
    /// trip folder names, once `retention` has passed since they were written, by this laptop's
    /// wall clock and by every device's acknowledged counters in the trip (a blob nothing names
    /// yet may be on its way: its attachment is published after it, and one laptop whose clock
    /// runs ahead must not remove it: issue 40).
    package static func folder(_ folder: String, home: Home, retention: RetentionPolicy = .standard, now: UTCTimestamp, dryRun: Bool) throws -> Result {
        var result = Result()
        let (_, names, horizons, unreadableHere) = try homeNames(home)
        guard unreadableHere.isEmpty else {
            result.notices = unreadableHere.map { "\($0): cannot be read, so no folder blob is removed (it may name them)" }
            return result
        }
        let root = try FolderHandle.open(path: folder)
        // Sealed files open with the home's keys; one it cannot open keeps every blob of its trip.
        let reader = try home.tripFileReader()
        for (tripID, homeNamed) in names.sorted(by: { $0.key < $1.key }) {
            let tripName = EntryName(tripID.description)
            guard root.kind(of: tripName)?.kind == .folder else { continue }
            let tripFolder = try root.openFolder(tripName)
            var named = homeNamed
            var readable = true
            for name in try tripFolder.entries() where name.text?.contains(".trip.json") == true && !name.hasPrefix(".") {
                do {
                    let (bytes, _) = try tripFolder.readFile(name, maxBytes: reader.maxFileBytes)
                    let loaded = try reader.read(bytes: bytes, file: tripFolder.display(name))
                    for attachment in loaded.document.attachments.values {
                        for version in attachment.blob?.versions ?? [] { named.insert(version.value.folderSHA256) }
                    }
                } catch {
                    readable = false
                    result.notices.append("\(tripFolder.display(name)): cannot be read, so every blob of trip \(tripID) is kept (it may name them)")
                }
            }
            let blobs = FolderBlobStore(tripFolder: tripFolder)
            let listed = try blobs.list()
            guard readable else {
                result.kept += listed.count
                continue
            }
            guard let blobFolder = try blobs.blobFolder(create: false) else { continue }
            for blob in listed {
                guard !named.contains(blob.hex), let found = blobFolder.kind(of: blob.entryName) else {
                    result.kept += 1
                    continue
                }
                let writtenSeconds = found.stamp.modified / 1_000_000_000
                let acknowledged = horizons[tripID].map { $0 / 1000 >= UInt64(max(writtenSeconds + retention.retentionSeconds, 0)) } ?? false
                guard now.secondsSinceEpoch - writtenSeconds >= retention.retentionSeconds, acknowledged else {
                    result.kept += 1
                    continue
                }
                if try dryRun || blobs.remove(blob) {
                    result.removed.append(blobs.path(of: blob))
                    result.bytes += found.stamp.size
                }
            }
        }
        return result
    }
}
