import TripSyncPlatform

extension BlobCopy {
    /// Copies the blob file at `path` (named by its SHA-256, in any blob folder) into the blob
    /// folder `folder` as `folder/<sha256>`, through `folder/<sha256>.partial`: the same
    /// resumable, verified copy as `BlobStore.share` and `fetch`, for tools and tests
    /// (`tripsync-bench blob-copy`, Tests/killcopy). Bytes that do not match the name are
    /// removed, never renamed into place.
    /// - Throws: `BlobError` naming the file: not named by a SHA-256, missing, too large, not
    ///   a file, changed while read, a mismatch, busy, or the file system's failure.
    package static func copy(blob path: String, into folder: String, limit: Int64 = BlobStore.defaultLimit, progress: BlobProgress? = nil) throws(BlobError)
        -> BlobCopyResult
    {
        let name = FileIO.baseName(of: path)
        guard let id = BlobID(name) else {
            throw BlobError(FileSystemError(path: path, message: "is not named by a SHA-256 (64 lowercase hex digits)"), blob: nil)
        }
        let source: FolderHandle
        let destination: FolderHandle
        do {
            source = try FolderHandle.open(path: FileIO.directoryName(of: path))
            destination = try FolderHandle.open(path: folder)
        } catch {
            throw BlobError(error, blob: id)
        }
        if let size = source.kind(of: id.entryName)?.stamp.size, BlobPresence.look(id, in: destination, size: size) == .present {
            return BlobCopyResult(blob: id, size: size, type: nil, resumedFrom: 0, alreadyThere: true)
        }
        let copy = BlobCopy(
            source: source, sourceName: id.entryName, partialFolder: destination, partialName: id.partialName, destination: destination,
            expected: id, expectedSize: nil, limit: limit, quarantine: nil)
        return try copy.run(progress: progress)
    }
}
