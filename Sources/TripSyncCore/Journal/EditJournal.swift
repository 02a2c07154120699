import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The append-only journal of one trip's edits in a home, `trips/<tripId>.journal` beside the
/// replica (docs/DESIGN.md, "The edit journal"). An edit appends one record (the edit's effect,
/// `EditJournal.Delta`) and fsyncs it instead of rewriting the whole replica; every reader of
/// the home replays the records over the replica; a whole rewrite of the replica (past
/// `foldBytes`/`foldRecords`, at every sync, any membership change) folds them in and removes
/// the journal.
///
/// The file: a 44-byte header (`magic`, the format `version` as a little-endian UInt32, and the
/// BLAKE2b-256 of the replica file the journal applies to), then records, each a little-endian
/// UInt32 payload length, the CRC-32 (zlib) of those four length bytes and the payload, and the
/// payload. A journal whose base digest is not the replica's is stale (the replica was
/// rewritten after it, with its records folded in) and is ignored. A record that is cut short
/// or fails its checksum at the end of the file (or followed only by zero bytes) is a torn
/// append: dropped with a warning, and truncated away under the home's lock. One that fails in
/// the middle is an error naming the file and offset: nothing is guessed.
package struct EditJournal: Sendable {
    /// The first eight bytes of every journal.
    package static let magic: [UInt8] = Array("TSJOURNL".utf8)
    /// The format this build writes and the only one it reads.
    package static let version: UInt32 = 1
    /// Magic, version, base digest.
    package static let headerSize = 8 + 4 + 32
    /// Length and checksum before each payload.
    package static let recordHeaderSize = 8
    /// The largest journal read (a journal is folded long before: `foldBytes`).
    package static let maxBytes = 256 << 20
    /// A journal is folded into the replica once it holds this many bytes (docs/PERFORMANCE.md,
    /// "The edit journal": replaying this much costs less than one whole rewrite).
    package static let foldBytes = 512 << 10
    /// ... or this many records.
    package static let foldRecords = 256

    /// The journal's path.
    package let path: String

    /// The journal at `path`.
    package init(path: String) { self.path = path }

    /// Where an open journal ends, as its reader or last append left it.
    package struct Position: Sendable, Hashable {
        /// The BLAKE2b-256 of the replica file the records apply to.
        package var base: [UInt8]
        /// The length of the good part of the file (header and whole records).
        package var length: Int
        /// The number of good records.
        package var records: Int
        /// The replica file's identity when this was known (`stamp(of:)`): a replica rewritten
        /// since (a whole save that failed only to remove the journal) makes the journal stale.
        package var replica: [Int64] = []
        /// Whether this process has made the journal's name durable (created it, or fsynced its
        /// folder): a journal found on disk may have been created by a process killed before it
        /// fsynced the folder, so the first append of each opener fsyncs the folder too.
        package var nameDurable = false

        package init(base: [UInt8], length: Int, records: Int, replica: [Int64] = [], nameDurable: Bool = false) {
            self.base = base
            self.length = length
            self.records = records
            self.replica = replica
            self.nameDurable = nameDurable
        }
    }

    /// Inode, size and change time of the file at `path` (empty when it cannot be read): a
    /// cheap sign that a replica was replaced.
    package static func stamp(of path: String) -> [Int64] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec)]
    }

    /// A torn tail found by the reader (and not yet truncated away).
    package struct TornTail: Sendable, Hashable {
        /// The offset of the first byte dropped.
        package var offset: Int
        /// How many bytes were dropped.
        package var count: Int
        /// What was wrong with them.
        package var reason: String
    }

    /// What a journal holds: its good records' payloads, where it ends, and a torn tail.
    package struct Contents: Sendable {
        package var position: Position
        package var payloads: [ArraySlice<UInt8>]
        package var torn: TornTail?
    }

    /// Why a journal cannot be used: corrupt in its middle, of a newer or unknown format, not a
    /// journal at all. Reported as the trip's `TripFileError` naming the journal.
    package struct Failure: Error, Sendable {
        package var message: String
        package var offset: Int?
    }

    /// The CRC-32 (zlib's) of a record's four length bytes followed by its payload.
    package static func checksum(lengthBytes: ArraySlice<UInt8>, payload: ArraySlice<UInt8>) -> UInt32 {
        CRC32.checksum(payload, continuing: CRC32.checksum(lengthBytes))
    }

    package static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    package static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// The file's header for a journal over a replica whose digest is `base`.
    package static func header(base: [UInt8]) -> [UInt8] {
        magic + littleEndian(version) + base
    }

    /// One record's bytes.
    package static func record(_ payload: [UInt8]) -> [UInt8] {
        let length = littleEndian(UInt32(payload.count))
        let crc = checksum(lengthBytes: length[...], payload: payload[...])
        return length + littleEndian(crc) + payload
    }

    /// The journal's bytes parsed (`bytes` is the whole file).
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> Contents {
        // A header cut short is a journal whose creation was torn: nothing in it was ever saved.
        if bytes.count < headerSize {
            let expected = magic + littleEndian(version)
            let consistent = bytes.enumerated().allSatisfy { index, byte in byte == 0 || index >= expected.count || byte == expected[index] }
            guard consistent else { throw Failure(message: "not a TripSync edit journal (its first bytes are not \"TSJOURNL\")", offset: 0) }
            return Contents(
                position: Position(base: [], length: 0, records: 0), payloads: [],
                torn: bytes.isEmpty ? nil : TornTail(offset: 0, count: bytes.count, reason: "a header cut short (\(bytes.count) of \(headerSize) bytes)"))
        }
        guard Array(bytes[0..<8]) == magic else {
            throw Failure(message: "not a TripSync edit journal (its first bytes are not \"TSJOURNL\")", offset: 0)
        }
        let found = word(bytes, at: 8)
        guard found == version else {
            if found > version {
                throw Failure(
                    message: "written by a newer TripSync: edit journal format \(found), this build reads format \(version); use that newer TripSync (its next sync folds the journal into the trip)",
                    offset: 8)
            }
            throw Failure(message: "edit journal format \(found) was never written by TripSync (this build reads format \(version))", offset: 8)
        }
        let base = Array(bytes[12..<headerSize])
        var offset = headerSize
        var payloads: [ArraySlice<UInt8>] = []
        var torn: TornTail?
        func restIsZero(from start: Int) -> Bool { bytes[start...].allSatisfy { $0 == 0 } }
        while offset < bytes.count {
            let remaining = bytes.count - offset
            if remaining < recordHeaderSize {
                torn = TornTail(offset: offset, count: remaining, reason: "a record header cut short (\(remaining) of \(recordHeaderSize) bytes)")
                break
            }
            let length = Int(word(bytes, at: offset))
            let stored = word(bytes, at: offset + 4)
            let end = offset + recordHeaderSize + length
            if end > bytes.count {
                torn = TornTail(offset: offset, count: remaining, reason: "a record cut short (\(remaining - recordHeaderSize) of \(length) bytes)")
                break
            }
            let payload = bytes[(offset + recordHeaderSize)..<end]
            if length == 0 || checksum(lengthBytes: bytes[offset..<(offset + 4)], payload: payload) != stored {
                // At the end (or followed only by the zeros a crash can leave past a file's
                // written end) it is a torn append; anywhere else the journal is corrupt.
                if end == bytes.count || restIsZero(from: offset) || restIsZero(from: end) {
                    torn = TornTail(offset: offset, count: remaining, reason: length == 0 ? "zero bytes where a record should be" : "a record that fails its CRC-32")
                    break
                }
                throw Failure(
                    message: "the record at byte \(offset) fails its CRC-32 and \(bytes.count - end) more bytes follow it: the journal is corrupt in its middle, not torn at its end, and nothing is guessed",
                    offset: offset)
            }
            payloads.append(payload)
            offset = end
        }
        return Contents(position: Position(base: base, length: offset, records: payloads.count), payloads: payloads, torn: torn)
    }

    /// Reads and parses the journal; nil when there is none.
    package func read() throws(Failure) -> Contents? {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readFile(path, maxBytes: EditJournal.maxBytes)
        } catch let error as FileSystemError {
            if error.code == ENOENT { return nil }
            throw Failure(message: error.message, offset: nil)
        } catch {
            throw Failure(message: "\(error)", offset: nil)
        }
        return try EditJournal.parse(bytes)
    }

    /// The BLAKE2b-256 of the replica file at `path` (what a journal's header names as its base).
    package static func digest(ofFile path: String) throws -> [UInt8] {
        Sodium.blake2b256(try FileIO.readFile(path, maxBytes: maxBytes))
    }

    /// Appends one record durably and returns where the journal ends now. `position` is where
    /// the journal ends as this home's lock holder knows it (nil: there is none, or a stale one,
    /// to be replaced by a new journal over the replica whose digest is `base`). Bytes past
    /// `position` (a torn tail) are cut first. The record is written and fsynced before this
    /// returns; the folder is fsynced too for a new journal and at the first append of each
    /// opener, so the file's name survives a crash. When the write or the file's fsync fails,
    /// the journal is cut back to `position` (best effort) and the error names the journal:
    /// the edit was not saved. When only the folder's fsync fails, the record is in place
    /// (`inPlace`), not confirmed durable.
    package func append(_ payload: [UInt8], at position: Position?, base: [UInt8]) throws(FileSystemError) -> Position {
        let record = EditJournal.record(payload)
        let creating = position == nil
        let flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | (creating ? O_CREAT | O_TRUNC : 0)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw FileIO.systemError(path, "cannot open the edit journal to save the edit (nothing was saved)") }
        defer { close(fd) }
        let start = position?.length ?? 0
        let bytes = creating ? EditJournal.header(base: base) + record : record
        do throws(FileSystemError) {
            try FileIO.appendDurably(fd, bytes, at: start, path: path, what: "the edit journal", doing: "appending the edit to the edit journal")
        } catch {
            // A new journal goes entirely (the append cut it back to nothing).
            if creating { unlink(path) }
            throw error
        }
        if creating || !(position?.nameDurable ?? false) {
            // The journal's name in its folder: a new journal's, or one this process did not
            // create (its creator may have been killed before this step).
            let folderPath = FileIO.directoryName(of: path)
            let folder: Int32
            do throws(FileSystemError) {
                folder = try FileIO.openFolder(folderPath, for: path)
            } catch {
                throw FileSystemError(path: path, message: error.message + " (the edit is in the journal, but its folder could not be flushed)", code: error.code, inPlace: true)
            }
            defer { close(folder) }
            try FileIO.synchronizeFolder(folder, folderPath: folderPath, for: path, done: "the edit was written to the edit journal and fsynced")
        }
        let previous = position ?? Position(base: base, length: EditJournal.headerSize, records: 0)
        let newStart = creating ? EditJournal.headerSize : start
        return Position(
            base: previous.base, length: newStart + record.count, records: previous.records + 1, replica: previous.replica, nameDurable: true)
    }

    /// Cuts a torn tail away (under the home's lock), fsynced; the journal then ends at
    /// `position`. A journal with no good record is removed.
    package func truncate(to position: Position) throws(FileSystemError) {
        if position.records == 0 {
            try FileIO.removeDurably(path)
            return
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw FileIO.systemError(path, "cannot open the edit journal to cut its torn tail") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(position.length)) == 0 else {
            throw FileIO.systemError(path, "cannot cut the edit journal's torn tail at byte \(position.length)")
        }
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw FileIO.systemError(path, "cannot fsync the edit journal after cutting its torn tail")
        }
    }

    /// Removes the journal durably (after a whole rewrite of the replica folded it in).
    package func remove() throws(FileSystemError) {
        try FileIO.removeDurably(path)
    }
}
