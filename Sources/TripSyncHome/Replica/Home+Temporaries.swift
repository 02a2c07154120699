import Foundation
import TripSyncPlatform
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash leftovers: a process killed between creating its temp file and renaming it leaves
/// `.<name>.tmp-<pid>-<n>-<random>` in a folder of the home, which no later write ever reuses.
/// Whoever takes the home's lock removes them (docs/DESIGN.md, "Durable writes").
extension Home {
    /// The folders of this home that `FileIO.writeAtomically` writes into.
    var writtenFolders: [String] { layout.writtenFolders }

    /// How old a temp file of a process that may still run must be before it is stale
    /// (a process of another pid namespace sharing this home looks alive or dead by chance).
    static let staleTemporarySeconds: Int64 = 15 * 60

    /// Removes this home's own stale temp files: only names of exactly our temp form
    /// (`FileIO.isTemporaryName`), only regular files, and only when the process named in the
    /// temp name is gone or the file is older than `staleTemporarySeconds`. The caller holds the
    /// home's lock, and every process that writes in the home writes under it, so no write in
    /// progress is touched. Returns the paths removed; a file that cannot be removed (or a folder
    /// that cannot be listed) is left for the next command, which tries again.
    @discardableResult
    func removeStaleTemporaries(nowSeconds: Int64 = Int64(time(nil))) -> [String] {
        var removed: [String] = []
        for folder in writtenFolders {
            let names: [[UInt8]]
            do {
                names = try FileIO.folderNames(folder, what: "a folder of this home") ?? []
            } catch {
                continue  // the command that uses this folder reports why it cannot be read
            }
            for name in names where FileIO.isTemporaryName(name) {
                let path = Array((folder + "/").utf8) + name
                var info = stat()
                guard FileIO.withCName(path, { lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                #if canImport(Darwin)
                    let modified = Int64(info.st_mtimespec.tv_sec)
                #else
                    let modified = Int64(info.st_mtim.tv_sec)
                #endif
                guard Home.writerIsGone(name) || nowSeconds - modified > Home.staleTemporarySeconds else { continue }
                if FileIO.withCName(path, { unlink($0) }) == 0 { removed.append(folder + "/" + PrintableText.escape(bytes: name)) }
            }
        }
        return removed
    }

    /// Whether the process whose pid a temp name carries (`.…tmp-<pid>-…`) no longer runs
    /// (never this process: it holds no temp file while it takes the lock).
    static func writerIsGone(_ name: [UInt8]) -> Bool {
        guard let marker = String(decoding: name, as: UTF8.self).range(of: ".tmp-", options: .backwards) else { return false }
        let text = String(decoding: name, as: UTF8.self)
        guard let pid = Int32(text[marker.upperBound...].prefix { $0 != "-" }), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
