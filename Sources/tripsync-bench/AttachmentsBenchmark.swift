import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

/// `tripsync-bench attachments [--megabytes N] [--repeat R] [--dir DIR]`: the blob layer next
/// to the system's tools on the same file, alternating in one run: hashing (`BlobStore.verify`
/// next to `openssl dgst -sha256`), copying into a folder (`BlobStore.share`, which hashes,
/// fsyncs and renames, next to `cp` and `cp` + `sync FILE`), what an owned trip's sealed copy
/// adds (`BlobStore.seal`: read and check the plain bytes, seal them under a fresh key, write the
/// sealed copy durably; `fetchSealed`: the verified copy from the folder, then open, check and
/// store the plain bytes), and 1,000 presence checks (stat only). Medians of R runs after one
/// warm-up; the file is in the page cache.
enum AttachmentsBenchmark {
    static let usage = "usage: tripsync-bench attachments [--megabytes N] [--repeat R] [--dir DIR]"

    static func run(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, usage: usage)
        var megabytes = 256
        var repeats = 7
        var base = NSTemporaryDirectory()
        while let option = parser.nextOption() {
            switch option {
            case "--megabytes": megabytes = try parser.positiveInt(for: option)
            case "--repeat": repeats = try parser.positiveInt(for: option)
            case "--dir": base = try parser.value(for: option)
            default: throw UsageError(message: "unknown option \(option)", usage: usage)
            }
        }
        let root = base + "/tripsync-bench-attachments-\(getpid())"
        try FileManager.default.createDirectory(atPath: root + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let size = megabytes * 1_000_000
        let source = root + "/photo.bin"
        try writeRandomFile(source, size: size)

        let store = try BlobStore(home: root + "/home", limit: Int64.max)
        let id = try store.add(file: source).blob
        let folder = try FolderBlobStore(folder: root + "/shared", tripID: TripID(high: 1, low: 2))
        let blobPath = store.path(of: id)
        let shared = folder.path(of: id)
        let openssl = try which("openssl")
        let cp = try which("cp")
        let sh = try which("sh")
        let environment = ProcessInfo.processInfo.environment
        let digest = try ChildProcess.run(executable: openssl, arguments: ["dgst", "-sha256", "-r", blobPath])
        guard digest.hasPrefix(id.hex) else { throw BenchError("openssl dgst gave \(digest), expected \(id.hex)") }

        let clock = ContinuousClock()
        var rows: [String: [Double]] = [:]
        let order = [
            "hash: BlobStore.verify", "hash: openssl dgst -sha256", "copy: BlobStore.share", "copy: cp", "copy: cp + sync FILE",
            "sealed: BlobStore.seal", "sealed: shareSealed", "sealed: fetchSealed",
        ]
        let tripID = TripID(high: 1, low: 2)
        let receiver = try BlobStore(home: root + "/receiver", limit: Int64.max)
        for round in 0...repeats {
            var times: [String: Double] = [:]
            times[order[0]] = Stats.seconds(try clock.measure { try store.verify(id) })
            times[order[1]] = try ChildProcess.timed(executable: openssl, arguments: ["dgst", "-sha256", blobPath], environment: environment).milliseconds / 1000
            try folder.remove(id)
            times[order[2]] = Stats.seconds(try clock.measure { _ = try store.share(id, to: folder) })
            try folder.remove(id)
            times[order[3]] = try ChildProcess.timed(executable: cp, arguments: [blobPath, shared], environment: environment).milliseconds / 1000
            try folder.remove(id)
            times[order[4]] = try ChildProcess.timed(executable: sh, arguments: ["-c", "cp \"$0\" \"$1\" && sync \"$1\"", blobPath, shared], environment: environment).milliseconds / 1000
            for old in try store.listSealed() { try store.removeSealed(old) }
            var sealed: SealedBlob?
            times[order[5]] = Stats.seconds(try clock.measure { sealed = try store.seal(id, tripID: tripID) })
            let reference = BlobReference(sha256: id.hex, size: Int64(size), type: "application/octet-stream", sealed: sealed)
            if let old = sealed.flatMap({ BlobID($0.sha256) }) { try folder.remove(old) }
            times[order[6]] = Stats.seconds(try clock.measure { _ = try store.shareSealed(reference, to: folder) })
            try receiver.remove(id)
            for old in try receiver.listSealed() { try receiver.removeSealed(old) }
            times[order[7]] = Stats.seconds(try clock.measure { _ = try receiver.fetchSealed(reference, tripID: tripID, from: folder) })
            guard receiver.contains(id, size: Int64(size)) else { throw BenchError("the sealed copy did not open to the blob") }
            if let old = sealed.flatMap({ BlobID($0.sha256) }) { try folder.remove(old) }
            if round > 0 { for (name, seconds) in times { rows[name, default: []].append(seconds) } }
        }
        guard try folder.presence(of: id, size: Int64(size)) == .present else { throw BenchError("the copy is not in the folder") }

        print("attachments: \(megabytes) MB of random bytes, median of \(repeats) runs (after one warm-up), file in the page cache")
        print("what                              median ms     MB/s   vs tool")
        let medians = order.map { Stats.median(rows[$0] ?? []) }
        // Ours against the tool: the hash against openssl; the copy against cp and against cp
        // made durable (the copy fsyncs, cp does not).
        let versus = [
            String(format: "%6.0f%%", medians[1] / medians[0] * 100), "",
            String(format: "%6.0f%% of cp, %.0f%% of cp + sync", medians[3] / medians[2] * 100, medians[4] / medians[2] * 100), "", "",
            "", String(format: "seal + shareSealed %.1fx share", (medians[5] + medians[6]) / medians[2]), "",
        ]
        for (index, name) in order.enumerated() {
            let median = medians[index]
            print(name.padding(toLength: 32, withPad: " ", startingAt: 0) + String(format: "%10.1f %8.0f", median * 1000, Stats.throughput(bytes: size, seconds: median)) + "   " + versus[index])
        }
        // What any copy that checks every byte pays at least, against cp's whole copy.
        print(String(format: "hashing alone takes %.1fx cp's whole copy (a copy that hashes what it writes is at most %.0f%% of cp)", medians[0] / medians[3], medians[3] / medians[0] * 100))
        try presenceChecks(folder: folder, root: root, repeats: repeats)
    }

