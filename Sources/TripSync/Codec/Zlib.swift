import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// All zlib calls of the package: only `GzipCompression.zlib(level:)` writes through zlib
/// (libdeflate writes the default and reads every file).
enum Zlib {
    /// `input` as one gzip member compressed by zlib at `level`, in one block (no zero-filling,
    /// no copy); nil when zlib refuses the level or memory runs out.
    static func gzipMember(_ input: UnsafeRawBufferPointer, level: Int32) -> OwnedBytes? {
        // zlib counts input in 32 bits.
        guard input.count <= Int(UInt32.max) else { return nil }
        var stream = z_stream()
        guard tripsync_deflateInit2(&stream, level, 15 + 16) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 64
        guard let output = malloc(bound)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = output
        stream.avail_out = uInt(bound)
        guard deflate(&stream, Z_FINISH) == Z_STREAM_END else {
            free(output)
            return nil
        }
        let produced = bound - Int(stream.avail_out)
        let shrunk = realloc(output, max(produced, 1))?.assumingMemoryBound(to: UInt8.self) ?? output
        return OwnedBytes(takingMalloced: shrunk, count: produced)
    }
}
