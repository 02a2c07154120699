import Dispatch
import TripSyncPlatform
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reports a copy's progress: bytes done (verified or copied) and the total.
package typealias BlobProgress = (_ done: Int64, _ total: Int64) -> Void

/// What one copy did.
package struct BlobCopyResult: Hashable, Sendable {
    /// The blob copied (its bytes hash to this name).
    package var blob: BlobID
    /// Its size in bytes.
    package var size: Int64
    /// Its type, sniffed from its first bytes; nil when nothing was read (`alreadyThere`).
    package var type: BlobType?
    /// How many bytes of an earlier partial file were verified and kept (0 for a fresh copy).
    package var resumedFrom: Int64
    /// True when nothing was copied because the destination already held the blob (a stat,
    /// size equal; no read).
    package var alreadyThere: Bool
}

/// The one resumable, verified copy of the blob layer, used both ways (home to folder, folder
/// to home) and for adding a file to the home: through a partial file, resumed from the
/// verified length of that partial, hashed while copying, fsynced, checked against its name,
/// renamed into place (docs/DESIGN.md, "Attachments: blob storage").
package struct BlobCopy {
    /// Where the bytes come from.
    var source: FolderHandle
    var sourceName: EntryName
    /// Where the partial file goes and what it is called.
    var partialFolder: FolderHandle
    var partialName: EntryName
    /// Where the finished blob goes (its name is the hash, or `expected`'s).
    var destination: FolderHandle
    /// The hash the bytes must have; nil when the copy names them (a file added to the home).
    var expected: BlobID?
    /// The size the bytes must have, when known.
    var expectedSize: Int64?
    /// The most bytes taken.
    var limit: Int64
    /// Where a partial whose bytes do not match `expected` goes; nil: it is removed.
    var quarantine: FolderHandle?

    /// The size of one read (and write).
    static let chunk = 1 << 20
    /// How many chunks the disk may lag behind the copy.
    static let writeback = 8

    /// Runs the copy. A failure of the file system leaves the partial file for the next run;
    /// a source that changed or does not match its name is never renamed into place.
    func run(progress: BlobProgress?) throws(BlobError) -> BlobCopyResult {
        let (input, before) = try BlobFile.open(sourceName, in: source, blob: expected)
        let size = before.size
        guard size <= limit else { throw BlobError(path: input.path, blob: expected, reason: .tooLarge(size: size, limit: limit)) }
        if let expectedSize, size != expectedSize {
            let reason: BlobError.Reason = size < expectedSize ? .incomplete(size: size, expected: expectedSize) : .wrongSize(size: size, expected: expectedSize)
            throw BlobError(path: input.path, blob: expected, reason: reason)
        }
        input.adviseSequential()
        let partial = try BlobFile.openPartial(partialName, in: partialFolder, blob: expected)
        let buffers = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * Self.chunk, alignment: 4096)
        defer { buffers.deallocate() }
        let hasher = SHA256Hasher()
        var sniffed: [UInt8] = []
        let done: Int64
        let resumed: Int64
        do {
            resumed = try verifyPartial(input, partial, size: size, hasher: hasher, buffers: buffers, sniffed: &sniffed, progress: progress)
            done = try copyRest(input, partial, from: resumed, size: size, hasher: hasher, buffers: buffers, sniffed: &sniffed, progress: progress)
            // Growing: a byte past the size seen at the start, or a changed stamp; replaced: the
            // name now leads to another file.
            let extra = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffers[0..<1]), at: done)
            let after = try input.stamp()
            let named = source.kind(of: sourceName)?.stamp
            guard done == size, extra == 0, after == before, named == before else {
                throw BlobError(path: input.path, blob: expected, reason: .changedWhileRead)
            }
            try partial.synchronize()
        } catch let failure as FileSystemError {
            throw BlobError(failure, blob: expected)
        } catch let failure as BlobError {
            throw failure
        } catch {
            throw BlobError(FileSystemError(path: input.path, message: "\(error)"), blob: expected)
        }
        guard let actual = BlobID(digest: hasher.finish()) else {
            throw BlobError(FileSystemError(path: input.path, message: "SHA-256 gave no 32-byte digest"), blob: expected)
        }
        let name = expected ?? actual
        if name != actual {
            throw BlobError(path: input.path, blob: expected, reason: .mismatch(actual: actual, quarantined: quarantinePartial(actual: actual)))
        }
        guard partialFolder.move(partialName, to: destination, as: name.entryName) else {
            throw BlobError(FileIO.systemError(destination.display(name.entryName), "cannot rename the partial file into place"), blob: name)
        }
        do {
            try destination.synchronize(for: name.entryName, done: "the copy was renamed into place")
        } catch {
            throw BlobError(error, blob: name)
        }
        return BlobCopyResult(blob: name, size: size, type: BlobType.sniff(sniffed), resumedFrom: resumed, alreadyThere: false)
    }

    /// Compares the partial file with the source's same range while feeding the hasher, and
    /// cuts the partial at the first difference; returns the verified length.
    private func verifyPartial(
        _ input: BlobFile, _ partial: BlobFile, size: Int64, hasher: SHA256Hasher, buffers: UnsafeMutableRawBufferPointer,
        sniffed: inout [UInt8], progress: BlobProgress?
    ) throws -> Int64 {
        let existing = try partial.stamp().size
        let ours = UnsafeMutableRawBufferPointer(rebasing: buffers[0..<Self.chunk])
        let theirs = UnsafeMutableRawBufferPointer(rebasing: buffers[Self.chunk..<2 * Self.chunk])
        var verified: Int64 = 0
        let end = min(existing, size)
        while verified < end {
            let want = Int(min(Int64(Self.chunk), end - verified))
            let got = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: ours[0..<want]), at: verified)
            guard got == want else { throw BlobError(path: input.path, blob: expected, reason: .changedWhileRead) }
            let kept = try partial.read(into: UnsafeMutableRawBufferPointer(rebasing: theirs[0..<want]), at: verified)
            var same = 0
            if kept == want, let a = ours.baseAddress, let b = theirs.baseAddress, memcmp(a, b, want) == 0 {
                same = want
            } else {
                while same < kept && ours[same] == theirs[same] { same += 1 }
            }
            let equal = UnsafeRawBufferPointer(rebasing: ours[0..<same])
            hasher.update(equal)
            if sniffed.count < BlobType.sniffLength { sniffed += equal.prefix(BlobType.sniffLength - sniffed.count) }
            verified += Int64(same)
            progress?(verified, size)
            if same < want { break }
        }
        if existing != verified { try partial.truncate(to: verified) }
        return verified
    }

    /// Copies the source from `offset` to its end into the partial file, feeding the hasher;
    /// returns the length reached.
    private func copyRest(
        _ input: BlobFile, _ partial: BlobFile, from offset: Int64, size: Int64, hasher: SHA256Hasher, buffers: UnsafeMutableRawBufferPointer,
        sniffed: inout [UInt8], progress: BlobProgress?
    ) throws -> Int64 {
        // Two buffers: chunk N is hashed on another thread while it is written and chunk N+1 is
        // read (docs/PERFORMANCE.md, "Issue 17"). The hash of a buffer ends before that buffer
        // is read into again, and the hashes run in order, one at a time.
        let halves = [
            UnsafeMutableRawBufferPointer(rebasing: buffers[0..<Self.chunk]),
            UnsafeMutableRawBufferPointer(rebasing: buffers[Self.chunk..<2 * Self.chunk]),
        ]
        let hashing = DispatchGroup()
        let queue = DispatchQueue(label: "tripsync.blob-hash")
        defer { hashing.wait() }
        var done = offset
        var current = 0
        while done < size {
            let want = Int(min(Int64(Self.chunk), size - done))
            let buffer = halves[current]
            let got = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: done)
            guard got == want else { throw BlobError(path: input.path, blob: expected, reason: .changedWhileRead) }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got])
            if sniffed.count < BlobType.sniffLength { sniffed += bytes.prefix(BlobType.sniffLength - sniffed.count) }
            hashing.wait()  // the previous chunk's hash (the other buffer) is done
            let job = HashJob(hasher: hasher, bytes: bytes)
            queue.async(group: hashing) { job.run() }
            try partial.write(bytes, at: done)
            // The disk writes while the copy goes on, at most `writeback` chunks behind, so
            // the fsync at the end has little left to wait for (docs/PERFORMANCE.md).
            partial.startWriteback(at: done, length: got)
            let behind = done - Int64(Self.writeback * Self.chunk)
            if behind >= offset { partial.waitWriteback(at: behind, length: Self.chunk) }
            done += Int64(got)
            progress?(done, size)
            current ^= 1
        }
        hashing.wait()
        return done
    }

    /// Moves the partial file (bytes that do not match `expected`) into the quarantine, or
    /// removes it when there is none; the quarantined path, when moved.
    private func quarantinePartial(actual: BlobID) -> String? {
        guard let quarantine, let expected else {
            partialFolder.remove(partialName)
            return nil
        }
        let name = EntryName("\(expected.hex).\(actual.hex.prefix(16))")
        guard partialFolder.move(partialName, to: quarantine, as: name) else {
            partialFolder.remove(partialName)
            return nil
        }
        // The mismatch is what is reported; a quarantine that is not durable only means the
        // partial may come back after a crash, to be checked and quarantined again.
        do { try quarantine.synchronize(for: name, done: "quarantined") } catch { return quarantine.display(name) + " (\(error.message))" }
        return quarantine.display(name)
    }
}

/// One chunk to hash on the hashing thread: the bytes stay untouched (their buffer is not read
/// into again) until the job ends, and jobs of one hasher run one at a time, in order.
private struct HashJob: @unchecked Sendable {
    let hasher: SHA256Hasher
    let bytes: UnsafeRawBufferPointer
    func run() { hasher.update(bytes) }
}
