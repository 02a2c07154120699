import CDeflate
import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// All libdeflate calls of the package: whole gzip members, compressed and inflated in one call.
enum Libdeflate {
    /// `input` as one gzip member at `level` (0 stored ... 12 smallest); nil when libdeflate
    /// refuses the level or memory runs out.
    static func gzipMember(_ input: UnsafeRawBufferPointer, level: Int32) -> OwnedBytes? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, input.count)
        guard let output = malloc(bound)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        // libdeflate reads nothing of an empty input, but wants an address.
        var empty: UInt8 = 0
        let produced = withUnsafePointer(to: &empty) { placeholder in
            libdeflate_gzip_compress(compressor, input.baseAddress ?? UnsafeRawPointer(placeholder), input.count, output, bound)
        }
        guard produced > 0 else {
            free(output)
            return nil
        }
        let shrunk = realloc(output, produced)?.assumingMemoryBound(to: UInt8.self) ?? output
        return OwnedBytes(takingMalloced: shrunk, count: produced)
    }

    /// What inflating one gzip member gave.
    enum MemberResult {
        /// The member was whole and its CRC-32 and length matched: `consumed` bytes of input
        /// gave `produced` bytes of output.
        case inflated(consumed: Int, produced: Int)
        /// The member inflates to more than the room given (nothing usable was written).
        case needsMoreRoom
        /// The member is corrupt or cut short (libdeflate does not say which).
        case corrupt
    }

    /// A libdeflate decompressor, freed with the value.
    struct Inflater: ~Copyable {
        private let decompressor: OpaquePointer

        /// A new decompressor; nil when memory runs out.
        init?() {
            guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
            self.decompressor = decompressor
        }

        deinit { libdeflate_free_decompressor(decompressor) }

        /// Inflates the gzip member at the start of `input` into at most `room` bytes at
        /// `output`, checking its CRC-32 and length.
        func gzipMember(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, room: Int) -> MemberResult {
            guard let base = input.baseAddress else { return .corrupt }
            var consumed = 0
            var produced = 0
            let status = libdeflate_gzip_decompress_ex(decompressor, base, input.count, output, room, &consumed, &produced)
            return Self.result(status, consumed, produced)
        }

        /// Inflates the raw DEFLATE stream at the start of `input` (what a gzip member holds
        /// between its header and trailer), to tell why a member was refused.
        func deflateStream(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, room: Int) -> MemberResult {
            guard let base = input.baseAddress else { return .corrupt }
            var consumed = 0
            var produced = 0
            let status = libdeflate_deflate_decompress_ex(decompressor, base, input.count, output, room, &consumed, &produced)
            return Self.result(status, consumed, produced)
        }

        private static func result(_ status: libdeflate_result, _ consumed: Int, _ produced: Int) -> MemberResult {
            switch status {
            case LIBDEFLATE_SUCCESS: return .inflated(consumed: consumed, produced: produced)
            case LIBDEFLATE_INSUFFICIENT_SPACE: return .needsMoreRoom
            default: return .corrupt
            }
        }
    }

    /// The CRC-32 of `bytes` (the one gzip's trailer holds).
    static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return libdeflate_crc32(0, base, bytes.count)
    }
}
