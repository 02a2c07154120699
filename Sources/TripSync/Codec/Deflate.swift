#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// TripSync's own DEFLATE encoder (RFC 1951), for the gzip files it writes.
///
/// zlib's fastest level spent about a quarter of a 10,000-item merge compressing the output
/// (34 ms of CPU for 6.5 MB of JSON, 190 MB/s, measured). This encoder does what that level
/// does with less work per byte: one hash probe per position (four bytes hashed, the newest
/// earlier position kept), matches extended eight bytes at a time, no hashing inside a match,
/// then dynamic Huffman blocks (a stored block when that is smaller). Only writing uses it:
/// every file is still read by zlib, and every stream this writes is checked against zlib's
/// inflate by the tests and the fuzzer.
enum Deflate {
    /// The longest distance back (the window of RFC 1951).
    static let window = 32_768
    /// The shortest match taken (the hash covers four bytes).
    static let minimumMatch = 4
    /// The longest match DEFLATE can express.
    static let maximumMatch = 258
    /// Bits of the hash table's index (32,768 entries, 128 KiB).
    static let hashBits = 15
    /// A block ends after this many symbols...
    static let blockSymbols = 1 << 16
    /// ...or this many input bytes, whichever comes first.
    static let blockBytes = 1 << 18

    /// Base length of each length code 257...285, and its extra bits.
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// Base distance of each distance code 0...29, and its extra bits.
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// Length 0...258 → its length code 0...28 (259 entries), then distance − 1 → its distance
    /// code (below 256 at that index, above at 256 + (distance − 1) >> 7; 512 entries). Built
    /// once: every `compress` call copies it, which costs far less than building it (a small
    /// file is compressed in fewer steps than the 32,768 distances take).
    static let codeTables: [UInt8] = {
        var tables = [UInt8](repeating: 0, count: 259 + 512)
        for code in 0..<29 {
            let base = Int(lengthBase[code])
            let span = code == 28 ? 1 : 1 << Int(lengthExtra[code])
            for length in base..<min(base + span, 259) { tables[length] = UInt8(code) }
        }
        for code in 0..<30 {
            let base = Int(distanceBase[code])
            for distance in base..<(base + (1 << Int(distanceExtra[code]))) {
                let d = distance - 1
                tables[259 + (d < 256 ? d : 256 + (d >> 7))] = UInt8(code)
            }
        }
        return tables
    }()

    /// The order code-length code lengths are sent in.
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The most bytes `compress` writes for `count` input bytes: every block is at most its
    /// stored size, five bytes per 65,535 input bytes and one per block more than its input;
    /// and 128 more, of which the bit writer's eight-byte stores use up to seven past the end.
    static func bound(_ count: Int) -> Int {
        count + count / 2048 + 128
    }

    /// The largest input `compress` takes (positions are kept in 32 bits).
    static let largestInput = Int(UInt32.max) - window

    /// `input` as a raw DEFLATE stream, after `prefix` and before `suffix` bytes left for the
    /// caller's framing (a gzip header and trailer), uninitialised; nil when memory ran out or
    /// the input is larger than `largestInput`.
    static func compress(_ input: UnsafeRawBufferPointer, prefix: Int = 0, suffix: Int = 0) -> OwnedBytes? {
        let count = input.count
        guard count < largestInput,
            let output = malloc(prefix + bound(count) + suffix)?.assumingMemoryBound(to: UInt8.self)
        else { return nil }
        guard var encoder = DeflateEncoder(input: input.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count, output: output) else {
            free(output)
            return nil
        }
        encoder.outCount = prefix
        encoder.run()
        let produced = encoder.outCount + suffix
        encoder.release()
        let shrunk = realloc(output, max(produced, 1))?.assumingMemoryBound(to: UInt8.self) ?? output
        return OwnedBytes(takingMalloced: shrunk, count: produced)
    }
}

