import CZlib
import Testing
@testable import TripSync
import TripSyncFixtures

/// TripSync's own DEFLATE encoder: every stream it writes must inflate with zlib (an
/// independent decoder) to exactly its input, whatever the bytes, and compress trip files as
/// well as zlib's fastest level.
@Suite struct DeflateTests {
    /// The gzip member of `input` as the writer makes it, inflated again by zlib.
    func roundTrip(_ input: [UInt8], _ label: String) throws {
        let member = try input.withUnsafeBytes { try Gzip.compressMemberFast($0) }
        let compressed = Array(UnsafeBufferPointer(start: member.base, count: member.count))
        #expect(strictInflate(compressed) == input, "\(label): \(input.count) bytes in")
        // Never larger than the bound the output block was sized for.
        #expect(member.count - 18 <= Deflate.bound(input.count), "\(label)")
    }

    /// `gzip` inflated by zlib 100 bytes per call, so zlib keeps only its 32 KiB window and
    /// refuses a distance reaching further back (in one large buffer it would follow it); nil
    /// when zlib refuses the stream or its CRC-32 or length.
    func strictInflate(_ gzip: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard tripsync_inflateInit2(&stream, 15 + 16) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var room = [UInt8](repeating: 0, count: 100)
        return gzip.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = room.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += room[0..<(room.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                if status != Z_OK { return nil }
            }
        }
    }

