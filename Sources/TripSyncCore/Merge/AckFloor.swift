/// What every device in a document's clock has acknowledged: per writing device, the least
/// counter that every device's `acks` entry covers. A dot is acknowledged by all exactly when
/// this floor sees it.
///
/// Computed once per document in time linear in the `acks` entries (each intersection step is
/// bounded by the size of the entry it intersects with), so asking it about every dot of every
/// tombstone costs one lookup per dot, not one per dot and device (issue 26: 100,000 tombstones
/// × 9,990 devices took minutes per sync).
struct AckFloor {
    /// Per writing device, the counter every clock device acknowledged; nil when the clock
    /// is empty (no device to wait for: everything counts as acknowledged).
    private let floor: [DeviceID: UInt64]?

    /// The floor of `document`.
    init(_ document: TripDocument) {
        var result: [DeviceID: UInt64]?
        for device in document.clock.entries.keys {
            guard let ack = document.acks[device] else {
                result = [:]  // a device that never acknowledged: nothing is acknowledged by all
                break
            }
            guard let current = result else {
                result = ack.entries
                continue
            }
            var next: [DeviceID: UInt64] = [:]
            next.reserveCapacity(current.count)
            for (writer, counter) in current {
                let other = ack[writer]
                if other > 0 { next[writer] = min(counter, other) }
            }
            result = next
            if next.isEmpty { break }
        }
        floor = result
    }

    /// Whether every clock device acknowledged the write `rev`.
    func sees(_ rev: Rev) -> Bool {
        guard let floor else { return true }
        return (floor[rev.device] ?? 0) >= rev.counter
    }
}
