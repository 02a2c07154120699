import TripSyncPlatform
import TripSyncCore

/// A trip's blobs in the shared folder: `FOLDER/<tripId>/blobs/<sha256>`, written by one
/// verified copy each (through `<sha256>.partial` next to it). Every access goes through
/// `FolderHandle`: no link is followed, a pipe is never waited on, a folder or an odd entry where
/// a blob belongs is refused with its reason (docs/DESIGN.md, "Attachments: blob storage").
package final class FolderBlobStore {
    /// The trip folder `FOLDER/<tripId>`.
    let tripFolder: FolderHandle
    /// `FOLDER/<tripId>/blobs`, once opened.
    private var opened: FolderHandle?

    package static let folderName = EntryName("blobs")

    /// The blob folder of trip `tripID` in the shared folder at `folder` (a path a person
    /// typed); the trip folder is created when absent, the blob folder when a blob is written.
    package convenience init(folder: String, tripID: TripID) throws(BlobError) {
        do {
            let root = try FolderHandle.open(path: folder)
            let name = EntryName(tripID.description)
            try root.makeFolder(name)
            self.init(tripFolder: try root.openFolder(name))
        } catch {
            throw BlobError(error, blob: nil)
        }
    }

    /// The blob folder inside an open trip folder (as sync holds it).
    package init(tripFolder: FolderHandle) {
        self.tripFolder = tripFolder
    }

    /// The path of blob `id` in the folder, as printed.
    package func path(of id: BlobID) -> String {
        tripFolder.display(Self.folderName) + "/" + id.hex
    }

    /// What the folder holds under `id`'s name: one `stat` of the name (none at all when the
    /// blob folder does not exist yet), no read.
    package func presence(of id: BlobID, size: Int64?) throws(BlobError) -> BlobPresence {
        guard let folder = try blobFolder(create: false) else { return .absent }
        return BlobPresence.look(id, in: folder, size: size)
    }

    /// Whether the folder's file named `id` hashes to `id` (every byte read); false when it
    /// does not, or vanished meanwhile.
    func holdsExactly(_ id: BlobID) throws(BlobError) -> Bool {
        guard let folder = try blobFolder(create: false) else { return false }
        do throws(BlobError) {
            let (file, _) = try BlobFile.open(id.entryName, in: folder, blob: id)
            return try file.hash(blob: id) == id
        } catch {
            if error.reason == .missing { return false }
            throw error
        }
    }

    /// The blobs in the folder (regular files named by a SHA-256), in order.
    package func list() throws(BlobError) -> [BlobID] {
        guard let folder = try blobFolder(create: false) else { return [] }
        return try BlobPresence.list(folder)
    }

    /// Removes blob `id` from the folder (for `gc --folder`); true when it was there.
    @discardableResult
    package func remove(_ id: BlobID) throws(BlobError) -> Bool {
        guard let folder = try blobFolder(create: false) else { return false }
        let removed = folder.remove(id.entryName)
        if removed {
            do { try folder.synchronize(for: id.entryName, done: "removed") } catch { throw BlobError(error, blob: id) }
        }
        return removed
    }

    /// The blob folder, created when `create` and absent; nil when absent and not created.
    /// A link, a file or anything else at its name is refused.
    package func blobFolder(create: Bool) throws(BlobError) -> FolderHandle? {
        if let opened { return opened }
        let path = tripFolder.display(Self.folderName)
        switch tripFolder.kind(of: Self.folderName)?.kind {
        case nil:
            guard create else { return nil }
            do {
                try tripFolder.makeFolder(Self.folderName)
            } catch {
                throw BlobError(error, blob: nil)
            }
        case .folder?: break
        case .link?: throw BlobError(path: path, blob: nil, reason: .notAFile("a symbolic link where the blob folder belongs"))
        case .file?, .other?: throw BlobError(path: path, blob: nil, reason: .notAFile("not a folder where the blob folder belongs"))
        }
        do {
            let folder = try tripFolder.openFolder(Self.folderName)
            opened = folder
            return folder
        } catch {
            throw BlobError(error, blob: nil)
        }
    }
}
