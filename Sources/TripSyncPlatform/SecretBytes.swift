import CSodium

/// Bytes of a secret (a seed, a libsodium secret key, a passphrase, a key derived from one)
/// that own their memory: locked out of swap where the system allows (`sodium_mlock`; a
/// refusal is not an error) and wiped with `sodium_memzero` when released, so no secret
/// outlives its owner by a caller forgetting to wipe it.
package final class SecretBytes: @unchecked Sendable {
    // Sendable: the bytes are written only while the owner builds them (`init`), then read.
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private let locked: Bool
    private let onRelease: ((UnsafeRawBufferPointer) -> Void)?

    /// How many bytes the secret has.
    package let count: Int

    /// `count` zero bytes that `fill` then writes (pointer, count); `onRelease` (for tests)
    /// sees the storage after it was wiped and before it is freed.
    package init(count: Int, onRelease: ((UnsafeRawBufferPointer) -> Void)? = nil, _ fill: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        capacity = max(count, 1)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        base.initialize(repeating: 0, count: capacity)
        locked = sodium_mlock(base, capacity) == 0
        self.onRelease = onRelease
        self.count = count
        fill(base, count)
    }

    /// A copy of `bytes`, which are then wiped (the caller's array holds the secret no more).
    package convenience init(taking bytes: inout [UInt8]) {
        // No second reference to the array's storage is made, so the wipe below clears that
        // storage itself (not a copy made on write).
        let count = bytes.count
        self.init(count: count) { _, _ in }
        bytes.withUnsafeBufferPointer { source in
            if let from = source.baseAddress { base.update(from: from, count: count) }
        }
        Self.wipe(&bytes)
    }

    deinit {
        sodium_memzero(base, capacity)
        if locked { _ = sodium_munlock(base, capacity) }
        onRelease?(UnsafeRawBufferPointer(start: base, count: capacity))
        base.deinitialize(count: capacity)
        base.deallocate()
    }

    /// Calls `body` with the secret's bytes (valid only during the call).
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Calls `body` with a pointer to the secret's bytes and their count (for libsodium).
    package func withPointer<T>(_ body: (UnsafeMutablePointer<UInt8>, Int) throws -> T) rethrows -> T {
        try body(base, count)
    }

    /// Overwrites `bytes` with zeros (`sodium_memzero`), for a secret that had to pass through
    /// an array (a file's bytes, a line read from a terminal).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
