#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A name inside a folder, kept as the bytes the file system holds (a name need not be UTF-8),
/// with a printable form for messages (docs/DESIGN.md, "The shared folder is hostile").
package struct EntryName: Hashable, Comparable, Sendable {
    /// The raw bytes of the name.
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }
    package init(_ text: String) { bytes = Array(text.utf8) }

    /// The name when it is valid UTF-8.
    package var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The name as printed: valid UTF-8 with control characters, backslashes and invalid bytes
    /// escaped (`\x1b`, `\\`, `\xff`), so a name can neither drive a terminal nor pass for another.
    package var display: String { PrintableText.escape(bytes: bytes) }

    package func hasPrefix(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }
    package func hasSuffix(_ suffix: String) -> Bool { bytes.count >= suffix.utf8.count && bytes.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) }
    package func contains(_ part: String) -> Bool {
        let needle = Array(part.utf8)
        guard needle.count <= bytes.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        return false
    }

    package static func < (a: EntryName, b: EntryName) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }
}

/// `open(2)` of a path (outside the class, whose `open` is another function).
private func openPath(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }

/// What is at a name, as `fstatat` without following links says.
package enum EntryKind: Equatable, Sendable {
    case file, folder, link, other
}

/// An open folder of the shared folder: every access is relative to its descriptor (`openat`,
/// `O_NOFOLLOW`), so no link is followed and nothing outside it is read, written or deleted,
/// even when a path is swapped for a link between a check and a use. All of the shared
/// folder's C calls are here.
package final class FolderHandle {
    /// The descriptor of the folder.
    private let fd: Int32
    /// The folder's path as printed.
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens the folder a person named (a link there is followed: the person chose the path).
    package static func open(path: String) throws(FileSystemError) -> FolderHandle {
        let fd = openPath(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOTDIR {
                throw FileSystemError(path: path, message: "is not a folder, expected the shared folder (Dropbox, Syncthing, a NAS, a USB stick)", code: code)
            }
            throw FileIO.systemError(path, "cannot open the shared folder", code)
        }
        return FolderHandle(fd: fd, path: path)
    }

    /// The printed path of `name` in this folder.
    package func display(_ name: EntryName) -> String { path + "/" + name.display }

    /// Opens the folder `name` inside this one; a link there is refused (`ELOOP`), not followed.
    package func openFolder(_ name: EntryName) throws(FileSystemError) -> FolderHandle {
        let child = withName(name) { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard child >= 0 else {
            let code = errno
            if code == ELOOP { throw FileSystemError(path: display(name), message: "is a symbolic link, not followed", code: code) }
            if code == ENOTDIR { throw FileSystemError(path: display(name), message: "is not a folder", code: code) }
            throw FileIO.systemError(display(name), "cannot open the folder", code)
        }
        // What the descriptor is, not what the path was.
        var info = stat()
        guard fstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            close(child)
            throw FileSystemError(path: display(name), message: "is not a folder", code: ENOTDIR)
        }
        return FolderHandle(fd: child, path: display(name))
    }

    /// Creates the folder `name` (mode 0700); fine when a folder is already there.
    package func makeFolder(_ name: EntryName) throws(FileSystemError) {
        if withName(name, { mkdirat(fd, $0, 0o700) }) == 0 { return }
        let code = errno
        guard code == EEXIST else { throw FileIO.systemError(display(name), "cannot create the folder", code) }
    }

    /// The names in this folder (not `.` and `..`), in byte order.
    package func entries() throws(FileSystemError) -> [EntryName] {
        let copy = dup(fd)
        guard copy >= 0 else { throw FileIO.systemError(path, "cannot list the folder") }
        guard let stream = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw FileIO.systemError(path, "cannot list the folder", code)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [EntryName] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw FileIO.systemError(path, "cannot list the folder") }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            names.append(EntryName(bytes))
        }
        return names.sorted()
    }

    /// What is at `name` and its stamp, without following a link; nil when nothing is there.
    package func kind(of name: EntryName) -> (kind: EntryKind, stamp: FileStamp)? {
        guard let found = look(name) else { return nil }
        return (found.kind, found.stamp)
    }

    /// What is at `name`, its stamp, and whether it is a plain file: regular, at exactly `mode`
    /// (no setuid bit), one link (no name shared with another file). One `fstatat`, no link
    /// followed.
    package func look(_ name: EntryName, plainMode mode: mode_t = 0o644) -> (kind: EntryKind, stamp: FileStamp, isPlain: Bool)? {
        var info = stat()
        guard withName(name, { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { return nil }
        let kind = Self.kind(info)
        return (kind, Self.stamp(info), kind == .file && (info.st_mode & 0o7777) == mode && info.st_nlink == 1)
    }

    /// Reads the regular file `name` whole: opened without following a link and without
    /// blocking (a named pipe is refused, never waited on), checked by its descriptor.
    package func readFile(_ name: EntryName, maxBytes: Int) throws(FileSystemError) -> (bytes: [UInt8], stamp: FileStamp) {
        let (file, info) = try openFile(name, expected: "a trip file")
        defer { close(file) }
        let bytes = try FileIO.readAll(file, size: Int(info.st_size), path: display(name), maxBytes: maxBytes)
        return (bytes, Self.stamp(info))
    }

    /// Opens the regular file `name` for reading, without following a link and without
    /// blocking, and checks what the descriptor is; `expected` names what belongs there in
    /// messages. The caller closes the descriptor.
    package func openFile(_ name: EntryName, expected: String, vanished: String = "vanished while syncing") throws(FileSystemError) -> (fd: Int32, info: stat) {
        let file = withName(name) { openat(fd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard file >= 0 else { throw openFailure(name, errno, "cannot open", vanished: vanished) }
        var info = stat()
        guard fstat(file, &info) == 0 else {
            let failure = FileIO.systemError(display(name), "cannot stat")
            close(file)
            throw failure
        }
        guard Self.kind(info) == .file else {
            close(file)
            throw FileSystemError(path: display(name), message: "not a regular file (\(Self.kind(info) == .folder ? "a folder" : "a device, pipe or socket")), expected \(expected)")
        }
        return (file, info)
    }

    /// Opens the plain file `name` for reading and writing, creating it at `mode` when absent:
    /// no link followed, no waiting on a pipe, and refused unless the descriptor is a regular
    /// file with one link (no name shared with a file elsewhere). The caller closes it.
    package func openForUpdate(_ name: EntryName, mode: mode_t = 0o644) throws(FileSystemError) -> Int32 {
        let file = withName(name) { openat(fd, $0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode) }
        guard file >= 0 else { throw openFailure(name, errno, "cannot open for writing", vanished: "vanished while being opened") }
        var info = stat()
        guard fstat(file, &info) == 0, Self.kind(info) == .file, info.st_nlink == 1 else {
            close(file)
            throw FileSystemError(path: display(name), message: "not a plain file (a device, pipe, socket or a file with other names)")
        }
        return file
    }

    /// Why opening the file `name` failed with `code`: a link is named as one (never followed).
    private func openFailure(_ name: EntryName, _ code: Int32, _ action: String, vanished: String) -> FileSystemError {
        switch code {
        case ELOOP: return FileSystemError(path: display(name), message: "a symbolic link, not a file (never followed)", code: code)
        case EISDIR: return FileSystemError(path: display(name), message: "is a folder where a file belongs", code: code)
        case ENOENT: return FileSystemError(path: display(name), message: vanished, code: code)
        default: return FileIO.systemError(display(name), action, code)
        }
    }

    /// Moves `name` into the folder `other` (on the same file system) as `newName`, replacing
    /// whatever is there; true when it was moved.
    package func move(_ name: EntryName, to other: FolderHandle, as newName: EntryName) -> Bool {
        withName(name) { a in withName(newName) { b in renameat(fd, a, other.fd, b) } } == 0
    }

    /// Flushes this folder's entries (after a rename into it, or a removal) to the disk,
    /// checked (`FileIO.synchronizeFolder`); `name` is the entry the change was for and `done`
    /// what happened to it, both for the error.
    package func synchronize(for name: EntryName, done: String) throws(FileSystemError) {
        try FileIO.synchronizeFolder(fd, folderPath: path, for: display(name), done: done)
    }

    /// Replaces `name` durably and atomically with `bytes` at exactly `mode`: a temp file
    /// created here exclusively, written, fsynced, renamed over `name`, then the folder fsynced,
    /// each step checked (`FileIO.replaceDurably`, the one sequence).
    /// A link at `name` is replaced, never written through; a folder there is refused.
    package func writeAtomically(_ bytes: [UInt8], to name: EntryName, mode: mode_t = 0o644) throws(FileSystemError) {
        if let (kind, _) = kind(of: name), kind == .folder {
            throw FileSystemError(path: display(name), message: "is a folder where this device's file belongs; move it away so the file can be published", code: EISDIR)
        }
        try bytes.withUnsafeBufferPointer { content throws(FileSystemError) in
            try FileIO.replaceDurably(in: fd, folderPath: path, name: name.bytes, display: display(name), chunks: [OwnedBytes.View(content)], mode: mode)
        }
    }

    /// Removes `name` here (never a folder); true when it was removed.
    @discardableResult
    package func remove(_ name: EntryName) -> Bool {
        withName(name) { unlinkat(fd, $0, 0) } == 0
    }

    /// Renames `from` to `to` inside this folder, replacing whatever is at `to`.
    package func rename(_ from: EntryName, to: EntryName) -> Bool {
        withName(from) { a in withName(to) { b in renameat(fd, a, fd, b) } } == 0
    }

    /// Gives `from` the name `to` only if nothing is at `to` (a hard link then an unlink), so
    /// a file that appeared at `to` meanwhile is never replaced. False when that cannot be done.
    package func renameWithoutReplacing(_ from: EntryName, to: EntryName) -> Bool {
        guard withName(from, { a in withName(to) { b in linkat(fd, a, fd, b, 0) } }) == 0 else { return false }
        remove(from)
        return true
    }

    private func withName<T>(_ name: EntryName, _ body: (UnsafePointer<CChar>) -> T) -> T {
        var bytes = name.bytes.map { CChar(bitPattern: $0) }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return body("") }
            return body(base)
        }
    }

    private static func kind(_ info: stat) -> EntryKind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    package static func stamp(_ info: stat) -> FileStamp {
        #if canImport(Darwin)
            let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return FileStamp(size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino))
    }
}
