import Foundation

/// Values the process keeps until it exits instead of freeing them.
///
/// A command that has written its result is about to exit, and the kernel reclaims the heap
/// at once; freeing a 100,000-item document object by object first would take a noticeable
/// part of the command's run time (about 150 ms of a one-second merge, measured).
enum ProcessLifetime {
    /// Keeps `value` alive until the process exits.
    static func keepUntilExit(_ value: some Any) {
        box.append(value)
    }

    private static let box = Box()

    /// Only appended to, under a lock: commands run on one thread, but nothing here relies on it.
    private final class Box: @unchecked Sendable {
        private var values: [Any] = []
        private let lock = NSLock()
        func append(_ value: Any) { lock.withLock { values.append(value) } }
    }
}
