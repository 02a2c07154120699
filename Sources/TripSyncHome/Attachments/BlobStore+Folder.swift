import TripSyncPlatform
import TripSyncCore

extension BlobStore {
    /// Puts the home's blob `id` into the trip folder (sharing): nothing to do when the folder
    /// already holds a file of its size (one `stat`; with `verifyPresent`, that file is hashed
    /// too, and removed when it is not the blob); otherwise the resumable, verified copy
    /// through `<sha256>.partial` next to it. Home bytes that do not match their name are
    /// quarantined and the copy refused.
    /// - Throws: `BlobError` naming the file: missing, not a file, changed while read, a
    ///   mismatch, busy, or the file system's failure (the partial file is kept to resume).
    package func share(_ id: BlobID, to folder: FolderBlobStore, verifyPresent: Bool = false, progress: BlobProgress? = nil) throws(BlobError) -> BlobCopyResult {
        try share(id, from: blobs, to: folder, verifyPresent: verifyPresent, progress: progress)
    }

    /// `share` of the blob `id` of the home's folder `source` (the plain blobs, or the sealed
    /// copies: `shareSealed`).
    func share(_ id: BlobID, from source: FolderHandle, to folder: FolderBlobStore, verifyPresent: Bool, progress: BlobProgress?) throws(BlobError)
        -> BlobCopyResult
    {
        let sourcePath = source.display(id.entryName)
        guard let found = source.kind(of: id.entryName) else { throw BlobError(path: sourcePath, blob: id, reason: .missing) }
        guard found.kind == .file else { throw BlobError(path: sourcePath, blob: id, reason: .notAFile("not a regular file")) }
        let size = found.stamp.size
        switch try folder.presence(of: id, size: size) {
        case .present:
            let verified = try verifyPresent ? folder.holdsExactly(id) : true
            if verified {
                return BlobCopyResult(blob: id, size: size, type: nil, resumedFrom: 0, alreadyThere: true)
            }
            // Bytes of the right size under the name that are not the blob: garbage, replaced.
            try folder.remove(id)
        case .notAFile: throw BlobError(path: folder.path(of: id), blob: id, reason: .notAFile("not a regular file where the blob belongs"))
        case .absent, .otherSize: break
        }
        guard let target = try folder.blobFolder(create: true) else {
            throw BlobError(path: folder.path(of: id), blob: id, reason: .missing)
        }
        let copy = BlobCopy(
            source: source, sourceName: id.entryName, partialFolder: target, partialName: id.partialName, destination: target,
            expected: id, expectedSize: size, limit: max(limit, SealedBlob.sealedSize(plaintext: limit)), quarantine: nil)
        do throws(BlobError) {
            return try copy.run(progress: progress)
        } catch {
            if case .mismatch(let actual, _) = error.reason {
                let moved = quarantine(id.entryName, in: source, as: EntryName("\(id.hex).\(actual.hex.prefix(16))"))
                throw BlobError(path: sourcePath, blob: id, reason: .mismatch(actual: actual, quarantined: moved))
            }
            throw error
        }
    }

    /// Brings blob `id` of `size` bytes from the trip folder into the home (fetching): nothing
    /// to do when the home holds it (one `stat`); otherwise the resumable, verified copy
    /// through `HOME/blobs/partial/<sha256>.partial`. Folder bytes that do not match their name
    /// are moved (the partial copy of them) to the quarantine, never used.
    /// - Throws: `BlobError` naming the file: missing or incomplete (still arriving), wrong
    ///   size, too large, not a file, changed while read, a mismatch, busy, or the file
    ///   system's failure (the partial file is kept to resume).
    package func fetch(_ id: BlobID, size: Int64, from folder: FolderBlobStore, progress: BlobProgress? = nil) throws(BlobError) -> BlobCopyResult {
        if contains(id, size: size) { return BlobCopyResult(blob: id, size: size, type: nil, resumedFrom: 0, alreadyThere: true) }
        guard let source = try folder.blobFolder(create: false) else {
            throw BlobError(path: folder.path(of: id), blob: id, reason: .missing)
        }
        let copy = BlobCopy(
            source: source, sourceName: id.entryName, partialFolder: partial, partialName: id.partialName, destination: blobs,
            expected: id, expectedSize: size, limit: limit, quarantine: quarantine)
        return try copy.run(progress: progress)
    }
}
