import Foundation

/// Add's one-time form keys: each Add form carries a fresh key, and a key already used adds
/// nothing (a double click, Back and resubmit, a retried request). A refused Add gives its key
/// back, so the corrected form can be sent. Kept in memory for the server's life, the newest
/// `limit` keys.
final class FormKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var used: Set<String> = []
    private var order: [String] = []
    private let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    /// A fresh key for a form.
    func fresh() -> String { UUID().uuidString.lowercased() }

    /// Whether `key` is new (and marks it used); an empty key (a form without one) is always new.
    func claim(_ key: String) -> Bool {
        guard !key.isEmpty else { return true }
        return lock.withLock {
            guard used.insert(key).inserted else { return false }
            order.append(key)
            if order.count > limit {
                let dropped = order.count - limit
                for old in order.prefix(dropped) { used.remove(old) }
                order.removeFirst(dropped)
            }
            return true
        }
    }

    /// Gives `key` back: what it sent was refused and nothing was added.
    func release(_ key: String) {
        guard !key.isEmpty else { return }
        lock.withLock {
            used.remove(key)
            order.removeAll { $0 == key }
        }
    }
}
