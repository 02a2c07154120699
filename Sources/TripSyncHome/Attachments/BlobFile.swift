#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CSystem
import TripSyncPlatform

/// An open file of a blob copy: positioned reads and writes, truncate, fsync, a lock. The
/// descriptor comes from `FolderHandle` (no link followed, checked by `fstat`) and is closed
/// with this value. All of the blob layer's own C calls are here.
final class BlobFile {
    /// The descriptor.
    let fd: Int32
    /// The file as printed.
    let path: String

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens the regular file `name` of `folder` for reading.
    static func open(_ name: EntryName, in folder: FolderHandle, blob: BlobID?) throws(BlobError) -> (file: BlobFile, stamp: FileStamp) {
        let path = folder.display(name)
        guard let found = folder.kind(of: name) else { throw BlobError(path: path, blob: blob, reason: .missing) }
        try refuseOther(found.kind, path: path, blob: blob)
        do {
            let (fd, info) = try folder.openFile(name, expected: "a blob", vanished: "vanished while being read")
            return (BlobFile(fd: fd, path: path), FolderHandle.stamp(info))
        } catch {
            if error.code == ENOENT { throw BlobError(path: path, blob: blob, reason: .missing) }
            throw BlobError(error, blob: blob)
        }
    }

    /// Opens (or creates) the partial file `name` of `folder` for a copy and takes its lock, so
    /// two copies of one blob never write one partial.
    static func openPartial(_ name: EntryName, in folder: FolderHandle, blob: BlobID?) throws(BlobError) -> BlobFile {
        let path = folder.display(name)
        if let found = folder.kind(of: name) { try refuseOther(found.kind, path: path, blob: blob) }
        let file: BlobFile
        do {
            file = BlobFile(fd: try folder.openForUpdate(name), path: path)
        } catch {
            throw BlobError(error, blob: blob)
        }
        guard flock(file.fd, LOCK_EX | LOCK_NB) == 0 else {
            if errno == EWOULDBLOCK { throw BlobError(path: path, blob: blob, reason: .busy) }
            throw BlobError(FileIO.systemError(path, "cannot lock"), blob: blob)
        }
        return file
    }

    private static func refuseOther(_ kind: EntryKind, path: String, blob: BlobID?) throws(BlobError) {
        switch kind {
        case .file: return
        case .link: throw BlobError(path: path, blob: blob, reason: .notAFile("a symbolic link"))
        case .folder: throw BlobError(path: path, blob: blob, reason: .notAFile("a folder"))
        case .other: throw BlobError(path: path, blob: blob, reason: .notAFile("a pipe, socket or device"))
        }
    }

    /// The file's stamp (size, modification time, inode) now.
    func stamp() throws(FileSystemError) -> FileStamp {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileIO.systemError(path, "cannot stat") }
        return FolderHandle.stamp(info)
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(FileSystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = pread(fd, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw FileIO.systemError(path, "cannot read")
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(FileSystemError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let put = pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if put < 0 {
                if errno == EINTR { continue }
                throw FileIO.systemError(path, "cannot write")
            }
            done += put
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int64) throws(FileSystemError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw FileIO.systemError(path, "cannot truncate") }
    }

    /// Starts writing `length` bytes at `offset` to the disk without waiting for them (a hint;
    /// its failure is left to the fsync that follows to report).
    func startWriteback(at offset: Int64, length: Int) {
        _ = tripsync_start_writeback(fd, offset, Int64(length))
    }

    /// Waits until `length` bytes at `offset` are written to the disk (a hint, as above).
    func waitWriteback(at offset: Int64, length: Int) {
        _ = tripsync_wait_writeback(fd, offset, Int64(length))
    }

    /// Flushes the file's bytes to the disk.
    func synchronize() throws(FileSystemError) {
        guard fsync(fd) == 0 else { throw FileIO.systemError(path, "cannot fsync") }
    }

    /// The SHA-256 of the whole file, read from its start to its end.
    func hash(blob: BlobID?) throws(BlobError) -> BlobID {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: BlobCopy.chunk, alignment: 4096)
        defer { buffer.deallocate() }
        adviseSequential()
        let hasher = SHA256Hasher()
        var offset: Int64 = 0
        while true {
            let got: Int
            do {
                got = try read(into: buffer, at: offset)
            } catch {
                throw BlobError(error, blob: blob)
            }
            if got == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            offset += Int64(got)
        }
        guard let id = BlobID(digest: hasher.finish()) else {
            throw BlobError(FileSystemError(path: path, message: "SHA-256 gave no 32-byte digest"), blob: blob)
        }
        return id
    }

    /// The path with every link and `..` resolved (`realpath`), or `path` itself when it cannot
    /// be resolved (the open that follows then says why).
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Tells the kernel the file is read once from start to end (a larger read-ahead).
    func adviseSequential() {
        #if canImport(Glibc)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }
}
