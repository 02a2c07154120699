import CZlib

/// Limits on what inflating a gzip file may produce, checked before memory is spent.
public struct InflateLimits: Hashable, Sendable {
    /// The most bytes the decompressed data may have (default 256 MiB).
    public var maxOutputBytes: Int
    /// The largest ratio of output to input bytes allowed beyond `ratioFreeBytes` (default 200).
    public var maxRatio: Int
    /// Output up to this size is allowed whatever the ratio (default 1 MiB).
    public var ratioFreeBytes: Int

    /// Creates limits.
    public init(maxOutputBytes: Int = 256 << 20, maxRatio: Int = 200, ratioFreeBytes: Int = 1 << 20) {
        self.maxOutputBytes = maxOutputBytes
        self.maxRatio = maxRatio
        self.ratioFreeBytes = ratioFreeBytes
    }

    /// The default limits.
    public static let standard = InflateLimits()

    /// The most output allowed for `inputSize` compressed bytes.
    func budget(forInput inputSize: Int) -> Int {
        let (product, overflow) = inputSize.multipliedReportingOverflow(by: maxRatio)
        let byRatio = overflow ? Int.max : max(ratioFreeBytes, product)
        return min(maxOutputBytes, byRatio)
    }
}

/// A gzip failure, with a message a person can act on.
struct GzipError: Error {
    var kind: TripFileError.Kind
    var message: String
}

/// Gzip through zlib. All zlib calls of the package live in this file.
enum Gzip {
    /// Whether the bytes start with the gzip magic number.
    static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Compresses to a single gzip member (no name, mtime 0), at the given zlib level.
    static func compress(_ input: [UInt8], level: Int32 = 1) throws -> [UInt8] {
        var stream = z_stream()
        guard tripsync_deflateInit2(&stream, level, 15 + 16) == Z_OK else {
            throw GzipError(kind: .corruptGzip, message: "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 64
        var output = [UInt8](repeating: 0, count: bound)
        var status: Int32 = Z_OK
        var produced = 0
        input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                status = deflate(&stream, Z_FINISH)
                produced = outBuffer.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else {
            throw GzipError(kind: .corruptGzip, message: "zlib could not compress (status \(status))")
        }
        output.removeSubrange(produced...)
        return output
    }

    /// The size of the independent gzip members a large output is cut into, so they can be
    /// compressed on several cores; fixed (not per machine) so the bytes never depend on the core count.
    static let memberSize = 2 << 20

    /// Compresses as consecutive gzip members of `memberSize` input bytes each, in parallel.
    /// A gzip reader inflates concatenated members as one stream (RFC 1952, section 2.2).
    static func compressParallel(_ input: [UInt8], level: Int32 = 1) throws -> [UInt8] {
        if input.count <= memberSize { return try compress(input, level: level) }
        let chunks = stride(from: 0, to: input.count, by: memberSize).map { start in
            Array(input[start..<min(start + memberSize, input.count)])
        }
        let results = ParallelMap.map(chunks) { chunk in Result { try compress(chunk, level: level) } }
        var output: [UInt8] = []
        output.reserveCapacity(results.reduce(0) { $0 + ((try? $1.get().count) ?? 0) })
        for result in results { output += try result.get() }
        return output
    }

    /// Inflates every gzip member in `input`, checking CRC32 and length (zlib does both) and
    /// stopping with an error before the output passes the limits.
    static func decompress(_ input: UnsafeRawBufferPointer, limits: InflateLimits) throws -> [UInt8] {
        let budget = limits.budget(forInput: input.count)
        // ISIZE of the last member is a hint for the first allocation (trusted only within the budget).
        var initial = 64 << 10
        if input.count >= 18 {
            let end = input.count
            let hint = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
            if hint > 0 && hint <= budget { initial = hint + 1 }
        }
        var output = [UInt8]()
        output.reserveCapacity(min(initial, budget + 1))
        var stream = z_stream()
        guard tripsync_inflateInit2(&stream, 15 + 16) == Z_OK else {
            throw GzipError(kind: .corruptGzip, message: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw GzipError(kind: .corruptGzip, message: "empty gzip data, expected a gzip member")
        }
        stream.next_in = UnsafeMutablePointer(mutating: base)
        stream.avail_in = uInt(input.count)
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        var members = 0
        while true {
            let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                return inflate(&stream, Z_NO_FLUSH)
            }
            let produced = chunk.count - Int(stream.avail_out)
            if output.count + produced > budget {
                let which = budget == limits.maxOutputBytes
                    ? "the size limit of \(limits.maxOutputBytes) bytes"
                    : "\(limits.maxRatio) times its compressed size (\(input.count) bytes)"
                throw GzipError(kind: .tooLarge, message: "gzip data inflates past \(which), expected a smaller trip file; refused before reading further")
            }
            output.append(contentsOf: chunk[0..<produced])
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                members += 1
                if stream.avail_in == 0 { return output }
                // Concatenated members: another one must follow.
                let next = stream.next_in
                if stream.avail_in >= 2, let next, next[0] == 0x1F, next[1] == 0x8B {
                    guard inflateReset(&stream) == Z_OK else {
                        throw GzipError(kind: .corruptGzip, message: "zlib could not continue with the next gzip member")
                    }
                    continue
                }
                throw GzipError(kind: .corruptGzip, message: "\(stream.avail_in) stray bytes after gzip member \(members), expected another gzip member or the end of the file")
            case Z_BUF_ERROR:
                if stream.avail_in == 0 {
                    throw GzipError(kind: .corruptGzip, message: "gzip data is truncated, expected the rest of the compressed stream and its CRC32/length trailer")
                }
                continue
            case Z_DATA_ERROR:
                let detail = stream.msg.map { String(cString: $0) } ?? "invalid data"
                throw GzipError(kind: .corruptGzip, message: "gzip data is corrupt (\(detail)), expected a valid gzip stream")
            case Z_MEM_ERROR:
                throw GzipError(kind: .tooLarge, message: "zlib ran out of memory while inflating")
            default:
                throw GzipError(kind: .corruptGzip, message: "gzip data could not be inflated (zlib status \(status))")
            }
        }
    }
}
