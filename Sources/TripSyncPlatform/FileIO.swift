#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure of the file system, with the path and the system's reason.
package struct FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path involved.
    package var path: String
    /// What was being done and why it failed.
    package var message: String
    /// The `errno` value, when the system gave one.
    package var code: Int32
    /// True when the change already reached its place (the new file was renamed over the old,
    /// a file was removed) and only making it durable failed: "nothing was changed" is then
    /// not true, and a message says the change may not survive a crash.
    package var inPlace: Bool

    /// Creates an error.
    package init(path: String, message: String, code: Int32 = 0, inPlace: Bool = false) {
        self.path = path
        self.message = message
        self.code = code
        self.inPlace = inPlace
    }

    /// What the failure left: "nothing was changed", or, for a change already in place, that it
    /// was made but may not survive a crash.
    package var outcome: String {
        inPlace ? "the change was saved but the disk did not confirm it is durable" : "nothing was changed"
    }

    /// `path: message`.
    package var description: String { "\(path): \(message)" }
}

extension FileSystemError: TripSyncError {
    /// `.fileSystem`.
    package var errorKind: TripSyncErrorKind { .fileSystem }
    /// The path.
    package var facts: ErrorFacts { ErrorFacts(file: path) }
}

/// Plain POSIX file access: bounded reads and durable atomic replaces.
package enum FileIO {
    package static func systemError(_ path: String, _ action: String, _ code: Int32 = errno) -> FileSystemError {
        FileSystemError(path: path, message: "\(action): \(String(cString: strerror(code)))", code: code)
    }

    /// Reads a whole regular file, refusing one larger than `maxBytes` before reading it. The
    /// file is opened without blocking, so a named pipe or a device is refused, never waited on;
    /// what is checked is the opened descriptor, not the path.
    package static func readFile(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw systemError(path, "cannot open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw systemError(path, "cannot stat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "a folder" : (info.st_mode & S_IFMT) == S_IFIFO ? "a named pipe" : "a device or socket"
            throw FileSystemError(path: path, message: "not a regular file (\(what)), expected a trip file")
        }
        return try readAll(fd, size: Int(info.st_size), path: path, maxBytes: maxBytes)
    }

    /// Reads an open regular file of `size` bytes to its end, refusing more than `maxBytes`.
    package static func readAll(_ fd: Int32, size: Int, path: String, maxBytes: Int) throws(FileSystemError) -> [UInt8] {
        guard size <= maxBytes else {
            throw FileSystemError(path: path, message: "the file has \(size) bytes, more than the limit of \(maxBytes)", code: EFBIG)
        }
        // Read straight into uninitialized storage: zero-filling first would touch every page twice.
        var failure: FileSystemError?
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < size {
                let got = read(fd, base + initialized, size - initialized)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = systemError(path, "cannot read")
                    return
                }
                if got == 0 { break }  // the file shrank while we read it
                initialized += got
            }
        }
        if let failure { throw failure }
        // A file that grew while we read it: read what is left, up to the limit.
        var extra = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let got = extra.withUnsafeMutableBytes { buffer in read(fd, buffer.baseAddress, buffer.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw systemError(path, "cannot read")
            }
            if got == 0 { break }
            guard bytes.count + got <= maxBytes else {
                throw FileSystemError(path: path, message: "the file grew past the limit of \(maxBytes) bytes while being read", code: EFBIG)
            }
            bytes.append(contentsOf: extra[0..<got])
        }
        return bytes
    }

    /// Writes all of `bytes` to an open file.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileSystemError) {
        try bytes.withUnsafeBufferPointer { buffer throws(FileSystemError) in
            try writeAll(fd, OwnedBytes.View(buffer), path: path)
        }
    }

    /// Writes all of `chunk` to an open file (`write` until done, again on EINTR), checked.
    package static func writeAll(_ fd: Int32, _ chunk: OwnedBytes.View, path: String) throws(FileSystemError) {
        guard let base = chunk.base else { return }
        var written = 0
        while written < chunk.count {
            let result = write(fd, base + written, chunk.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw systemError(path, "cannot write")
            }
            written += result
        }
    }

    /// Replaces `path` durably: a temp file in the same folder (created exclusively, at exactly
    /// `mode`, whatever was at the path before: a link's 0777 or a setuid bit is never taken
    /// over), write, fsync, rename over the target, fsync the folder, each step checked
    /// (`replaceDurably`). Either the old or the new content is there after a crash, never a
    /// mix; an error names the file and says whether the new content is in place (`inPlace`).
    package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        try bytes.withUnsafeBufferPointer { buffer in
            try writeAtomically(chunks: [OwnedBytes.View(buffer)], to: path, mode: mode)
        }
    }

    /// `writeAtomically` of the concatenation of `chunks`, written one after the other (no
    /// joined copy in memory).
    package static func writeAtomically(chunks: [OwnedBytes.View], to path: String, mode: mode_t = 0o644) throws {
        var existing = stat()
        if lstat(path, &existing) == 0, (existing.st_mode & S_IFMT) == S_IFDIR {
            throw FileSystemError(path: path, message: "is a folder, expected a file path", code: EISDIR)
        }
        let folderPath = directoryName(of: path)
        let folder = try openFolder(folderPath, for: path)
        defer { close(folder) }
        try replaceDurably(in: folder, folderPath: folderPath, name: Array(baseName(of: path).utf8), display: path, chunks: chunks, mode: mode)
    }

    /// Removes the file `path` durably (unlink, then fsync of its folder, checked); false when
    /// nothing was there.
    @discardableResult
    package static func removeDurably(_ path: String) throws(FileSystemError) -> Bool {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return false }
            throw systemError(path, "cannot remove")
        }
        let folderPath = directoryName(of: path)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw FileSystemError(path: path, message: "removed, but its folder could not be opened to flush the removal to the disk (\(String(cString: strerror(errno))))", code: errno, inPlace: true)
        }
        defer { close(folder) }
        try synchronizeFolder(folder, folderPath: folderPath, for: path, done: "removed")
        return true
    }

    /// Creates a folder and its parents (mode 0700 for new ones); fine when it exists.
    package static func makeFolder(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw FileSystemError(path: path, message: "exists and is not a folder", code: ENOTDIR)
            }
            return
        }
        let parent = directoryName(of: path)
        if parent != path && parent != "." && parent != "/" { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw systemError(path, "cannot create the folder") }
    }

    /// The folder part of a path ("." when there is none).
    package static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    package static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
