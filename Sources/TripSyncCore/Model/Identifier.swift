/// A UUID in lowercase canonical form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), stored as 128 bits.
///
/// Trip, device and item ids are all identifiers. The order of identifiers is the byte order of
/// their canonical text, so sorting by `<` sorts exactly as the canonical JSON writer does.
public struct Identifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The high 64 bits (the first 16 hex digits).
    package let high: UInt64
    /// The low 64 bits (the last 16 hex digits).
    package let low: UInt64

    /// Creates an identifier from its two halves.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a lowercase canonical UUID; returns nil for any other text (uppercase, braces, no hyphens).
    public init?(_ text: String) {
        var text = text
        let parsed: Identifier? = text.withUTF8 { Identifier(utf8: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses exactly 36 bytes of lowercase canonical UUID text.
    ///
    /// Eight hex digits at a time (`hex8`): the 32 digits are four words of 8 bytes, each
    /// checked and converted in a few word operations instead of a branch per byte.
    @inline(__always)
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, let p = bytes.baseAddress,
            p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D
        else { return nil }
        let raw = UnsafeRawPointer(p)
        @inline(__always)
        func halves(_ first: Int, _ second: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: first, as: UInt32.self)))
                | UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: second, as: UInt32.self))) << 32
        }
        guard let a = Identifier.hex8(UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))),
            let b = Identifier.hex8(halves(9, 14)),
            let c = Identifier.hex8(halves(19, 24)),
            let d = Identifier.hex8(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt64.self)))
        else { return nil }
        self.init(high: a << 32 | b, low: c << 32 | d)
    }

    /// The value of 8 lowercase hex digits, the first in the word's lowest byte (memory order
    /// read as little-endian); nil when any byte is not `0`–`9` or `a`–`f`.
    @inline(__always)
    static func hex8(_ word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Every byte below 0x80; then, per byte, the high bit of x + (0x80 - lo) is set when
        // x >= lo and that of x + (0x7F - hi) when x > hi (no carry crosses a byte).
        guard word & highs == 0 else { return nil }
        @inline(__always)
        func within(_ lo: UInt64, _ hi: UInt64) -> UInt64 {
            (word &+ ones &* (0x80 - lo)) & ~(word &+ ones &* (0x7F - hi)) & highs
        }
        guard within(0x30, 0x39) | within(0x61, 0x66) == highs else { return nil }
        // '0'…'9' → 0…9 (low nibble), 'a'…'f' → 10…15 (low nibble + 9, bit 6 set).
        var x = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
        // Pack the nibbles, the first byte's the most significant.
        x = ((x & 0x000F_000F_000F_000F) << 4) | ((x >> 8) & 0x000F_000F_000F_000F)
        x = ((x & 0x0000_00FF_0000_00FF) << 8) | ((x >> 16) & 0x0000_00FF_0000_00FF)
        x = ((x & 0x0000_0000_0000_FFFF) << 16) | ((x >> 32) & 0x0000_0000_0000_FFFF)
        return x
    }

    /// Makes a new random (version 4) identifier.
    public static func random() -> Identifier {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Makes a new random (version 4) identifier from the given generator (for repeatable tests).
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> Identifier {
        let high = (UInt64(generator.next()) & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (UInt64(generator.next()) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return Identifier(high: high, low: low)
    }

    /// The canonical lowercase text.
    public var description: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            writeUTF8(into: base)
            return 36
        }
    }

    /// Writes the 36 canonical bytes at `out`.
    func writeUTF8(into out: UnsafeMutablePointer<UInt8>) {
        // Straight-line: each 64-bit half becomes 16 hex digits, the hyphens go in fixed places.
        Identifier.writeHex(high >> 32, digits: 8, into: out)
        out[8] = UInt8(ascii: "-")
        Identifier.writeHex(high >> 16, digits: 4, into: out + 9)
        out[13] = UInt8(ascii: "-")
        Identifier.writeHex(high, digits: 4, into: out + 14)
        out[18] = UInt8(ascii: "-")
        Identifier.writeHex(low >> 48, digits: 4, into: out + 19)
        out[23] = UInt8(ascii: "-")
        Identifier.writeHex(low, digits: 12, into: out + 24)
    }

    /// Writes the low `digits` hex digits of `value`, most significant first, in lowercase.
    @inline(__always)
    private static func writeHex(_ value: UInt64, digits: Int, into out: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var index = digits - 1
        while index >= 0 {
            let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
            // 0…9 → '0'…'9', 10…15 → 'a'…'f', without a table or a branch.
            out[index] = nibble &+ 48 &+ (nibble > 9 ? 39 : 0)
            rest >>= 4
            index -= 1
        }
    }

    /// Orders as the canonical text does.
    public static func < (lhs: Identifier, rhs: Identifier) -> Bool {
        lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low
    }
}

/// The id of a replica (one installation of TripSync).
public typealias DeviceID = Identifier
/// The id of an itinerary item.
public typealias ItemID = Identifier
/// The id of a trip.
public typealias TripID = Identifier
