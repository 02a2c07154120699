import TripSyncPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Limits on what inflating a gzip file may produce, checked before memory is spent.
package struct InflateLimits: Hashable, Sendable {
    /// The most bytes the decompressed data may have (default 256 MiB).
    package var maxOutputBytes: Int
    /// The largest ratio of output to input bytes allowed beyond `ratioFreeBytes` (default 200).
    package var maxRatio: Int
    /// Output up to this size is allowed whatever the ratio (default 1 MiB).
    package var ratioFreeBytes: Int

    /// Creates limits.
    package init(maxOutputBytes: Int = 256 << 20, maxRatio: Int = 200, ratioFreeBytes: Int = 1 << 20) {
        self.maxOutputBytes = maxOutputBytes
        self.maxRatio = maxRatio
        self.ratioFreeBytes = ratioFreeBytes
    }

    /// The default limits.
    package static let standard = InflateLimits()

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

/// Gzip files: written and read by libdeflate (`Libdeflate.swift`), one whole member per call;
/// `GzipCompression.zlib(level:)` writes through zlib (`Zlib.swift`).
package enum Gzip {
    /// The libdeflate level of `GzipCompression.fast`. Measured on the 6.55 MB JSON of a
    /// 10,000-item merge (one thread, 8 members): level 1 25.7 ms → 886 KB, level 2 43.4 ms →
    /// 869 KB, level 6 70.1 ms → 776 KB (docs/PERFORMANCE.md, "Gzip: libdeflate").
    static let fastLevel: Int32 = 1

    /// Whether the bytes start with the gzip magic number.
    static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Compresses `input` to one gzip member as `compression` says.
    static func compressMember(_ input: UnsafeRawBufferPointer, _ compression: GzipCompression) throws(GzipError) -> OwnedBytes {
        let member: OwnedBytes?
        switch compression {
        case .fast: member = Libdeflate.gzipMember(input, level: fastLevel)
        case .zlib(let level):
            guard (0...9).contains(level) else {
                throw GzipError(kind: .corruptGzip, message: "zlib has no compression level \(level), expected 0...9")
            }
            member = Zlib.gzipMember(input, level: level)
        }
        guard let member else { throw GzipError(kind: .tooLarge, message: "could not compress \(input.count) bytes (out of memory)") }
        return member
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

    /// Inflates every gzip member in `input`, checking CRC32 and length (libdeflate does both)
    /// and stopping with an error before the output passes the limits.
    package static func decompress(_ input: UnsafeRawBufferPointer, limits: InflateLimits) throws -> [UInt8] {
        try decompressOwned(input, limits: limits).toArray()
    }

    /// `decompress`, straight into one malloc'd block, member by member.
    ///
    /// libdeflate inflates a whole member into the room it is given and refuses one that needs
    /// more, so the limits hold by the room: it never exceeds the budget plus one byte, and
    /// a member that needs more room gets a block twice as large (up to that) and is inflated
    /// again. No byte is written past the budget.
    static func decompressOwned(_ input: UnsafeRawBufferPointer, limits: InflateLimits) throws(GzipError) -> OwnedBytes {
        guard input.count > 0 else {
            throw GzipError(kind: .corruptGzip, message: "empty gzip data, expected a gzip member")
        }
        let budget = limits.budget(forInput: input.count)
        // ISIZE of the last member is a hint for the first block (trusted only within the
        // budget); files of several members inflate to about 7.4 times their size. Untouched
        // pages of an oversized block cost nothing, and the block shrinks to fit at the end.
        var initial = 64 << 10
        if input.count >= 18 {
            let end = input.count
            let hint = Int(input[end - 4]) | Int(input[end - 3]) << 8 | Int(input[end - 2]) << 16 | Int(input[end - 1]) << 24
            if hint > 0 && hint <= budget { initial = hint + 1 }
        }
        initial = max(initial, input.count.multipliedReportingOverflow(by: 10).overflow ? Int.max : input.count * 10)
        var capacity = max(min(initial, budget + 1), 1)
        guard var output = malloc(capacity)?.assumingMemoryBound(to: UInt8.self) else {
            throw GzipError(kind: .tooLarge, message: "out of memory while inflating")
        }
        var succeeded = false
        defer { if !succeeded { free(output) } }
        guard let inflater = Libdeflate.Inflater() else {
            throw GzipError(kind: .tooLarge, message: "out of memory while inflating")
        }
        var offset = 0
        var produced = 0
        var members = 0
        members: while true {
            let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
            switch inflater.gzipMember(rest, into: output + produced, room: capacity - produced) {
            case .inflated(let consumed, let count):
                members += 1
                offset += consumed
                produced += count
                if produced > budget { break members }
                if offset == input.count {
                    succeeded = true
                    let shrunk = realloc(output, max(produced, 1))?.assumingMemoryBound(to: UInt8.self) ?? output
                    return OwnedBytes(takingMalloced: shrunk, count: produced)
                }
                // Concatenated members: another one must follow.
                guard input.count - offset >= 2 && input[offset] == 0x1F && input[offset + 1] == 0x8B else {
                    throw GzipError(kind: .corruptGzip, message: "\(input.count - offset) stray bytes after gzip member \(members), expected another gzip member or the end of the file")
                }
            case .needsMoreRoom:
                // The room already reaches one byte past the budget: this member passes it.
                if capacity > budget { break members }
                let doubled = capacity.multipliedReportingOverflow(by: 2)
                let grown = min(doubled.overflow ? Int.max : doubled.partialValue, budget + 1)
                guard let bigger = realloc(output, grown)?.assumingMemoryBound(to: UInt8.self) else {
                    throw GzipError(kind: .tooLarge, message: "out of memory while inflating")
                }
                output = bigger
                capacity = grown
            case .corrupt:
                let message = failure(of: rest, inflater: inflater, scratch: output + produced, room: capacity - produced)
                throw GzipError(kind: .corruptGzip, message: message)
            }
        }
        let which = budget == limits.maxOutputBytes
            ? "the size limit of \(limits.maxOutputBytes) bytes"
            : "\(limits.maxRatio) times its compressed size (\(input.count) bytes)"
        throw GzipError(kind: .tooLarge, message: "gzip data inflates past \(which), expected a smaller trip file; refused before reading further")
    }

    /// Why libdeflate refused the gzip member at the start of `member` (it reports only "bad
    /// data"): the header is read (RFC 1952), the DEFLATE stream inflated alone into `scratch`,
    /// then the trailer's CRC-32 and length compared. Runs only on refused input.
    static func failure(
        of member: UnsafeRawBufferPointer, inflater: borrowing Libdeflate.Inflater, scratch: UnsafeMutablePointer<UInt8>, room: Int
    ) -> String {
        let truncated = "gzip data is truncated, expected the rest of the compressed stream and its CRC32/length trailer"
        guard member.count >= 10 else { return truncated }
        guard member[2] == 8 else { return "gzip member uses compression method \(member[2]), expected 8 (deflate)" }
        let flags = member[3]
        guard flags & 0xE0 == 0 else { return "gzip header has reserved flags set (0x\(String(flags, radix: 16))), expected none" }
        var position = 10
        if flags & 0x04 != 0 {
            // FEXTRA: a two-byte length, then that many bytes.
            guard position + 2 <= member.count else { return truncated }
            position += 2 + (Int(member[position]) | Int(member[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            // FNAME, FCOMMENT: zero-terminated.
            while position < member.count && member[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }
        guard position < member.count else { return truncated }
        let stream = UnsafeRawBufferPointer(rebasing: member[position...])
        guard case .inflated(let consumed, let produced) = inflater.deflateStream(stream, into: scratch, room: room) else {
            return "gzip data is truncated or corrupt (its DEFLATE stream does not decode), expected a complete, valid gzip stream"
        }
        let trailer = position + consumed
        guard trailer + 8 <= member.count else { return truncated }
        func word(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(member[at + $1]) << (8 * UInt32($1)) } }
        if word(trailer) != Libdeflate.crc32(UnsafeRawBufferPointer(start: scratch, count: produced)) {
            return "gzip data is corrupt (incorrect data check), expected a valid gzip stream"
        }
        if word(trailer + 4) != UInt32(truncatingIfNeeded: produced) {
            return "gzip data is corrupt (incorrect length check), expected a valid gzip stream"
        }
        return "gzip data is corrupt, expected a valid gzip stream"
    }
}