    /// Random bytes from a seeded generator.
    func random(_ count: Int, _ generator: inout SeededGenerator, alphabet: UInt8 = 255) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...alphabet, using: &generator) }
    }

    /// Edge cases one by one: empty, tiny, runs (distance one, longest matches), incompressible
    /// bytes (stored blocks past 65,535 bytes), matches exactly at the window's edge and just
    /// past it, and inputs crossing the block limits by symbols and by bytes.
    @Test func edgeCasesInflateToTheirInput() throws {
        var generator = SeededGenerator(seed: 51)
        try roundTrip([], "empty")
        try roundTrip([42], "one byte")
        try roundTrip(bytes("abcd"), "four bytes")
        try roundTrip(bytes("abcabcabcabcabcabcabc"), "short repeats")
        try roundTrip([UInt8](repeating: 0, count: 100_000), "100,000 zeros")
        try roundTrip([UInt8](repeating: 7, count: 259) + [1] + [UInt8](repeating: 7, count: 517), "runs around 258")
        try roundTrip(random(200_000, &generator), "200,000 random bytes")
        // 100 bytes seen exactly 32,768 back (the farthest a match may reach), and seen
        // 32,769 back (too far: literals). Zeros in between, so few positions are hashed and
        // the early bytes stay in the match finder's table.
        let head = random(200, &generator)
        for distance in [32_768, 32_769] {
            let gap = [UInt8](repeating: 0, count: distance - head.count)
            try roundTrip(head + gap + Array(head[0..<100]), "a match \(distance) back")
        }
        // Four letters: many short matches, past 65,536 symbols per block.
        try roundTrip(random(400_000, &generator, alphabet: 3), "four letters")
        // Long matches: past 262,144 input bytes per block with few symbols.
        let phrase = random(1_000, &generator)
        try roundTrip(Array((0..<600).map { _ in phrase }.joined()), "600 copies of 1,000 bytes")
    }

    /// Seeded mixtures: random stretches, copies of earlier bytes from any distance (inside and
    /// outside the window), runs and text, in 300 inputs of up to 300,000 bytes.
    @Test func randomMixturesInflateToTheirInput() throws {
        var generator = SeededGenerator(seed: 1_952)
        for round in 0..<300 {
            var input: [UInt8] = []
            let target = Int.random(in: 0...(round % 10 == 0 ? 300_000 : 20_000), using: &generator)
            while input.count < target {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: input += random(Int.random(in: 1...300, using: &generator), &generator)
                case 1 where !input.isEmpty:
                    let distance = Int.random(in: 1...min(input.count, 40_000), using: &generator)
                    let length = Int.random(in: 1...600, using: &generator)
                    for _ in 0..<length { input.append(input[input.count - distance]) }
                case 2: input += [UInt8](repeating: UInt8.random(in: 0...255, using: &generator), count: Int.random(in: 1...400, using: &generator))
                default: input += bytes("{\"title\":\"Lunch\",\"rev\":{\"counter\":\(round),\"device\":\"d\"}},")
                }
            }
            try roundTrip(input, "mixture \(round)")
        }
    }

    /// Trip files compress at least as well as with zlib's fastest level (within 1%), and the
    /// same input always gives the same bytes.
    @Test func tripFilesCompressLikeZlibsFastestLevel() throws {
        var generator = TripGenerator(seed: 8)
        let document = generator.document(itemCount: 3_000)
        let ours = try document.gzipData()
        let zlib = try document.gzipData(.zlib(level: 1))
        #expect(Double(ours.count) <= Double(zlib.count) * 1.01, "\(ours.count) bytes, zlib -1 \(zlib.count)")
        #expect(try document.gzipData() == ours)
        let back = try TripFileReader().read(bytes: ours, file: "ours.trip.json.gz")
        #expect(back.wasGzip && back.document.canonicalJSON() == document.canonicalJSON())
    }

    /// Each compression gives ordinary gzip of the same bytes; a level zlib does not have is
    /// refused with a `FileSystemError`, not a crash or an empty file.
    @Test func everyCompressionIsOrdinaryGzipAndUnknownLevelsAreRefused() throws {
        let text = bytes(String(repeating: "{\"title\":\"Lunch at the market\"},", count: 500))
        for compression in [GzipCompression.fast, .zlib(level: 0), .zlib(level: 1), .zlib(level: 9)] {
            #expect(strictInflate(try compression.gzip(text)) == text, "\(compression)")
        }
        #expect(throws: FileSystemError.self) { try GzipCompression.zlib(level: 42).gzip(text) }
    }

    /// Every code is complete (Kraft sum exactly one), has at least two codes, no code longer
    /// than the limit, a code for every used symbol, never a longer code for a more frequent
    /// symbol, and no code a prefix of another; including frequencies (Fibonacci) whose plain
    /// Huffman code is far deeper than the limit.
    @Test func huffmanCodesAreCompleteAndWithinTheLimit() {
        var generator = SeededGenerator(seed: 3)
        var cases: [(frequencies: [UInt32], limit: Int)] = []
        var fibonacci: [UInt32] = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        cases.append((fibonacci, 15))
        cases.append((Array(fibonacci.prefix(19)), 7))
        cases.append(([UInt32](repeating: 0, count: 30), 15))
        cases.append(([0, 0, 5] + [UInt32](repeating: 0, count: 27), 15))
        cases.append(([9] + [UInt32](repeating: 0, count: 18), 7))
        cases.append(([UInt32](repeating: 1, count: 286), 15))
        for _ in 0..<300 {
            let count = [19, 30, 286].randomElement(using: &generator) ?? 30
            let limit = count == 19 ? 7 : 15
            let zeros = Double.random(in: 0...0.9, using: &generator)
            let frequencies: [UInt32] = (0..<count).map { _ in
                if Double.random(in: 0..<1, using: &generator) < zeros { return 0 }
                // Spread over many orders of magnitude, so deep trees are common.
                return UInt32(1) << UInt32.random(in: 0...24, using: &generator) | UInt32.random(in: 0...3, using: &generator)
            }
            cases.append((frequencies, limit))
        }
        for (frequencies, limit) in cases {
            let code = frequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: limit) }
            let lengths = code.lengths.map(Int.init)
            #expect(lengths.allSatisfy { $0 <= limit }, "\(frequencies) limit \(limit): \(lengths)")
            #expect(lengths.filter { $0 > 0 }.count >= 2)
            #expect(lengths.reduce(0) { $0 + ($1 > 0 ? 1 << (limit - $1) : 0) } == 1 << limit, "\(frequencies): not complete")
            for symbol in frequencies.indices where frequencies[symbol] > 0 { #expect(lengths[symbol] > 0) }
            for a in frequencies.indices where frequencies[a] > 0 {
                for b in frequencies.indices where frequencies[b] > frequencies[a] {
                    #expect(lengths[b] <= lengths[a], "symbol \(b) is more frequent than \(a) but has a longer code")
                }
            }
            // Prefix-free: the (bit-reversed) codes never start another code.
            let used = lengths.indices.filter { lengths[$0] > 0 }
            for a in used {
                for b in used where a != b && lengths[a] <= lengths[b] {
                    let mask = UInt16((1 << lengths[a]) - 1)
                    #expect(code.codes[b] & mask != code.codes[a], "code \(a) is a prefix of code \(b)")
                }
            }
        }
    }
}
