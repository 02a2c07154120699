import TripSyncPlatform

/// The home's blobs: `HOME/blobs/<sha256>`, with copies under way in `HOME/blobs/partial/`,
/// bytes that did not match their name in `HOME/blobs/quarantine/`, and the sealed copies of
/// owned trips' blobs in `HOME/blobs/sealed/<sha256 of the sealed bytes>` (docs/DESIGN.md,
/// "Attachments: blob storage", "Sealed attachments"). Every blob is checked against its name
/// before it is used.
package final class BlobStore {
    /// The limit per attachment unless one is set: 100 MiB.
    package static let defaultLimit: Int64 = 100 << 20

    /// The most bytes one blob may have; larger files are refused before any byte is copied.
    package var limit: Int64

    /// `HOME/blobs`, `HOME/blobs/partial`, `HOME/blobs/quarantine`.
    package let blobs: FolderHandle
    let partial: FolderHandle
    let quarantine: FolderHandle
    /// `HOME/blobs/sealed`: sealed copies, named by the SHA-256 of the sealed bytes.
    package let sealedFolder: FolderHandle

    /// Opens the blob store of the home at `home`, creating its folders when absent.
    package init(home: String, limit: Int64 = BlobStore.defaultLimit) throws(BlobError) {
        self.limit = limit
        let root = HomeLayout(root: home).blobs
        do {
            try FileIO.makeFolder(root)
            blobs = try FolderHandle.open(path: root)
            try blobs.makeFolder(EntryName(HomeLayout.partialName))
            try blobs.makeFolder(EntryName(HomeLayout.quarantineName))
            try blobs.makeFolder(EntryName(HomeLayout.sealedName))
            partial = try blobs.openFolder(EntryName(HomeLayout.partialName))
            quarantine = try blobs.openFolder(EntryName(HomeLayout.quarantineName))
            sealedFolder = try blobs.openFolder(EntryName(HomeLayout.sealedName))
        } catch let failure as FileSystemError {
            throw BlobError(failure, blob: nil)
        } catch {
            throw BlobError(FileSystemError(path: root, message: "\(error)"), blob: nil)
        }
    }

    /// The path of blob `id` in the home, as printed.
    package func path(of id: BlobID) -> String { blobs.display(id.entryName) }

    /// Copies the file at `path` (a path a person typed: a link there is followed) into the
    /// store, hashing while copying; the result names it. A file already stored is stored once.
    /// - Throws: `BlobError` naming the file: too large, not a regular file, changed while read,
    ///   or the file system's failure.
    package func add(file path: String, progress: BlobProgress? = nil) throws(BlobError) -> BlobCopyResult {
        let resolved = BlobFile.realPath(path)
        let folderPath = FileIO.directoryName(of: resolved)
        let folder: FolderHandle
        do {
            folder = try FolderHandle.open(path: folderPath)
        } catch {
            throw BlobError(error, blob: nil)
        }
        let incoming = EntryName("incoming-\(UInt64.random(in: 0...UInt64.max)).partial")
        let copy = BlobCopy(
            source: folder, sourceName: EntryName(FileIO.baseName(of: resolved)), partialFolder: partial, partialName: incoming,
            destination: blobs, expected: nil, expectedSize: nil, limit: limit, quarantine: nil)
        do throws(BlobError) {
            return try copy.run(progress: progress)
        } catch {
            partial.remove(incoming)
            throw error
        }
    }

    /// Stores `bytes` (a copy made in memory, such as a photo without its location) under
    /// their hash, durably.
    package func add(bytes: [UInt8]) throws(BlobError) -> BlobCopyResult {
        let id = BlobID(of: bytes)
        guard Int64(bytes.count) <= limit else {
            throw BlobError(path: path(of: id), blob: id, reason: .tooLarge(size: Int64(bytes.count), limit: limit))
        }
        do {
            try blobs.writeAtomically(bytes, to: id.entryName)
        } catch {
            throw BlobError(error, blob: id)
        }
        let type = BlobType.sniff(Array(bytes.prefix(BlobType.sniffLength)))
        return BlobCopyResult(blob: id, size: Int64(bytes.count), type: type, resumedFrom: 0, alreadyThere: false)
    }

    /// Whether the home holds blob `id` (with `size` bytes, when given): one `stat`, no read.
    package func contains(_ id: BlobID, size: Int64? = nil) -> Bool {
        BlobPresence.look(id, in: blobs, size: size) == .present
    }

    /// The bytes of blob `id`, read whole and checked against its name. Bytes that do not
    /// match are moved to the quarantine and never returned.
    /// - Throws: `BlobError`: missing, not a file, too large, a mismatch (quarantined), or
    ///   the file system's failure.
    package func bytes(of id: BlobID) throws(BlobError) -> [UInt8] {
        let (file, stamp) = try BlobFile.open(id.entryName, in: blobs, blob: id)
        guard stamp.size <= limit else { throw BlobError(path: file.path, blob: id, reason: .tooLarge(size: stamp.size, limit: limit)) }
        let read: [UInt8]
        do {
            read = try FileIO.readAll(file.fd, size: Int(stamp.size), path: file.path, maxBytes: Int(limit))
        } catch {
            throw BlobError(error, blob: id)
        }
        let actual = BlobID(of: read)
        guard actual == id else { throw quarantined(id, actual: actual) }
        return read
    }

    /// Reads blob `id` through and checks it against its name, without keeping its bytes;
    /// a mismatch is quarantined and thrown.
    package func verify(_ id: BlobID) throws(BlobError) {
        let (file, _) = try BlobFile.open(id.entryName, in: blobs, blob: id)
        let actual = try file.hash(blob: id)
        guard actual == id else { throw quarantined(id, actual: actual) }
    }

    /// The blobs the home holds (regular files named by a SHA-256), in order.
    package func list() throws(BlobError) -> [BlobID] {
        try BlobPresence.list(blobs)
    }

    /// Removes blob `id` from the home (for `gc`) durably; true when it was there. Throws
    /// when the removal could not be flushed to the disk (it may come back after a crash).
    @discardableResult
    package func remove(_ id: BlobID) throws(BlobError) -> Bool {
        let removed = blobs.remove(id.entryName)
        if removed {
            do { try blobs.synchronize(for: id.entryName, done: "removed") } catch { throw BlobError(error, blob: id) }
        }
        return removed
    }

    /// The files in the quarantine, as printed paths.
    package func quarantined() throws(BlobError) -> [String] {
        do {
            return try quarantine.entries().map { quarantine.display($0) }
        } catch {
            throw BlobError(error, blob: nil)
        }
    }

    /// Moves the home's blob `id` (whose bytes hash to `actual`) into the quarantine and returns
    /// the mismatch error naming where it went.
    func quarantined(_ id: BlobID, actual: BlobID) -> BlobError {
        let path = path(of: id)
        let moved = quarantine(id.entryName, in: blobs, as: EntryName("\(id.hex).\(actual.hex.prefix(16))"))
        return BlobError(path: path, blob: id, reason: .mismatch(actual: actual, quarantined: moved))
    }

    /// Moves `name` of `folder` (a blob folder of this store) into the quarantine as `as`; the
    /// quarantined path (with why it may not be durable), or nil when it could not be moved.
    func quarantine(_ name: EntryName, in folder: FolderHandle, as moved: EntryName) -> String? {
        guard folder.move(name, to: quarantine, as: moved) else { return nil }
        do {
            try folder.synchronize(for: name, done: "moved to the quarantine")
            try quarantine.synchronize(for: moved, done: "quarantined")
        } catch {
            return quarantine.display(moved) + " (\(error.message))"
        }
        return quarantine.display(moved)
    }
}
