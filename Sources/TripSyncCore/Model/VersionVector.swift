/// A version vector: for each device, the largest counter of its writes that a state includes.
///
/// In a document it is the `clock`; a delete's `seen` and each device's `acks` entry are version
/// vectors too. A write with dot `(c, d)` is *seen* by a vector `v` when `v[d] >= c`.
package struct VersionVector: Hashable, Sendable {
    /// The entries, device → largest counter seen. Counters are at least 1; absent means 0.
    package private(set) var entries: [DeviceID: UInt64]

    /// An empty vector (has seen nothing).
    package init() { entries = [:] }

    /// A vector with the given entries; zero counters are dropped.
    package init(_ entries: [DeviceID: UInt64]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    /// The counter for `device` (0 when absent).
    package subscript(device: DeviceID) -> UInt64 {
        get { entries[device] ?? 0 }
        set {
            if newValue == 0 { entries[device] = nil } else { entries[device] = newValue }
        }
    }

    /// Whether the write named by `rev` is included.
    @inline(__always)
    package func sees(_ rev: Rev) -> Bool {
        (entries[rev.device] ?? 0) >= rev.counter
    }

    /// Whether every entry of `other` is included in this vector.
    package func covers(_ other: VersionVector) -> Bool {
        other.entries.allSatisfy { self[$0.key] >= $0.value }
    }

    /// Raises the entry for `rev.device` to at least `rev.counter`.
    package mutating func include(_ rev: Rev) {
        if self[rev.device] < rev.counter { entries[rev.device] = rev.counter }
    }

    /// The pointwise maximum of two vectors.
    package func union(_ other: VersionVector) -> VersionVector {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Raises every entry to at least the other vector's.
    package mutating func formUnion(_ other: VersionVector) {
        for (device, counter) in other.entries where self[device] < counter {
            entries[device] = counter
        }
    }

    /// The largest counter of any device (0 when empty).
    package var maxCounter: UInt64 { entries.values.max() ?? 0 }

    /// The entries sorted by device id, as the canonical form writes them.
    package var sortedEntries: [(device: DeviceID, counter: UInt64)] {
        entries.sorted { $0.key < $1.key }.map { (device: $0.key, counter: $0.value) }
    }

    /// Whether the vector is empty.
    package var isEmpty: Bool { entries.isEmpty }
}