    /// 1,000 blobs named in a folder (tiny files): the median time of checking all of them by
    /// stat, as a no-op sync does.
    private static func presenceChecks(folder: FolderBlobStore, root: String, repeats: Int) throws {
        let store = try BlobStore(home: root + "/home1000")
        var ids: [BlobID] = []
        for k in 0..<1000 {
            let result = try store.add(bytes: Array("attachment \(k)".utf8))
            _ = try store.share(result.blob, to: folder)
            ids.append(result.blob)
        }
        let seconds = try Stats.medianSeconds(repeats: repeats) {
            for id in ids where try folder.presence(of: id, size: nil) != .present { throw BenchError("\(id) is missing") }
        }
        print("1,000 presence checks (stat only)" + String(format: "%9.2f", seconds * 1000))
    }

    /// Writes `size` random bytes to `path` (libsodium-free: /dev/urandom through Foundation).
    private static func writeRandomFile(_ path: String, size: Int) throws {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw BenchError("cannot open /dev/urandom") }
        defer { try? random.close() }
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw BenchError("cannot create \(path)") }
        guard let out = FileHandle(forWritingAtPath: path) else { throw BenchError("cannot write \(path)") }
        defer { try? out.close() }
        var left = size
        while left > 0 {
            let piece = try random.read(upToCount: min(left, 1 << 20)) ?? Data()
            guard !piece.isEmpty else { throw BenchError("/dev/urandom gave no bytes") }
            try out.write(contentsOf: piece)
            left -= piece.count
        }
    }

    /// The path of `tool` on PATH.
    private static func which(_ tool: String) throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw BenchError("\(tool) is not on PATH (apt-get install -y \(tool == "openssl" ? "openssl" : "coreutils"))")
    }
}
