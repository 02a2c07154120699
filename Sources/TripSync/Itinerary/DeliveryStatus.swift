/// What each change of ours has reached: only this device, published, seen by each other device.
public struct DeliveryStatus: Sendable {
    /// One device and what it has seen of ours.
    public struct Device: Hashable, Sendable {
        /// The device.
        public var id: DeviceID
        /// Its name in the trip.
        public var name: String
        /// The newest of our counters its published clock includes (0: none).
        public var seenOursUpTo: UInt64
        /// How many of our changes it has not seen yet (by its last published file).
        public var missingOurs: Int
        /// When it last published, read from the largest counter of its acks (about wall-clock ms).
        public var lastPublished: UTCTimestamp?
    }

    /// Our changes (register writes) not in our last published file.
    public var unpublished: Int
    /// Our changes in all.
    public var ours: Int
    /// The other devices known to the trip.
    public var devices: [Device]
    /// Visible conflicts.
    public var conflicts: Int
    /// Deleted items whose body may be compacted within `soonDays`, with the date it may go.
    public var nearRetention: [(id: ItemID, title: String?, from: UTCTimestamp)]

    /// Computes the status of `document` for `me` at `now`.
    public init(_ document: TripDocument, me: DeviceID, now: UTCTimestamp, policy: RetentionPolicy = .standard, soonDays: Int64 = 14) {
        var counters: [UInt64] = []
        func collect<V>(_ register: Register<V>?) {
            guard let register else { return }
            for version in register.versions where version.rev.device == me { counters.append(version.rev.counter) }
        }
        collect(document.trip.name)
        for info in document.devices.values { collect(info.name) }
        for item in document.items.values {
            collect(item.title); collect(item.sortKey); collect(item.start); collect(item.end); collect(item.place); collect(item.note)
        }
        for tombstone in document.tombstones.values {
            collect(tombstone.deleted)
            let item = tombstone.item
            collect(item.title); collect(item.sortKey); collect(item.start); collect(item.end); collect(item.place); collect(item.note)
        }
        let published = document.acks[me]?[me] ?? 0
        ours = counters.count
        unpublished = counters.filter { $0 > published }.count
        let known = Set(document.devices.keys).union(document.clock.entries.keys).union(document.acks.keys).subtracting([me])
        devices = known.sorted().map { id in
            let ack = document.acks[id]
            let seen = ack?[me] ?? 0
            let last = ack.map { UTCTimestamp(secondsSinceEpoch: Int64($0.maxCounter / 1000)) }
            return Device(
                id: id, name: document.deviceName(id), seenOursUpTo: seen, missingOurs: counters.filter { $0 > seen }.count,
                lastPublished: ack == nil ? nil : last)
        }
        conflicts = document.visibleConflictCount
        var soon: [(id: ItemID, title: String?, from: UTCTimestamp)] = []
        for (id, tombstone) in document.tombstones where !tombstone.item.isEmpty {
            let latest = tombstone.deleted.versions.map(\.value.at).max() ?? now
            let eligible = UTCTimestamp(secondsSinceEpoch: latest.secondsSinceEpoch + policy.retentionSeconds)
            if eligible.secondsSinceEpoch - now.secondsSinceEpoch <= soonDays * 86_400 {
                soon.append((id, tombstone.item.title?.value, eligible))
            }
        }
        nearRetention = soon.sorted { $0.from < $1.from }
    }
}
