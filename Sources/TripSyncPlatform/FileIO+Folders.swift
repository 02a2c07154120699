#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing a folder of the home by bytes (`opendir`/`readdir`): no name is dropped or changed
/// for not being UTF-8, and a folder that cannot be listed is an error a person can act on
/// (which path, what is wrong, what to do), never a Foundation error code.
extension FileIO {
    /// The names in the folder `path` (not `.` and `..`) as bytes, in byte order; nil when
    /// nothing is at `path`. `what` names the folder in errors ("this home's trips").
    package static func folderNames(_ path: String, what: String) throws(FileSystemError) -> [[UInt8]]? {
        guard let stream = opendir(path) else {
            let code = errno
            if code == ENOENT { return nil }
            throw accessError(path, code, what: what)
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                if code != 0 { throw accessError(path, code, what: what) }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            names.append(bytes)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Whether the folder `path` holds an entry named exactly `name` (byte for byte: on a
    /// case-insensitive file system a lookup by name would also find another spelling); false
    /// when nothing is at `path`. Read with `readdir` and nothing kept, for a folder of hundreds
    /// of names (the time zone database) that one command looks into once.
    package static func folderHolds(_ path: String, name: String, what: String) throws(FileSystemError) -> Bool {
        guard let stream = opendir(path) else {
            let code = errno
            if code == ENOENT { return false }
            throw accessError(path, code, what: what)
        }
        defer { closedir(stream) }
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                let code = errno
                if code != 0 { throw accessError(path, code, what: what) }
                return false
            }
            let same = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.withMemoryRebound(to: CChar.self) { chars in chars.baseAddress.map { strcmp($0, name) == 0 } ?? false }
            }
            if same { return true }
        }
    }

    /// The names of `folderNames` that are valid UTF-8 (every name the home itself writes is);
    /// an empty list when nothing is at `path`.
    package static func folderTextNames(_ path: String, what: String) throws(FileSystemError) -> [String] {
        (try folderNames(path, what: what) ?? []).compactMap { String(validating: $0, as: UTF8.self) }
    }

    /// Why the folder `path` (`what`) cannot be used, said so a person can act: permission
    /// denied (check the owner and mode), not a folder (a file is there), missing, or the
    /// system's reason.
    package static func accessError(_ path: String, _ code: Int32, what: String) -> FileSystemError {
        let message: String
        switch code {
        case EACCES, EPERM:
            message = "permission denied: \(what) cannot be read; give this user read and search permission on it and on the folders above it (ls -ld \(path); chmod u+rx)"
        case ENOTDIR:
            message = "is not a folder (a file is at this path or above it), expected \(what); move that file away"
        case ENOENT:
            message = "missing: \(what) does not exist"
        case ELOOP:
            message = "too many symbolic links on the way to \(what)"
        default:
            message = "cannot list \(what): \(String(cString: strerror(code)))"
        }
        return FileSystemError(path: path, message: message, code: code)
    }
}

extension FileIO {
    /// What the system's `code` means for a path, said so a person can act on it.
    package static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied; give this user access to it and to the folders above it (ls -ld; chmod)"
        case ENOENT: return "missing: nothing is at this path; check the path"
        case ENOTDIR: return "not a folder: a file is at this path or above it where a folder belongs"
        case EISDIR: return "is a folder where a file belongs"
        case ENOSPC: return "the disk is full; free some space and try again"
        case EROFS: return "the file system is read-only"
        case EIO: return "input/output error: the disk or the network file system failed; check it and try again"
        default: return String(cString: strerror(code))
        }
    }
}
