import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// Gzip through zlib (and `Deflate` for writing). All zlib calls of the package live in this file.
enum Gzip {
    /// Whether the bytes start with the gzip magic number.
    static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Compresses `input` to one gzip member as `compression` says.
    static func compressMember(_ input: UnsafeRawBufferPointer, _ compression: GzipCompression) throws(GzipError) -> OwnedBytes {
        switch compression {
        case .fast: return try compressMemberFast(input)
        case .zlib(let level): return try compressMember(input, level: level)
        }
    }

    /// Compresses `input` to one gzip member with `Deflate`: the gzip header zlib writes at
    /// its fastest level on Unix, the raw stream, then CRC-32 and length (RFC 1952).
    static func compressMemberFast(_ input: UnsafeRawBufferPointer) throws(GzipError) -> OwnedBytes {
        // The encoder keeps positions in 32 bits; a part is never near that, any bytes may be.
        guard input.count < Deflate.largestInput else { return try compressMember(input, level: 1) }
        guard let member = Deflate.compress(input, prefix: 10, suffix: 8), let output = member.base else {
            throw GzipError(kind: .tooLarge, message: "out of memory while compressing")
        }
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 4, 3]
        for (k, byte) in header.enumerated() { output[k] = byte }
        var crc = crc32(0, nil, 0)
        if let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            // zlib's crc32 takes at most 4 GiB per call.
            var offset = 0
            while offset < input.count {
                let length = min(input.count - offset, 1 << 30)
                crc = crc32(crc, base + offset, uInt(length))
                offset += length
            }
        }
        let trailer = UInt64(UInt32(truncatingIfNeeded: crc)) | UInt64(UInt32(truncatingIfNeeded: input.count)) << 32
        UnsafeMutableRawPointer(output + member.count - 8).storeBytes(of: trailer.littleEndian, as: UInt64.self)
        return member
    }

    /// Compresses `input` to one gzip member with zlib at `level`, in a block of its own (no
    /// zero-filling, no copy).
    static func compressMember(_ input: UnsafeRawBufferPointer, level: Int32) throws(GzipError) -> OwnedBytes {
        var stream = z_stream()
        guard tripsync_deflateInit2(&stream, level, 15 + 16) == Z_OK else {
            throw GzipError(kind: .corruptGzip, message: "zlib could not start compressing")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 64
        guard let output = malloc(bound)?.assumingMemoryBound(to: UInt8.self) else {
            throw GzipError(kind: .tooLarge, message: "out of memory while compressing")
        }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = output
        stream.avail_out = uInt(bound)
        let status = deflate(&stream, Z_FINISH)
        guard status == Z_STREAM_END else {
            free(output)
            throw GzipError(kind: .corruptGzip, message: "zlib could not compress (status \(status))")
        }
        let produced = bound - Int(stream.avail_out)
        return OwnedBytes(takingMalloced: realloc(output, max(produced, 1))?.assumingMemoryBound(to: UInt8.self) ?? output, count: produced)
    }

    /// The blocks one after the other in one array.
    static func concatenate(_ blocks: [OwnedBytes]) -> [UInt8] {
        let total = blocks.reduce(0) { $0 + $1.count }
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var position = 0
            for block in blocks {
                guard let source = block.base, let target = buffer.baseAddress, block.count > 0 else { continue }
                (target + position).initialize(from: source, count: block.count)
                position += block.count
            }
            initialized = position
        }
    }

    /// Inflates every gzip member in `input`, checking CRC32 and length (zlib does both) and
    /// stopping with an error before the output passes the limits.
    static func decompress(_ input: UnsafeRawBufferPointer, limits: InflateLimits) throws -> [UInt8] {
        try decompressOwned(input, limits: limits).toArray()
    }

    /// `decompress`, straight into one malloc'd block (grown by `realloc`, no chunk copies).
    static func decompressOwned(_ input: UnsafeRawBufferPointer, limits: InflateLimits) throws -> OwnedBytes {
        let budget = limits.budget(forInput: input.count)
        // ISIZE of the last member is a hint for the first allocation (trusted only within the
        // budget); files of several members inflate to about 7 times their size.
        var initial = 64 << 10
        if input.count >= 18 {
            let end = input.count
            let hint = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
            if hint > 0 && hint <= budget { initial = hint + 1 }
        }
        // Several members: the last one's ISIZE says little. Untouched pages of an oversized
        // block cost nothing, and the block shrinks to fit at the end.
        initial = max(initial, input.count.multipliedReportingOverflow(by: 8).overflow ? Int.max : input.count * 8)
        var capacity = max(min(initial, budget + 1), 1)
        guard var output = malloc(capacity)?.assumingMemoryBound(to: UInt8.self) else {
            throw GzipError(kind: .tooLarge, message: "zlib ran out of memory while inflating")
        }
        var produced = 0
        var succeeded = false
        defer { if !succeeded { free(output) } }
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
        var members = 0
        func finish() -> OwnedBytes {
            succeeded = true
            let shrunk = realloc(output, max(produced, 1))?.assumingMemoryBound(to: UInt8.self) ?? output
            return OwnedBytes(takingMalloced: shrunk, count: produced)
        }
        while true {
            if produced == capacity {
                // Full: grow (by remapping, for large blocks), but never past one byte over the
                // budget, so the limit is detected before the memory is spent.
                if produced > budget { break }
                let grown = min(capacity * 2, budget + 1)
                guard let bigger = realloc(output, grown)?.assumingMemoryBound(to: UInt8.self) else {
                    throw GzipError(kind: .tooLarge, message: "zlib ran out of memory while inflating")
                }
                output = bigger
                capacity = grown
            }
            // At most 256 KiB per call, as before, so the limit check runs as often.
            let room = min(capacity - produced, 256 << 10)
            stream.next_out = output + produced
            stream.avail_out = uInt(room)
            let status = inflate(&stream, Z_NO_FLUSH)
            produced += room - Int(stream.avail_out)
            if produced > budget { break }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                members += 1
                if stream.avail_in == 0 { return finish() }
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
        let which = budget == limits.maxOutputBytes
            ? "the size limit of \(limits.maxOutputBytes) bytes"
            : "\(limits.maxRatio) times its compressed size (\(input.count) bytes)"
        throw GzipError(kind: .tooLarge, message: "gzip data inflates past \(which), expected a smaller trip file; refused before reading further")
    }
}
