/// Bytes in one malloc'd block, freed with the object: what the inflater and the canonical
/// writer hand on without copying into an `Array`.
package final class OwnedBytes: @unchecked Sendable {
    /// The first byte (nil only when empty).
    package let base: UnsafeMutablePointer<UInt8>?
    /// The number of bytes.
    package let count: Int

    /// Takes ownership of a block from `malloc`/`realloc`.
    @inlinable
    package init(takingMalloced base: UnsafeMutablePointer<UInt8>?, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { Memory.release(base) }

    /// A malloc'd copy of `bytes`.
    package convenience init(copying bytes: [UInt8]) {
        let block = Memory.allocate(bytes.count)
        if let block { bytes.withUnsafeBufferPointer { source in
            if let from = source.baseAddress { block.update(from: from, count: source.count) }
        } }
        self.init(takingMalloced: block, count: block == nil ? 0 : bytes.count)
    }

    /// The bytes as a read-only buffer (valid while this object lives).
    @inlinable
    package var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// A copy as an array.
    package func toArray() -> [UInt8] { Array(buffer) }

    /// A read-only window on bytes someone else keeps alive, to hand to other threads.
    package struct View: @unchecked Sendable {
        package var base: UnsafePointer<UInt8>?
        package var count: Int

        @inlinable
        package init(_ buffer: UnsafeBufferPointer<UInt8>) {
            base = buffer.baseAddress
            count = buffer.count
        }
    }

    /// A view of these bytes (valid while this object lives).
    @inlinable
    package var view: View { View(buffer) }
}
