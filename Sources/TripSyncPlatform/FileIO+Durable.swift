#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one durable write of the project (docs/DESIGN.md, "Durable writes"): a temp file created
/// exclusively in the target's folder, written, fsynced, renamed over the target, then the
/// folder fsynced. Every step is checked; the write is durable only when all of them succeeded,
/// and any failure is an error naming the file. `FileIO.writeAtomically` (a path) and
/// `FolderHandle.writeAtomically` (a name in an open folder) both run it.
extension FileIO {
    /// The name of our temp file for `target` (`.<target>.tmp-<pid>-<attempt>-<random>`), as bytes.
    package static func temporaryName(for target: [UInt8], attempt: Int) -> [UInt8] {
        Array(".".utf8) + target + Array(".tmp-\(getpid())-\(attempt)-\(UInt32.random(in: 0...UInt32.max))".utf8)
    }

    /// Whether `name` is one of our temp names (`.<target>.tmp-<pid>-<attempt>-<random>`, the
    /// three numbers decimal): the exact form `temporaryName` makes, nothing else.
    package static func isTemporaryName(_ name: [UInt8]) -> Bool {
        guard name.count > 1, name[0] == UInt8(ascii: "."), let marker = lastRange(of: Array(".tmp-".utf8), in: name), marker.lowerBound > 1 else { return false }
        let numbers = name[marker.upperBound...].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return numbers.count == 3 && numbers.allSatisfy { !$0.isEmpty && $0.count <= 10 && $0.allSatisfy { (0x30...0x39).contains($0) } }
    }

    private static func lastRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        guard bytes.count >= needle.count else { return nil }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1) where bytes[start..<start + needle.count].elementsEqual(needle) {
            return start..<start + needle.count
        }
        return nil
    }

    /// Flushes the entries of the open folder `folder` (after a rename, a new name or a removal
    /// in it) to the disk, checked. `path` is the file the change was for, named in the error;
    /// `done` says what already happened to it (the change is in place, only not yet durable).
    /// A file system that cannot sync a folder at all (`EINVAL`, `ENOTSUP`) has nothing more to
    /// give and is not an error.
    package static func synchronizeFolder(_ folder: Int32, folderPath: String, for path: String, done: String) throws(FileSystemError) {
        while fsync(folder) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EINVAL || code == ENOTSUP { return }
            throw FileSystemError(
                path: path,
                message: "\(done), but the folder \(folderPath) could not be flushed to the disk (fsync: \(String(cString: strerror(code)))), "
                    + "so a crash could still lose it; check the disk (space, errors) and run the command again",
                code: code, inPlace: true)
        }
    }

    /// Opens a folder for `synchronizeFolder` (checked: a folder that cannot be opened is an error
    /// naming `path`, the file about to be written there).
    package static func openFolder(_ folder: String, for path: String) throws(FileSystemError) -> Int32 {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw FileSystemError(path: path, message: "cannot open its folder \(folder) (\(String(cString: strerror(code))))", code: code)
        }
        return fd
    }

    /// The checked sequence in the open folder `folder`: `name` replaced by the concatenation
    /// of `chunks` at exactly `mode`. `display` is the target as printed in errors.
    package static func replaceDurably(
        in folder: Int32, folderPath: String, name: [UInt8], display: String, chunks: [OwnedBytes.View], mode: mode_t
    ) throws(FileSystemError) {
        var temp: [UInt8] = []
        var file: Int32 = -1
        for attempt in 0..<100 {
            temp = temporaryName(for: name, attempt: attempt)
            file = withCName(temp) { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) }
            if file >= 0 || errno != EEXIST { break }
        }
        guard file >= 0 else { throw systemError(display, "cannot create a temporary file in \(folderPath)") }
        var renamed = false
        defer { if !renamed { _ = withCName(temp) { unlinkat(folder, $0, 0) } } }
        do {
            defer { close(file) }
            for chunk in chunks { try writeAll(file, chunk, path: display) }
            guard fchmod(file, mode) == 0 else { throw systemError(display, "cannot set the file's mode") }
            while fsync(file) != 0 {
                if errno == EINTR { continue }
                throw systemError(display, "cannot fsync (nothing was replaced)")
            }
        }
        let moved = withCName(temp) { from in withCName(name) { to in renameat(folder, from, folder, to) } }
        guard moved == 0 else { throw systemError(display, "cannot rename the temporary file into place (nothing was replaced)") }
        renamed = true
        try synchronizeFolder(folder, folderPath: folderPath, for: display, done: "the new content was renamed into place")
    }

    /// Appends `bytes` to the open file `fd` at `start` (where its last good record ends):
    /// anything past `start` (a torn tail) is cut first, then the bytes are written and the
    /// file fsynced, each step checked. When one fails, the file is cut back to `start` (best
    /// effort: whatever reached it goes, so an append reported as not saved never reappears)
    /// and the error names `path`, called `what` ("the edit journal") in its words; `doing`
    /// says what the write was for. The edit journal's and the counter ledger's appends.
    package static func appendDurably(_ fd: Int32, _ bytes: [UInt8], at start: Int, path: String, what: String, doing: String) throws(FileSystemError) {
        do throws(FileSystemError) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw systemError(path, "cannot stat \(what) (nothing was saved)") }
            if Int(info.st_size) != start, ftruncate(fd, off_t(start)) != 0 {
                throw systemError(path, "cannot cut \(what)'s torn tail at byte \(start) (nothing was saved)")
            }
            guard lseek(fd, off_t(start), SEEK_SET) == off_t(start) else { throw systemError(path, "cannot seek in \(what) (nothing was saved)") }
            do throws(FileSystemError) {
                try writeAll(fd, bytes, path: path)
            } catch {
                throw FileSystemError(path: path, message: "\(error.message) (\(doing); nothing was saved)", code: error.code)
            }
            while fsync(fd) != 0 {
                if errno == EINTR { continue }
                throw systemError(path, "cannot fsync \(what) (the edit was not saved)")
            }
        } catch {
            _ = ftruncate(fd, off_t(start))
            throw error
        }
    }

    /// Calls `body` with `name` as a NUL-terminated C string.
    package static func withCName<T>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        var bytes = name.map { CChar(bitPattern: $0) }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return body("") }
            return body(base)
        }
    }
}
