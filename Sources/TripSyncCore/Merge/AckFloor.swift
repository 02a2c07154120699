/// What every device in a document's clock has acknowledged: per writing device, the least
/// counter that every device's `acks` entry covers. A dot is acknowledged by all exactly when
/// this floor sees it.
///
/// Computed once per document in time linear in the `acks` entries (each intersection step is
/// bounded by the size of the entry it intersects with), so asking it about every dot of every
/// tombstone costs one lookup per dot, not one per dot and device (issue 26: 100,000 tombstones
/// × 9,990 devices took minutes per sync).
///
/// It also measures the trip's age by those acknowledgements (`horizon`): the latest counter
/// that every device has reached by its own account, so compaction never rests on one laptop's
/// wall clock (docs/DESIGN.md, "Compaction waits for every laptop's time").
struct AckFloor {
    /// Per writing device, the counter every clock device acknowledged; nil when the clock
    /// is empty (no device to wait for: everything counts as acknowledged).
    private let floor: [DeviceID: UInt64]?
    /// The least, over the devices in the clock, of the greatest counter each one acknowledged
    /// (its `acks` entry's largest): every device had reached at least this point of the trip's
    /// time when it last published. Zero when a device never acknowledged; nil when the clock
    /// is empty. A counter is a hybrid logical clock no reader takes more than 24 hours ahead
    /// of its own wall clock, so one fast clock moves only its own entry, never the least.
    let horizon: UInt64?

    /// The floor of `document`.
    init(_ document: TripDocument) {
        var result: [DeviceID: UInt64]?
        var horizon: UInt64?
        for device in document.clock.entries.keys {
            guard let ack = document.acks[device] else {
                result = [:]  // a device that never acknowledged: nothing is acknowledged by all
                horizon = 0
                break
            }
            horizon = min(horizon ?? .max, ack.maxCounter)
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
        }
        floor = result
        self.horizon = horizon
    }

    /// Whether every device had reached `counter` plus `milliseconds` by its own acknowledged
    /// counters: the age of a write measured by the acknowledgements, not by a wall clock.
    func allReached(_ counter: UInt64, plus milliseconds: UInt64) -> Bool {
        guard let horizon else { return true }
        let (end, overflow) = counter.addingReportingOverflow(milliseconds)
        return !overflow && horizon >= end
    }

    /// Whether every clock device acknowledged the write `rev`.
    func sees(_ rev: Rev) -> Bool {
        guard let floor else { return true }
        return (floor[rev.device] ?? 0) >= rev.counter
    }
}
