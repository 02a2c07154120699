/// A UUID in lowercase canonical form (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`), stored as 128 bits.
///
/// Trip, device and item ids are all identifiers. The order of identifiers is the byte order of
/// their canonical text, so sorting by `<` sorts exactly as the canonical JSON writer does.
public struct Identifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The high 64 bits (the first 16 hex digits).
    public let high: UInt64
    /// The low 64 bits (the last 16 hex digits).
    public let low: UInt64

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
    @inline(__always)
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, let p = bytes.baseAddress,
            p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D
        else { return nil }
        var invalid: UInt8 = 0
        @inline(__always)
        func hex(_ start: Int, _ count: Int, into word: inout UInt64) {
            for index in start..<(start + count) {
                let byte = p[index]
                let digit = byte &- 0x30
                let letter = byte &- 0x61
                // 0-9 → 0…9, a-f → 10…15; anything else marks the id invalid.
                let isDigit = digit < 10
                let isLetter = letter < 6
                invalid |= (isDigit || isLetter) ? 0 : 1
                word = word << 4 | UInt64(isDigit ? digit : letter &+ 10)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        hex(0, 8, into: &high)
        hex(9, 4, into: &high)
        hex(14, 4, into: &high)
        hex(19, 4, into: &low)
        hex(24, 12, into: &low)
        guard invalid == 0 else { return nil }
        self.init(high: high, low: low)
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