/// The state of one `Deflate.compress` call: the match finder's table, the current block's
/// symbols and frequencies, and the bit writer.
private struct DeflateEncoder {
    let input: UnsafePointer<UInt8>?
    let count: Int
    let output: UnsafeMutablePointer<UInt8>
    var outCount = 0
    var bitBuffer: UInt64 = 0
    var bitCount = 0
    /// Hash of four bytes → the newest position holding them (0 until set: a candidate is
    /// always checked against the bytes, so a stale or empty entry only costs a compare).
    let table: UnsafeMutablePointer<UInt32>
    /// The block's symbols: a literal byte, or `1 << 31 | length code << 23 | length extra << 18
    /// | distance code << 13 | distance extra`.
    let symbols: UnsafeMutablePointer<UInt32>
    var symbolCount = 0
    /// Literal/length frequencies (286) then distance frequencies (30).
    let frequencies: UnsafeMutablePointer<UInt32>
    /// Length 0...258 → its length code 0...28; distance − 1 → its code (below 256 directly,
    /// above by (distance − 1) >> 7 at 256 + that).
    let lengthCode: UnsafeMutablePointer<UInt8>
    let distanceCode: UnsafeMutablePointer<UInt8>

    init?(input: UnsafePointer<UInt8>?, count: Int, output: UnsafeMutablePointer<UInt8>) {
        guard let table = calloc(1 << Deflate.hashBits, 4)?.assumingMemoryBound(to: UInt32.self) else { return nil }
        guard let symbols = malloc(Deflate.blockSymbols * 4)?.assumingMemoryBound(to: UInt32.self),
            let frequencies = malloc(316 * 4)?.assumingMemoryBound(to: UInt32.self),
            let codes = malloc(Deflate.codeTables.count)?.assumingMemoryBound(to: UInt8.self)
        else {
            free(table)
            return nil
        }
        self.input = input
        self.count = count
        self.output = output
        self.table = table
        self.symbols = symbols
        self.frequencies = frequencies
        lengthCode = codes
        distanceCode = codes + 259
        Deflate.codeTables.withUnsafeBufferPointer { tables in
            if let base = tables.baseAddress { codes.update(from: base, count: tables.count) }
        }
    }

    /// Frees the working memory (not the output).
    func release() {
        free(table)
        free(symbols)
        free(frequencies)
        free(lengthCode)
    }

