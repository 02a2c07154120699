import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs independent work on every core (reading several files, compressing gzip members).
enum ParallelMap {
    /// `transform` applied to every element, concurrently; results in input order.
    static func map<T: Sendable, R: Sendable>(_ input: [T], _ transform: @Sendable (T) -> R) -> [R] {
        if input.count <= 1 { return input.map(transform) }
        let box = ResultBox<R>(count: input.count)
        DispatchQueue.concurrentPerform(iterations: input.count) { index in
            box.set(index, transform(input[index]))
        }
        return box.values()
    }
}

/// Slots written by distinct iterations of `concurrentPerform`, read after it returns.
private final class ResultBox<R>: @unchecked Sendable {
    private var slots: [R?]
    private let lock = NSLockLike()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: R) {
        lock.withLock { slots[index] = value }
    }

    func values() -> [R] { slots.compactMap { $0 } }
}

/// A tiny mutex over pthread, so this file needs no Foundation: the only thread calls of the
/// codec, as `ParallelMap` is its only use of threads.
private final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}
