extension TripDocument {
    /// The canonical JSON bytes of the document (`docs/FORMAT.md`): the same state written by
    /// the same device always gives the same bytes.
    public func canonicalJSON() -> [UInt8] {
        CanonicalWriter.encode(self)
    }

    /// The canonical JSON compressed as one gzip member at the given zlib level (1 by default:
    /// measured fastest for the size; see README).
    public func gzipData(level: Int32 = 1) throws -> [UInt8] {
        do {
            let parts = CanonicalWriter.encodeParts(self)
            return Gzip.concatenate(try withExtendedLifetime(parts) { try Gzip.compressMembers(parts.map(\.view), level: level) })
        } catch let error as GzipError {
            throw FileSystemError(path: "", message: error.message)
        }
    }

    /// Writes the document durably (temp file, fsync, rename, fsync the folder): gzip when the
    /// path ends in `.gz`, canonical JSON otherwise.
    public func write(to path: String) throws {
        // Written part by part: the JSON and its gzip members are never joined in memory.
        let parts = CanonicalWriter.encodeParts(self)
        try withExtendedLifetime(parts) {
            guard path.hasSuffix(".gz") else {
                return try FileIO.writeAtomically(chunks: parts.map(\.view), to: path)
            }
            let members: [OwnedBytes]
            do {
                members = try Gzip.compressMembers(parts.map(\.view), level: 1)
            } catch let error as GzipError {
                throw FileSystemError(path: "", message: error.message)
            }
            try withExtendedLifetime(members) { try FileIO.writeAtomically(chunks: members.map(\.view), to: path) }
        }
    }
}
