#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's wall clock, the one C call of this folder (`clock_gettime`).
enum SystemClock {
    /// Milliseconds since 1970 (`CLOCK_REALTIME`).
    static func wallMilliseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec / 1_000_000)
    }
}
