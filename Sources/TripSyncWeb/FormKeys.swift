import Foundation

/// Add's one-time form keys: each Add form carries a fresh key, and a key already used adds
/// nothing (a double click, Back and resubmit, a retried request). A refused Add gives its key
/// back, so the corrected form can be sent. Kept in memory for the server's life, the newest
/// `limit` keys.
final class FormKeys: @unchecked Sendable {
    private let lock = NSLock()
    /// Each key used, with where its Add led (nil while it is being saved).
    private var used: [String: String] = [:]
    private var order: [String] = []
    private let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    /// A fresh key for a form.
    func fresh() -> String { UUID().uuidString.lowercased() }

    /// What a key's post is.
    enum Claim: Equatable {
        /// The key is new (now marked used): add.
        case new
        /// The key was used: answer as its first post did (`location`, nil while that is saving).
        case used(location: String?)
    }

    /// Marks `key` used, or says it was; an empty key (a form without one) is always new.
    func claim(_ key: String) -> Claim {
        guard !key.isEmpty else { return .new }
        return lock.withLock {
            if let location = used[key] { return .used(location: location.isEmpty ? nil : location) }
            used[key] = ""
            order.append(key)
            if order.count > limit {
                let dropped = order.count - limit
                for old in order.prefix(dropped) { used[old] = nil }
                order.removeFirst(dropped)
            }
            return .new
        }
    }

    /// Records where the Add of `key` led, for a second post of the same form.
    func settle(_ key: String, location: String) {
        guard !key.isEmpty else { return }
        lock.withLock { if used[key] != nil { used[key] = location } }
    }

    /// Gives `key` back: what it sent was refused and nothing was added.
    func release(_ key: String) {
        guard !key.isEmpty else { return }
        lock.withLock {
            used[key] = nil
            order.removeAll { $0 == key }
        }
    }
}
