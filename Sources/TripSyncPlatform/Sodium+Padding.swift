import CSodium

/// Padding to a size bucket (`sodium_pad` / `sodium_unpad`, ISO/IEC 7816-4: a 0x80 byte then
/// zeros), so a sealed file's size tells the folder's host only its bucket.
extension Sodium {
    /// The bucket's block for a message of `count` bytes: an eighth of the greatest power of
    /// two not above it, at least 256 bytes. A padded message is at most an eighth (and 256
    /// bytes) longer than it was, and its size tells the host about `log2(count)` and three bits.
    package static func paddingBlock(for count: Int) -> Int {
        guard count >= 2048 else { return 256 }
        let bits = Int.bitWidth - count.leadingZeroBitCount - 1
        return 1 << (bits - 3)
    }

    /// `bytes` padded to the next multiple of its bucket's block (always at least one byte of
    /// padding), the bytes appended in place.
    package static func pad(_ bytes: inout [UInt8]) {
        start()
        let block = paddingBlock(for: bytes.count)
        let unpadded = bytes.count
        let padded = (unpadded / block + 1) * block
        bytes.append(contentsOf: repeatElement(0, count: padded - unpadded))
        var length = 0
        let result = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return sodium_pad(&length, base, unpadded, block, padded)
        }
        precondition(result == 0 && length == padded, "sodium_pad had room for its block")
    }

    /// The length of `bytes` before `pad`, or nil when they do not end in padding. The padding
    /// is looked for in the last `paddingBlock(for: bytes.count)` bytes (all of them when fewer):
    /// `pad` never adds more than the block of the unpadded length, which is at most the block
    /// of the padded one. `sodium_unpad` reads its whole window in constant time, so a window of
    /// the whole buffer would cost a pass over every byte.
    package static func unpaddedCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        start()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var length = 0
        let window = min(bytes.count, paddingBlock(for: bytes.count))
        let result = sodium_unpad(&length, base.assumingMemoryBound(to: UInt8.self), bytes.count, window)
        return result == 0 ? length : nil
    }
}
