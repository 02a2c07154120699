import TripSyncPlatform
import TripSyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `HOME/device.issued`: the counters this installation issued since `device.json` was last
/// written, appended as each edit saves instead of rewriting `device.json` (docs/DESIGN.md,
/// "The counter ledger"). `device.json` holds every issued range: after a year of edits it is
/// tens of kilobytes, and rewriting it (temp file, fsync, rename, fsync of the folder) was the
/// dearest part of saving an edit. The identity is `device.json` with the ledger's records
/// applied (`Home.openIdentity`); every whole save of `device.json` folds the ledger in and
/// removes it.
///
/// The file: `magic` and the format version (UInt32), then records of `recordSize` bytes, each
/// the device id (16 bytes), the high-water mark, the first and last counter of one issued
/// range (0 and 0: none, the high-water mark alone) as little-endian UInt64s, and the CRC-32 of
/// those 40 bytes. A record's counters are durable before the edit that used them is written
/// anywhere, as `device.json`'s were. Records of another device id (written before a re-key)
/// are skipped. A record cut short, or failing its check with no good record after it, is a
/// torn append: it was never acknowledged, and is ignored and cut away by the next append. A
/// bad record with a good one after it is damage, and the home is refused until it is mended.
package struct IssuedLedger: Sendable {
    /// The first eight bytes of every ledger.
    package static let magic: [UInt8] = Array("TSISSUED".utf8)
    /// The format this build writes and reads.
    static let version: UInt32 = 1
    /// Magic and version.
    package static let headerSize = 12
    /// Device id, high-water mark, first and last counter, CRC-32.
    package static let recordSize = 16 + 8 + 8 + 8 + 4
    /// The largest ledger read: far above what folding lets it reach (`foldRecords`).
    static let maxBytes = 1 << 20
    /// An append that brings the ledger to this many records folds it into `device.json`.
    package static let foldRecords = 64

    /// What one record says.
    package struct Entry: Hashable, Sendable {
        /// The device whose counters these are.
        package var device: DeviceID
        /// The device's high-water mark when they were issued.
        package var highWater: UInt64
        /// The counters issued, nil when the record raises the high-water mark alone.
        package var range: ClosedRange<UInt64>?

        /// A record of `range` (or of the high-water mark alone) for `device`.
        package init(device: DeviceID, highWater: UInt64, range: ClosedRange<UInt64>?) {
            self.device = device
            self.highWater = highWater
            self.range = range
        }
    }

    /// The ledger's file.
    package let path: String

    /// The ledger at `path`.
    package init(path: String) {
        self.path = path
    }

    /// The records of the ledger, in order, and the length of the part they fill (the rest is a
    /// torn append); nil when there is no ledger. Throws when the ledger is damaged or not one.
    package func read() throws(FileSystemError) -> (entries: [Entry], length: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw FileIO.systemError(path, "cannot read this installation's counter ledger")
        }
        defer { close(fd) }
        return try read(fd)
    }

    private func read(_ fd: Int32) throws(FileSystemError) -> (entries: [Entry], length: Int) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileIO.systemError(path, "cannot look at this installation's counter ledger") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileSystemError(path: path, message: "this installation's counter ledger is not a regular file; move it away (this home cannot be opened with it)")
        }
        let bytes = try FileIO.readAll(fd, size: Int(info.st_size), path: path, maxBytes: Self.maxBytes)
        return try Self.parse(bytes, path: path)
    }

    /// The records of a ledger's `bytes` and the length they fill; see `read()`.
    package static func parse(_ bytes: [UInt8], path: String) throws(FileSystemError) -> (entries: [Entry], length: Int) {
        // Shorter than a header: a ledger whose creation was cut short, holding nothing.
        guard bytes.count >= headerSize else {
            guard bytes.elementsEqual(header.prefix(bytes.count)) else { throw damaged(path, "is not a counter ledger (it does not begin with \"TSISSUED\")") }
            return ([], 0)
        }
        guard bytes[0..<8].elementsEqual(magic) else { throw damaged(path, "is not a counter ledger (it does not begin with \"TSISSUED\")") }
        let format = word32(bytes, 8)
        guard format <= version else {
            throw FileSystemError(
                path: path,
                message: "this installation's counter ledger is of format \(format), written by a newer TripSync (this build reads format \(version)); use that version, nothing was changed")
        }
        guard format == version else { throw damaged(path, "names format \(format), which no TripSync writes") }
        var entries: [Entry] = []
        var offset = headerSize
        var torn: (offset: Int, reason: String)?
        while offset < bytes.count {
            guard offset + recordSize <= bytes.count else {
                if torn == nil { torn = (offset, "cut short") }
                break
            }
            let record = bytes[offset..<(offset + recordSize)]
            let entry = decode(record)
            if let entry {
                if let torn { throw damaged(path, "holds a record that fails its check at byte \(torn.offset) (\(torn.reason)) with a good record after it at byte \(offset)") }
                entries.append(entry)
            } else if torn == nil {
                torn = (offset, "its checksum or its counters are wrong")
            }
            offset += recordSize
        }
        return (entries, torn?.offset ?? bytes.count)
    }

    /// A record's entry, nil when it fails its CRC or its counters are out of order.
    static func decode(_ record: ArraySlice<UInt8>) -> Entry? {
        let bytes = Array(record)
        guard CRC32.checksum(bytes[0..<(recordSize - 4)]) == word32(bytes, recordSize - 4) else { return nil }
        let device = DeviceID(high: word64(bytes, 0), low: word64(bytes, 8))
        let highWater = word64(bytes, 16)
        let first = word64(bytes, 24)
        let last = word64(bytes, 32)
        if first == 0 && last == 0 { return Entry(device: device, highWater: highWater, range: nil) }
        guard first >= 1, first <= last, last <= highWater else { return nil }
        return Entry(device: device, highWater: highWater, range: first...last)
    }

    /// A record's bytes.
    static func encode(_ entry: Entry) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordSize)
        for value in [entry.device.high, entry.device.low, entry.highWater, entry.range?.lowerBound ?? 0, entry.range?.upperBound ?? 0] {
            append64(&bytes, value)
        }
        append32(&bytes, CRC32.checksum(bytes[...]))
        return bytes
    }

    /// `identity` with the ledger's records of its device applied: the high-water mark raised,
    /// the ranges added to its issued counters.
    package func apply(to identity: inout DeviceIdentity) throws(FileSystemError) {
        guard let (entries, _) = try read() else { return }
        for entry in entries where entry.device == identity.deviceID {
            identity.highWater = max(identity.highWater, entry.highWater)
            if let range = entry.range { identity.issued.insert(range) }
        }
    }

    /// Appends `entries` durably (written, the file fsynced, then its folder fsynced, so its
    /// name survives a crash whoever made it) and returns how many records the ledger holds
    /// now. Under the home's lock. A torn append at the end is cut away first; a new ledger
    /// starts with its header. When the write or the fsync fails, the ledger is cut back
    /// (best effort) and the error says the edit was not saved.
    package func append(_ entries: [Entry]) throws(FileSystemError) -> Int {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw FileIO.systemError(path, "cannot open this installation's counter ledger (nothing was saved)") }
        defer { close(fd) }
        let (held, length) = try read(fd)
        var bytes = length < Self.headerSize ? Self.header : []
        let start = length < Self.headerSize ? 0 : length
        for entry in entries { bytes += Self.encode(entry) }
        // What reached the file is cut away when a step fails: counters of an edit reported
        // as not saved are not kept as issued.
        try FileIO.appendDurably(fd, bytes, at: start, path: path, what: "the counter ledger", doing: "recording the counters of the edit")
        // The folder too, every time, not only when this process made the file: its maker may
        // have been killed before flushing the folder. When the folder is already on the disk
        // this costs little (0.05 ms here). The edit is not written yet, so a failure here is
        // an edit not saved, and the records are cut away again (best effort, as above).
        let folderPath = FileIO.directoryName(of: path)
        do throws(FileSystemError) {
            let folder = try FileIO.openFolder(folderPath, for: path)
            defer { close(folder) }
            try FileIO.synchronizeFolder(folder, folderPath: folderPath, for: path, done: "the edit's counters were written to the counter ledger")
        } catch {
            _ = ftruncate(fd, off_t(start))
            _ = fsync(fd)
            throw FileSystemError(path: path, message: "\(error.message) (the edit was not saved, and its counters were taken out again)", code: error.code)
        }
        return held.count + entries.count
    }

    /// Removes the ledger (after `device.json` was written with its records in it). Not
    /// flushed: a ledger that comes back after a crash holds only what `device.json` holds.
    package func remove() throws(FileSystemError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileIO.systemError(path, "cannot remove the counter ledger")
        }
    }

    static let header: [UInt8] = {
        var bytes = magic
        append32(&bytes, version)
        return bytes
    }()

    private static func damaged(_ path: String, _ what: String) -> FileSystemError {
        FileSystemError(
            path: path,
            message: "this installation's counter ledger \(what); nothing was changed. Move the file away to open this home (the counters it recorded then count as not issued here, and the home may take a new device id)")
    }

    private static func word32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func word64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(word32(bytes, at)) | UInt64(word32(bytes, at + 4)) << 32
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func append64(_ out: inout [UInt8], _ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
