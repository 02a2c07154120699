/// Length-limited canonical Huffman codes for the DEFLATE encoder (RFC 1951, 3.2.2).
///
/// Every code built here is complete (its Kraft sum is exactly one) and has at least two
/// codes, whatever the frequencies: zlib's inflate refuses an incomplete code-length code and
/// an incomplete literal/length code, so the encoder never relies on the exceptions the RFC
/// allows for a single distance code.
struct HuffmanCode {
    /// The code length of each symbol (0: unused).
    var lengths: [UInt8]
    /// Each symbol's code, bit-reversed, ready for an LSB-first bit writer.
    var codes: [UInt16]

    /// The code for `frequencies`, no code longer than `maxLength` bits.
    init(frequencies: UnsafeBufferPointer<UInt32>, maxLength: Int) {
        lengths = Self.lengths(frequencies: frequencies, maxLength: maxLength)
        codes = Self.canonicalCodes(lengths: lengths, maxLength: maxLength)
    }

    /// Code lengths: a Huffman tree over the used symbols, then lengths past `maxLength` folded
    /// back by moving leaves up and others down until the Kraft sum is one again (as miniz
    /// does); the least frequent symbols get the longest codes.
    static func lengths(frequencies: UnsafeBufferPointer<UInt32>, maxLength: Int) -> [UInt8] {
        let count = frequencies.count
        var lengths = [UInt8](repeating: 0, count: count)
        // Used symbols, least frequent first; ties by symbol, so the code is deterministic.
        var leaves: [UInt64] = []
        leaves.reserveCapacity(count)
        for symbol in 0..<count where frequencies[symbol] > 0 {
            leaves.append(UInt64(frequencies[symbol]) << 16 | UInt64(symbol))
        }
        // Fewer than two used symbols: a complete two-code tree anyway.
        if leaves.count < 2 {
            let used = leaves.first.map { Int($0 & 0xFFFF) } ?? 0
            lengths[used] = 1
            lengths[used == 0 ? 1 : 0] = 1
            return lengths
        }
        leaves.sort()
        // Two-queue Huffman: leaves in order, internal nodes made in order of weight.
        let n = leaves.count
        var weights = [UInt64](repeating: 0, count: 2 * n)
        var parent = [Int](repeating: 0, count: 2 * n)
        for i in 0..<n { weights[i] = leaves[i] >> 16 }
        var nextLeaf = 0
        var nextNode = n
        var made = n
        func smallest() -> Int {
            if nextLeaf < n && (nextNode >= made || weights[nextLeaf] <= weights[nextNode]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextNode += 1
            return nextNode - 1
        }
        while made < 2 * n - 1 {
            let a = smallest()
            let b = smallest()
            weights[made] = weights[a] + weights[b]
            parent[a] = made
            parent[b] = made
            made += 1
        }
        // Depths: the root is the last node made; a parent always comes after its children.
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        var perLength = [Int](repeating: 0, count: max(n, maxLength) + 1)
        for node in stride(from: 2 * n - 3, through: 0, by: -1) {
            depth[node] = depth[parent[node]] + 1
            if node < n { perLength[depth[node]] += 1 }
        }
        // Fold lengths past the limit back (each step keeps the code complete).
        if perLength.count > maxLength + 1 {
            for length in (maxLength + 1)..<perLength.count {
                perLength[maxLength] += perLength[length]
                perLength[length] = 0
            }
            var total = 0
            for length in 1...maxLength { total += perLength[length] << (maxLength - length) }
            while total > 1 << maxLength {
                perLength[maxLength] -= 1
                for length in stride(from: maxLength - 1, through: 1, by: -1) where perLength[length] > 0 {
                    perLength[length] -= 1
                    perLength[length + 1] += 2
                    break
                }
                total -= 1
            }
        }
        // The longest codes to the least frequent symbols.
        var leaf = 0
        for length in stride(from: min(maxLength, perLength.count - 1), through: 1, by: -1) {
            for _ in 0..<perLength[length] {
                lengths[Int(leaves[leaf] & 0xFFFF)] = UInt8(length)
                leaf += 1
            }
        }
        return lengths
    }

    /// Canonical codes for `lengths` (RFC 1951, 3.2.2), each bit-reversed.
    static func canonicalCodes(lengths: [UInt8], maxLength: Int) -> [UInt16] {
        var perLength = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { perLength[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        for length in 1...maxLength {
            code = (code + perLength[length - 1]) << 1
            next[length] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for symbol in lengths.indices where lengths[symbol] > 0 {
            let length = Int(lengths[symbol])
            codes[symbol] = reversed(next[length], bits: length)
            next[length] += 1
        }
        return codes
    }

    /// The low `bits` bits of `code` in reverse order.
    static func reversed(_ code: Int, bits: Int) -> UInt16 {
        var value = code
        var result = 0
        for _ in 0..<bits {
            result = result << 1 | value & 1
            value >>= 1
        }
        return UInt16(result)
    }
}