    @inline(__always) func load32(_ p: UnsafePointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p + at).loadUnaligned(as: UInt32.self))
    }

    @inline(__always) func load64(_ p: UnsafePointer<UInt8>, _ at: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + at).loadUnaligned(as: UInt64.self))
    }

    /// Parses the input into blocks and writes each.
    mutating func run() {
        guard let input, count > 0 else {
            writeStored(from: 0, to: 0, final: true)
            flushBits()
            return
        }
        let shift = UInt32(32 - Deflate.hashBits)
        let lastHashed = count - Deflate.minimumMatch
        var position = 0
        while position < count {
            let blockStart = position
            let blockEnd = min(count, position + Deflate.blockBytes)
            symbolCount = 0
            frequencies.initialize(repeating: 0, count: 316)
            let symbolLimit = Deflate.blockSymbols
            while position < blockEnd && symbolCount < symbolLimit {
                if position <= lastHashed {
                    let word = load32(input, position)
                    let slot = Int(truncatingIfNeeded: (word &* 0x9E37_79B1) >> shift)
                    let candidate = Int(table[slot])
                    table[slot] = UInt32(truncatingIfNeeded: position)
                    let distance = position - candidate
                    if distance > 0 && distance <= Deflate.window && load32(input, candidate) == word {
                        let longest = min(Deflate.maximumMatch, count - position)
                        var length = Deflate.minimumMatch
                        var differs = false
                        while length + 8 <= longest {
                            let x = load64(input, candidate + length) ^ load64(input, position + length)
                            if x != 0 {
                                length += x.trailingZeroBitCount >> 3
                                differs = true
                                break
                            }
                            length += 8
                        }
                        if !differs {
                            while length < longest && input[candidate + length] == input[position + length] { length += 1 }
                        }
                        recordMatch(length: length, distance: distance)
                        position += length
                        continue
                    }
                }
                let byte = input[position]
                symbols[symbolCount] = UInt32(byte)
                symbolCount += 1
                frequencies[Int(byte)] += 1
                position += 1
            }
            writeBlock(from: blockStart, to: position, final: position == count)
        }
        flushBits()
    }

    @inline(__always) mutating func recordMatch(length: Int, distance: Int) {
        let lcode = Int(lengthCode[length])
        let lextra = length - Int(Deflate.lengthBase[lcode])
        let d = distance - 1
        let dcode = Int(d < 256 ? distanceCode[d] : distanceCode[256 + (d >> 7)])
        let dextra = distance - Int(Deflate.distanceBase[dcode])
        symbols[symbolCount] = 1 << 31 | UInt32(lcode << 23 | lextra << 18 | dcode << 13 | dextra)
        symbolCount += 1
        frequencies[257 + lcode] += 1
        frequencies[286 + dcode] += 1
    }

    // MARK: Blocks

    /// Writes the block of the current symbols (input bytes `start..<end`): dynamic Huffman,
    /// or stored when that is no larger.
    mutating func writeBlock(from start: Int, to end: Int, final: Bool) {
        frequencies[256] = 1  // end of block
        let literals = HuffmanCode(frequencies: UnsafeBufferPointer(start: frequencies, count: 286), maxLength: 15)
        let distances = HuffmanCode(frequencies: UnsafeBufferPointer(start: frequencies + 286, count: 30), maxLength: 15)
        var literalCount = 286
        while literalCount > 257 && literals.lengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1 && distances.lengths[distanceCount - 1] == 0 { distanceCount -= 1 }

        // The code lengths, run-length coded (RFC 1951, 3.2.7): symbol | extra value << 8.
        let all = Array(literals.lengths[0..<literalCount]) + Array(distances.lengths[0..<distanceCount])
        var runs: [UInt16] = []
        var runFrequencies = [UInt32](repeating: 0, count: 19)
        func emit(_ symbol: Int, _ extra: Int = 0) {
            runs.append(UInt16(symbol | extra << 8))
            runFrequencies[symbol] += 1
        }
        var i = 0
        while i < all.count {
            let length = all[i]
            var run = 1
            while i + run < all.count && all[i + run] == length { run += 1 }
            var left = run
            if length == 0 {
                while left >= 11 {
                    let taken = min(left, 138)
                    emit(18, taken - 11)
                    left -= taken
                }
                if left >= 3 {
                    emit(17, left - 3)
                    left = 0
                }
            } else {
                emit(Int(length))
                left -= 1
                while left >= 3 {
                    let taken = min(left, 6)
                    emit(16, taken - 3)
                    left -= taken
                }
            }
            while left > 0 {
                emit(Int(length))
                left -= 1
            }
            i += run
        }
        let lengthsCode = runFrequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 7) }
        var codeLengthCount = 19
        while codeLengthCount > 4 && lengthsCode.lengths[Deflate.codeLengthOrder[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }

        // Sizes in bits, to choose between dynamic and stored.
        let runExtra: [Int] = [2, 3, 7]
        var dynamicBits = 3 + 5 + 5 + 4 + 3 * codeLengthCount
        for symbol in 0..<19 {
            let extra = symbol >= 16 ? runExtra[symbol - 16] : 0
            dynamicBits += Int(runFrequencies[symbol]) * (Int(lengthsCode.lengths[symbol]) + extra)
        }
        for symbol in 0..<286 { dynamicBits += Int(frequencies[symbol]) * Int(literals.lengths[symbol]) }
        for code in 0..<29 { dynamicBits += Int(frequencies[257 + code]) * Int(Deflate.lengthExtra[code]) }
        for code in 0..<30 {
            dynamicBits += Int(frequencies[286 + code]) * (Int(distances.lengths[code]) + Int(Deflate.distanceExtra[code]))
        }
        let chunks = max(1, (end - start + 65_534) / 65_535)
        let storedBits = chunks * (3 + 7 + 32) + 8 * (end - start)
        if dynamicBits > storedBits {
            writeStored(from: start, to: end, final: final)
            return
        }

        put(final ? 1 : 0, 1)
        put(2, 2)
        put(UInt64(literalCount - 257), 5)
        put(UInt64(distanceCount - 1), 5)
        put(UInt64(codeLengthCount - 4), 4)
        for k in 0..<codeLengthCount { put(UInt64(lengthsCode.lengths[Deflate.codeLengthOrder[k]]), 3) }
        for run in runs {
            let symbol = Int(run & 0xFF)
            put(UInt64(lengthsCode.codes[symbol]), Int(lengthsCode.lengths[symbol]))
            if symbol >= 16 { put(UInt64(run >> 8), runExtra[symbol - 16]) }
        }
        writeSymbols(literals, distances)
    }

    /// The block's symbols in the block's codes, then the end of block.
    mutating func writeSymbols(_ literals: HuffmanCode, _ distances: HuffmanCode) {
        // Code and length side by side (code | length << 16), for one load per symbol.
        var literalTable = [UInt32](repeating: 0, count: 286)
        for s in 0..<286 { literalTable[s] = UInt32(literals.codes[s]) | UInt32(literals.lengths[s]) << 16 }
        var distanceTable = [UInt32](repeating: 0, count: 30)
        for s in 0..<30 { distanceTable[s] = UInt32(distances.codes[s]) | UInt32(distances.lengths[s]) << 16 }
        var extras = [UInt8](repeating: 0, count: 64)
        for code in 0..<29 { extras[code] = Deflate.lengthExtra[code] }
        for code in 0..<30 { extras[32 + code] = Deflate.distanceExtra[code] }
        literalTable.withUnsafeBufferPointer { lit in
            distanceTable.withUnsafeBufferPointer { dist in
                extras.withUnsafeBufferPointer { extra in
                    // Whole bytes out after every symbol, so at most 7 bits wait: a match's 48
                    // bits at most still fit the 64-bit buffer, and no branch decides when.
                    flushWholeBytes()
                    for k in 0..<symbolCount {
                        let symbol = symbols[k]
                        if symbol < 256 {
                            let entry = lit[Int(symbol)]
                            add(UInt64(entry & 0xFFFF), Int(entry >> 16))
                        } else {
                            let lcode = Int(symbol >> 23 & 0x1F)
                            let lentry = lit[257 + lcode]
                            let lbits = Int(lentry >> 16)
                            add(UInt64(lentry & 0xFFFF) | UInt64(symbol >> 18 & 0x1F) << lbits, lbits + Int(extra[lcode]))
                            let dcode = Int(symbol >> 13 & 0x1F)
                            let dentry = dist[dcode]
                            let dbits = Int(dentry >> 16)
                            add(UInt64(dentry & 0xFFFF) | UInt64(symbol & 0x1FFF) << dbits, dbits + Int(extra[32 + dcode]))
                        }
                        flushWholeBytes()
                    }
                    let end = lit[256]
                    put(UInt64(end & 0xFFFF), Int(end >> 16))
                }
            }
        }
    }

    /// Input bytes `start..<end` as stored blocks of at most 65,535 bytes.
    mutating func writeStored(from start: Int, to end: Int, final: Bool) {
        var position = start
        repeat {
            let length = min(65_535, end - position)
            put(final && position + length == end ? 1 : 0, 1)
            put(0, 2)
            flushBits()
            let header = UInt32(length) | UInt32(~UInt16(length)) << 16
            UnsafeMutableRawPointer(output + outCount).storeBytes(of: header.littleEndian, as: UInt32.self)
            outCount += 4
            if length > 0, let input { (output + outCount).update(from: input + position, count: length) }
            outCount += length
            position += length
        } while position < end
    }

    // MARK: Bits

    /// Adds the low `bits` bits of `value` (at most 32); whole 32-bit words go out at once.
    @inline(__always) mutating func put(_ value: UInt64, _ bits: Int) {
        bitBuffer |= value &<< UInt64(bitCount)
        bitCount += bits
        if bitCount >= 32 {
            UnsafeMutableRawPointer(output + outCount).storeBytes(of: UInt32(truncatingIfNeeded: bitBuffer).littleEndian, as: UInt32.self)
            outCount += 4
            bitBuffer >>= 32
            bitCount -= 32
        }
    }

    /// Adds the low `bits` bits of `value` with no check: the caller keeps the buffer's bits
    /// within 64 and calls `flushWholeBytes`.
    @inline(__always) mutating func add(_ value: UInt64, _ bits: Int) {
        bitBuffer |= value &<< UInt64(bitCount)
        bitCount += bits
    }

    /// Writes the buffer's whole bytes (eight bytes are stored, the output has room past its
    /// end: `Deflate.bound`), leaving at most 7 bits.
    @inline(__always) mutating func flushWholeBytes() {
        UnsafeMutableRawPointer(output + outCount).storeBytes(of: bitBuffer.littleEndian, as: UInt64.self)
        let bytes = bitCount >> 3
        outCount += bytes
        bitBuffer = bitBuffer &>> UInt64(bytes << 3)
        bitCount &= 7
    }

    /// Writes the bits still buffered, padding the last byte with zeros.
    mutating func flushBits() {
        while bitCount > 0 {
            output[outCount] = UInt8(truncatingIfNeeded: bitBuffer)
            outCount += 1
            bitBuffer >>= 8
            bitCount -= 8
        }
        bitBuffer = 0
        bitCount = 0
    }
}
