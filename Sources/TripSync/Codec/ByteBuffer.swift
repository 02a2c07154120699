/// A growable byte buffer for the canonical writer: amortised appends with no per-byte checks
/// beyond capacity.
struct ByteBuffer: ~Copyable {
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.update(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
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
        if value == 0 {
            storage[count] = UInt8(ascii: "0")
            count += 1
            return
        }
        var digits = 0
        var rest = value
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = value
        var position = count + digits - 1
        while rest > 0 {
            storage[position] = UInt8(truncatingIfNeeded: rest % 10) + 48
            rest /= 10
            position -= 1
        }
        count += digits
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

    private mutating func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 2)
        storage[count] = UInt8(ascii: "\"")
        count += 1
        var runStart = 0
        var index = 0
        let hex: StaticString = "0123456789abcdef"
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if index > runStart { append(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                append("\\u00")
                append(hex.utf8Start[Int(byte >> 4)])
                append(hex.utf8Start[Int(byte & 0xF)])
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
