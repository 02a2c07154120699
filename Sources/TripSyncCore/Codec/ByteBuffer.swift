import TripSyncPlatform

/// A growable byte buffer for the canonical writer: amortised appends with no per-byte checks
/// beyond capacity.
struct ByteBuffer: ~Copyable {
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = ByteBuffer.reallocate(nil, self.capacity)
    }

    /// `realloc`, trapping when the memory is not there (as growing an `Array` would).
    private static func reallocate(_ block: UnsafeMutablePointer<UInt8>?, _ size: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = Memory.reallocate(block, size) else { preconditionFailure("out of memory for \(size) bytes") }
        return memory
    }

    deinit { Memory.release(storage) }

    /// Hands the bytes over without copying; the buffer is gone afterwards.
    consuming func take() -> OwnedBytes {
        let owned = OwnedBytes(takingMalloced: storage, count: count)
        discard self
        return owned
    }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        // realloc moves large blocks by remapping pages, not by copying them.
        storage = ByteBuffer.reallocate(storage, newCapacity)
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (storage + count).update(from: text.utf8Start, count: length)
        count += length
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Appends an unsigned integer in decimal.
    mutating func append(decimal value: UInt64) {
        reserve(20)
        // Digits into a small scratch from the end, then one copy.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let written = withUnsafeMutableBytes(of: &scratch) { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            let digits = base.assumingMemoryBound(to: UInt8.self)
            var position = 24
            var rest = value
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            } while rest > 0
            (storage + count).update(from: digits + position, count: 24 - position)
            return 24 - position
        }
        count += written
    }

    /// Appends `"YYYY-MM-DD"`, or `"YYYY-MM-DDTHH:MM"` with a time, quoted: the same bytes as
    /// `append(string:)` of the value's `description` (digits need no escaping) without building
    /// a String. Appends nothing and returns false when a field does not fit its width (possible
    /// only through the public `var`s); the caller then writes the description.
    mutating func appendQuotedDigits(_ date: LocalDate, hour: Int? = nil, minute: Int = 0) -> Bool {
        guard (0...9999).contains(date.year), (0...99).contains(date.month), (0...99).contains(date.day),
            (0...99).contains(hour ?? 0), (0...99).contains(minute)
        else { return false }
        reserve(18)
        var at = storage + count
        @inline(__always) func digits(_ value: Int, _ width: Int) {
            var rest = max(value, 0)
            var position = width
            while position > 0 {
                position -= 1
                at[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 48
                rest /= 10
            }
            at += width
        }
        at.pointee = UInt8(ascii: "\"")
        at += 1
        digits(date.year, 4)
        at.pointee = UInt8(ascii: "-")
        at += 1
        digits(date.month, 2)
        at.pointee = UInt8(ascii: "-")
        at += 1
        digits(date.day, 2)
        if let hour {
            at.pointee = UInt8(ascii: "T")
            at += 1
            digits(hour, 2)
            at.pointee = UInt8(ascii: ":")
            at += 1
            digits(minute, 2)
        }
        at.pointee = UInt8(ascii: "\"")
        count = at + 1 - storage
        return true
    }

    /// Appends 36 bytes of canonical UUID text.
    mutating func append(identifier: Identifier) {
        reserve(38)
        storage[count] = UInt8(ascii: "\"")
        identifier.writeUTF8(into: storage + count + 1)
        storage[count + 37] = UInt8(ascii: "\"")
        count += 38
    }

    /// Appends a JSON string literal with canonical escaping.
    mutating func append(string: String) {
        var string = string
        string.withUTF8 { appendString(utf8: $0) }
    }

    /// The letter of the two-byte escape the writer uses for `byte` (`\"`, `\\`, `\b`, `\f`,
    /// `\n`, `\r`, `\t`); nil for the other control characters, written `\u00xx`.
    static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): return byte
        case 0x08: return UInt8(ascii: "b")
        case 0x0C: return UInt8(ascii: "f")
        case 0x0A: return UInt8(ascii: "n")
        case 0x0D: return UInt8(ascii: "r")
        case 0x09: return UInt8(ascii: "t")
        default: return nil
        }
    }

    /// The digits of `\u00xx` escapes.
    static let lowercaseHex: StaticString = "0123456789abcdef"

    private mutating func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 2)
        storage[count] = UInt8(ascii: "\"")
        count += 1
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runStart { append(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            append(UInt8(ascii: "\\"))
            if let letter = ByteBuffer.shortEscape(byte) {
                append(letter)
            } else {
                append("u00")
                append(ByteBuffer.lowercaseHex.utf8Start[Int(byte >> 4)])
                append(ByteBuffer.lowercaseHex.utf8Start[Int(byte & 0xF)])
            }
            index += 1
            runStart = index
        }
        if index > runStart { append(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        append(UInt8(ascii: "\""))
    }

    /// The bytes written so far.
    func toArray() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }
}
