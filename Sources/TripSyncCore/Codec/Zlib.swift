import CZlib
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// All zlib calls of the package: only `GzipCompression.zlib(level:)` writes through zlib
/// (libdeflate writes the default and reads every file), and a PNG's compressed XMP is read
/// through `inflate` (docs/DESIGN.md, "Attachments: location in photos").
package enum Zlib {
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

    /// The zlib stream `input` inflated, or nil when it is not one zlib reads to its end, or
    /// inflates to more than `limit` bytes (the work stops there: a bomb costs at most `limit`).
    package static func inflate(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard input.count <= Int(UInt32.max) else { return nil }
        var stream = z_stream()
        guard tripsync_inflateInit2(&stream, 15) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END, output.count + produced <= limit else { return nil }
                output += chunk[..<produced]
                if status == Z_STREAM_END { return output }
                if produced == 0 && stream.avail_in == 0 { return nil }  // cut short
            }
        }
    }
}
