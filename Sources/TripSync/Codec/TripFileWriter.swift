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
            return try Gzip.compressParallel(canonicalJSON(), level: level)
        } catch let error as GzipError {
            throw FileSystemError(path: "", message: error.message)
        }
    }

    /// Writes the document durably (temp file, fsync, rename, fsync the folder): gzip when the
    /// path ends in `.gz`, canonical JSON otherwise.
    public func write(to path: String) throws {
        let bytes = path.hasSuffix(".gz") ? try gzipData() : canonicalJSON()
        try FileIO.writeAtomically(bytes, to: path)
    }
}
