/// The counters a device id has issued on this installation, as sorted, disjoint ranges. A
/// write under our id whose counter is not here was made by another copy of this home (a
/// copied or restored home), which is the evidence of a fork that survives later writes
/// (docs/DESIGN.md, "Forks").
package struct IssuedCounters: Hashable, Sendable {
    /// The ranges, ascending and disjoint.
    package private(set) var ranges: [ClosedRange<UInt64>] = []

    /// At most this many ranges are kept; past it the two oldest merge (the gap between them
    /// then counts as issued: weaker evidence about old counters, never a false alarm).
    package static let maximumRanges = 20_000

    /// No counter issued.
    package init() {}

    /// Exactly these ranges (sorted and joined).
    package init(_ ranges: [ClosedRange<UInt64>]) {
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) { insert(range) }
    }

    /// Whether `counter` was issued here.
    package func contains(_ counter: UInt64) -> Bool { containsAll(counter...counter) }

    /// Whether every counter of `range` was issued here.
    package func containsAll(_ range: ClosedRange<UInt64>) -> Bool {
        // The first range that ends at or after the range's start: the only one that can hold it.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].lowerBound <= range.lowerBound && range.upperBound <= ranges[low].upperBound
    }

    /// Records one counter.
    package mutating func insert(_ counter: UInt64) { insert(counter...counter) }

    /// Records a range of counters.
    package mutating func insert(_ range: ClosedRange<UInt64>) {
        if let last = ranges.last, range.lowerBound > last.upperBound {
            // The usual case: counters only grow.
            if range.lowerBound == last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...range.upperBound
            } else {
                ranges.append(range)
            }
        } else {
            var merged = range
            var kept: [ClosedRange<UInt64>] = []
            kept.reserveCapacity(ranges.count + 1)
            for existing in ranges {
                if existing.upperBound + 1 < merged.lowerBound || merged.upperBound + 1 < existing.lowerBound {
                    kept.append(existing)
                } else {
                    merged = min(existing.lowerBound, merged.lowerBound)...max(existing.upperBound, merged.upperBound)
                }
            }
            kept.append(merged)
            kept.sort { $0.lowerBound < $1.lowerBound }
            ranges = kept
        }
        while ranges.count > Self.maximumRanges {
            ranges[1] = ranges[0].lowerBound...ranges[1].upperBound
            ranges.removeFirst()
        }
    }

    /// Records every counter of `other`.
    package mutating func formUnion(_ other: IssuedCounters) {
        for range in other.ranges { insert(range) }
    }
}
