import TripSyncCore

extension SyncReport {
    /// What one device's edits changed in this home's replica during a sync: items it added,
    /// changed (a field, or a deleted item brought back) and deleted, by the author of each
    /// new value (the device in its rev), whichever file carried it here.
    public struct DeviceChanges: Hashable, Sendable {
        /// The device that wrote the changes.
        public var device: DeviceID
        /// Its name as the trip knows it (`device 1a2b3c4d` when it has none).
        public var name: String
        /// Items that were not here before.
        public var added = 0
        /// Items here before with a field changed by this device (or brought back by it).
        public var changed = 0
        /// Items this device deleted.
        public var deleted = 0

        /// Creates an empty count for `device`.
        package init(device: DeviceID, name: String) {
            self.device = device
            self.name = name
        }

        /// Whether nothing is counted.
        public var isEmpty: Bool { added == 0 && changed == 0 && deleted == 0 }
    }

    /// The changes other devices made that `after` holds and `before` did not, one entry per
    /// device, the device with most changes first (then by name); the devices of `me` are left
    /// out (this installation's own changes are what a sync shares). The trip's name counts as
    /// a changed item.
    package static func changes(before: TripDocument?, after: TripDocument, me: Set<DeviceID>) -> [DeviceChanges] {
        var counts: [DeviceID: DeviceChanges] = [:]
        func bump(_ device: DeviceID, _ body: (inout DeviceChanges) -> Void) {
            guard !me.contains(device) else { return }
            var entry = counts[device] ?? DeviceChanges(device: device, name: after.deviceName(device))
            body(&entry)
            counts[device] = entry
        }
        let oldItems = before?.items ?? [:]
        let oldTombstones = before?.tombstones ?? [:]
        for (id, item) in after.items {
            if let old = oldItems[id] {
                if old.isIdentical(to: item) { continue }
                let oldRevs = Dictionary(old.dots.map { ($0.field, $0.rev) }, uniquingKeysWith: { first, _ in first })
                var authors = Set<DeviceID>()
                for dot in item.dots where oldRevs[dot.field] != dot.rev { authors.insert(dot.rev.device) }
                for author in authors { bump(author) { $0.changed += 1 } }
            } else if let tombstone = oldTombstones[id] {
                // Brought back: by whoever wrote the newest value it now shows.
                let newest = item.dots.map(\.rev).filter { rev in !tombstone.item.dots.contains { $0.rev == rev } }.max() ?? item.dots.map(\.rev).max()
                if let newest { bump(newest.device) { $0.changed += 1 } }
            } else {
                // Added: by the device that wrote its title (its creator, unless renamed since).
                if let author = item.title?.rev.device ?? item.dots.first?.rev.device { bump(author) { $0.added += 1 } }
            }
        }
        for (id, tombstone) in after.tombstones where oldItems[id] != nil {
            bump(tombstone.deleted.rev.device) { $0.deleted += 1 }
        }
        if let before, before.trip.name.rev != after.trip.name.rev, before.trip.name.value != after.trip.name.value {
            bump(after.trip.name.rev.device) { $0.changed += 1 }
        }
        return counts.values.filter { !$0.isEmpty }.sorted {
            let left = $0.added + $0.changed + $0.deleted
            let right = $1.added + $1.changed + $1.deleted
            return left != right ? left > right : ($0.name, $0.device) < ($1.name, $1.device)
        }
    }
}
