import CSodium

/// Bytes of a secret (a seed, a libsodium secret key, a passphrase, a key derived from one)
/// that own their memory: locked out of swap where the system allows (`sodium_mlock`; a
/// refusal is not an error) and wiped with `sodium_memzero` when released, so no secret
/// outlives its owner by a caller forgetting to wipe it. Never copied into an array.
package final class SecretBytes: @unchecked Sendable {
    // Sendable: the bytes are written only while the owner builds them (`init`), then read.
    private let buffer: UnsafeMutableRawBufferPointer
    private let locked: Bool
    private let onRelease: ((UnsafeRawBufferPointer) -> Void)?

    /// `count` zero bytes, then `fill` writes them; `onRelease` (for tests) sees the storage
    /// after it was wiped and before it is freed.
    package init(count: Int, onRelease: ((UnsafeRawBufferPointer) -> Void)? = nil, _ fill: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        locked = buffer.baseAddress.map { sodium_mlock($0, buffer.count) == 0 } ?? false
        self.onRelease = onRelease
        fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        self.count = count
    }

    /// A copy of `bytes`, which are then wiped (the caller's array holds the secret no more).
    package convenience init(taking bytes: inout [UInt8]) {
        self.init(count: bytes.count) { target in
            bytes.withUnsafeBytes { source in target.copyMemory(from: source) }
        }
        Self.wipe(&bytes)
    }

    /// How many bytes the secret has.
    package let count: Int

    deinit {
        if let base = buffer.baseAddress {
            sodium_memzero(base, buffer.count)
            if locked { _ = sodium_munlock(base, buffer.count) }
        }
        onRelease?(UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
    }

    /// Calls `body` with the secret's bytes (valid only during the call).
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Whether two secrets hold the same bytes (`sodium_memcmp`, in constant time).
    package func equals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let a = buffer.baseAddress, let b = other.buffer.baseAddress else { return true }
        return sodium_memcmp(a, b, count) == 0
    }

    /// Overwrites `bytes` with zeros (`sodium_memzero`), for a secret that had to pass through
    /// an array (a file's bytes, a line read from a terminal).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
