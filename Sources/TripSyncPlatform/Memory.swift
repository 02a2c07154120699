#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's memory calls, for the codec's byte blocks and comparisons: the only file of
/// the reader's and writer's code that calls them (`malloc`, `realloc`, `free`, `memcmp`).
/// `@inlinable`: the codec in TripSyncCore calls them in its inner loops, and a call across the
/// module boundary would not be inlined otherwise (docs/PERFORMANCE.md, issue 27).
package enum Memory {
    /// A block of `count` bytes (at least one), uninitialized; nil when the memory is not there.
    @inlinable @inline(__always)
    package static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt8>? {
        malloc(max(count, 1))?.assumingMemoryBound(to: UInt8.self)
    }

    /// `block` (nil for a new one) resized to `count` bytes, keeping its contents; nil when the
    /// memory is not there (`block` is then still valid).
    @inlinable @inline(__always)
    package static func reallocate(_ block: UnsafeMutablePointer<UInt8>?, _ count: Int) -> UnsafeMutablePointer<UInt8>? {
        realloc(block, max(count, 1))?.assumingMemoryBound(to: UInt8.self)
    }

    /// Frees a block from `allocate`, `reallocate` or `malloc`.
    @inlinable @inline(__always)
    package static func release(_ block: UnsafeMutablePointer<UInt8>?) {
        free(block)
    }

    /// Whether `count` bytes at `a` and `b` are equal.
    @inlinable @inline(__always)
    package static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}
