/// The numbers a team watches (`status`, `status --json` `metrics`), computed from what one
/// document records: its writes (every register version with its dot), the conflicts its
/// registers keep, each device's published clock (`acks`) and this device's own counters.
///
/// A document keeps no history: a write replaced by a later write that had seen it is gone, and
/// a settled conflict leaves a register with one value, like any other edit. So every count here
/// is of what the document holds now (README, "What a team watches", says this in full):
///
/// - **changes**: the writes the document holds, of every device: each version (the value and
///   each kept conflicting value) of the trip name, the device names, every field of every
///   item, deleted items' bodies included, each delete, and every register of every attachment
///   (detach included). Writes replaced since, and bodies dropped by compaction, are not counted.
/// - **conflictsPer1000Changes**: 1,000 × the open conflicts (`ConflictSummary.total`: fields with
///   conflicting values, the trip's name and captions included, plus items edited while deleted)
///   / changes, to one decimal.
/// - **keepMineShare**: how conflicts were settled is not recorded, so this is the share, among
///   the open field conflicts (the name's and captions' too) that hold a value of this device, of those whose shown value is
///   this device's, to three decimals; nil when no open conflict holds a value of this device.
/// - **oldestUnpublishedChangeSeconds**: the age at `now` of the oldest write of this device that
///   its last published file does not hold (counter above `acks[me][me]`), read from the write's
///   counter (the hybrid logical clock's milliseconds), never negative; nil when every write is
///   published.
/// - **staleDevices**: the other devices (named in the trip or with a published clock) whose
///   newest sign of life (the largest counter in their published clock, or their entry in the
///   document's clock: their newest write this replica has seen) is more than the retention
///   before `now`. A device with neither is not listed (nothing says since when).
package struct TeamMetrics: Hashable, Sendable {
    /// A device not heard from for longer than the retention.
    package struct StaleDevice: Hashable, Sendable {
        /// The device.
        package var id: DeviceID
        /// Its name in the trip.
        package var name: String
        /// Its newest sign of life (read from a counter: wall-clock milliseconds).
        package var lastHeard: UTCTimestamp
        /// Seconds from `lastHeard` to `now`.
        package var silentSeconds: Int64
    }

    /// The writes the document holds (see the type's description).
    package var changes: Int
    /// The open conflicts.
    package var conflicts: ConflictSummary
    /// 1,000 × `conflicts.total` / `changes`, to one decimal; nil when there are no changes.
    package var conflictsPer1000Changes: Double?
    /// Open field conflicts that hold a value written by this device.
    package var openConflictsWithMine: Int
    /// Of `openConflictsWithMine`, those whose shown value is this device's.
    package var openConflictsShowingMine: Int
    /// `openConflictsShowingMine / openConflictsWithMine`, to three decimals; nil when none.
    package var keepMineShare: Double?
    /// When the oldest write of this device not yet published was made; nil when none.
    package var oldestUnpublishedChange: UTCTimestamp?
    /// Its age in seconds at `now` (0 when its counter is ahead of `now`); nil when none.
    package var oldestUnpublishedChangeSeconds: Int64?
    /// Devices silent for longer than `retentionSeconds`, longest silent first.
    package var staleDevices: [StaleDevice]
    /// The retention the devices are held to (`RetentionPolicy.retentionSeconds`).
    package var retentionSeconds: Int64

    /// Computes the metrics of `document` for this device `me` at `now`.
    package init(_ document: TripDocument, me: DeviceID, now: UTCTimestamp, policy: RetentionPolicy = .standard) {
        var changes = 0
        var mine: [UInt64] = []
        document.forEachVersionRev { _, rev in
            changes += 1
            if rev.device == me { mine.append(rev.counter) }
        }
        self.changes = changes

        let list = ConflictList(document)
        conflicts = list.summary
        conflictsPer1000Changes = changes == 0 ? nil : Self.rounded(Double(conflicts.total) * 1000 / Double(changes), places: 1)

        // Each open conflict as its shown value and the distinct values it holds: fields, the
        // trip's name and captions alike.
        var open = list.fields.map { (current: $0.current, versions: $0.distinctVersions) }
        open += list.registers.map { (current: $0.current, versions: [$0.current] + $0.alternatives) }
        let withMine = open.filter { conflict in conflict.versions.contains { $0.device == me } }
        openConflictsWithMine = withMine.count
        openConflictsShowingMine = withMine.filter { $0.current.device == me }.count
        keepMineShare = withMine.isEmpty ? nil : Self.rounded(Double(openConflictsShowingMine) / Double(withMine.count), places: 3)

        let published = document.acks[me]?[me] ?? 0
        if let oldest = mine.filter({ $0 > published }).min() {
            let made = UTCTimestamp(millisecondsSinceEpoch: oldest)
            oldestUnpublishedChange = made
            oldestUnpublishedChangeSeconds = max(0, now.secondsSinceEpoch - made.secondsSinceEpoch)
        } else {
            oldestUnpublishedChange = nil
            oldestUnpublishedChangeSeconds = nil
        }

        retentionSeconds = policy.retentionSeconds
        var stale: [StaleDevice] = []
        for id in Set(document.devices.keys).union(document.acks.keys).subtracting([me]) {
            let newest = max(document.clock[id], document.acks[id]?.maxCounter ?? 0)
            guard newest > 0 else { continue }  // nothing says since when
            let heard = UTCTimestamp(millisecondsSinceEpoch: newest)
            let silent = now.secondsSinceEpoch - heard.secondsSinceEpoch
            if silent > policy.retentionSeconds {
                stale.append(StaleDevice(id: id, name: document.deviceName(id), lastHeard: heard, silentSeconds: silent))
            }
        }
        staleDevices = stale.sorted { ($0.lastHeard, $0.id) < ($1.lastHeard, $1.id) }
    }

    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
