import TripSyncPlatform

/// What a blob folder holds under a blob's name, found by one `stat` (no read): the cheap check
/// of a no-op sync.
package enum BlobPresence: Hashable, Sendable {
    /// A regular file of the expected size (its hash is checked when it is used).
    case present
    /// Nothing.
    case absent
    /// A regular file of another size: still arriving when smaller, wrong when larger.
    case otherSize(Int64)
    /// Something other than a regular file (a link, a folder, a pipe): never used.
    case notAFile

    /// What `folder` holds under `id`'s name; any size counts as expected when `size` is nil.
    static func look(_ id: BlobID, in folder: FolderHandle, size: Int64?) -> BlobPresence {
        guard let found = folder.kind(of: id.entryName) else { return .absent }
        guard found.kind == .file else { return .notAFile }
        if let size, found.stamp.size != size { return .otherSize(found.stamp.size) }
        return .present
    }

    /// The regular files of `folder` named by a SHA-256, in order.
    static func list(_ folder: FolderHandle) throws(BlobError) -> [BlobID] {
        let names: [EntryName]
        do {
            names = try folder.entries()
        } catch {
            throw BlobError(error, blob: nil)
        }
        return names.compactMap { name -> BlobID? in
            guard let text = name.text, let id = BlobID(text), folder.kind(of: name)?.kind == .file else { return nil }
            return id
        }
    }
}
