extension TripDocument {
    /// The canonical JSON bytes of the document (`docs/FORMAT.md`): the same state written by
    /// the same device always gives the same bytes.
    public func canonicalJSON() -> [UInt8] {
        CanonicalWriter.encode(self)
    }

    /// The canonical JSON as gzip at the given zlib level (1 by default: measured fastest for
    /// the size; see README): one gzip member per part (`CanonicalWriter.Parts`: at most 1,500
    /// items), encoded and compressed on every core.
    public func gzipData(level: Int32 = 1) throws -> [UInt8] {
        Gzip.concatenate(try gzipMembers(level: level))
    }

    /// The gzip members of the canonical JSON: each part (`CanonicalWriter.Parts`) is encoded
    /// and compressed by one task, so the whole JSON is never in memory at once.
    func gzipMembers(level: Int32) throws -> [OwnedBytes] {
        let parts = CanonicalWriter.Parts(self)
        let members = ParallelMap.map(Array(0..<parts.count)) { index -> Result<OwnedBytes, GzipError> in
            let json = parts.encode(index)
            return withExtendedLifetime(json) {
                Result { () throws(GzipError) -> OwnedBytes in
                    try Gzip.compressMember(UnsafeRawBufferPointer(start: json.base, count: json.count), level: level)
                }
            }
        }
        var result: [OwnedBytes] = []
        result.reserveCapacity(members.count)
        for member in members {
            switch member {
            case .success(let bytes): result.append(bytes)
            case .failure(let error): throw FileSystemError(path: "", message: error.message)
            }
        }
        return result
    }

    /// Writes the document durably (temp file, fsync, rename, fsync the folder): gzip when the
    /// path ends in `.gz`, canonical JSON otherwise.
    public func write(to path: String) throws {
        // Written part by part: the JSON parts (or their gzip members) are never joined in memory.
        let parts = path.hasSuffix(".gz") ? try gzipMembers(level: 1) : CanonicalWriter.encodeParts(self)
        try withExtendedLifetime(parts) { try FileIO.writeAtomically(chunks: parts.map(\.view), to: path) }
    }
}
