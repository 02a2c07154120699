import TripSync
import TripSyncCore

/// Trip documents shaped to cost the most per byte (issue 26, finding 6): many old tombstones,
/// thousands of acknowledging devices of which one never acknowledges, registers holding
/// hundreds of values under one dot; and a plain document of about the same size to compare.
///
/// Every check that spans two collections (tombstones × devices, values × values, acks × clock
/// entries) must stay near-linear on these: a hostile file may cost a few times a plain file
/// of its size, never a hundred.
package enum HostileTrip {
    /// The counter of the generator's first write (late 2025), far older than any retention.
    static let start: UInt64 = 1_764_000_000_000

    /// A document of `tombstones` tombstones with whole bodies, all deleted long ago and
    /// acknowledged by every device but one, `devices` devices in the clock, and `forkedItems`
    /// live items whose title holds `valuesPerRegister` values under one dot.
    package static func document(
        tombstones: Int, devices: Int, forkedItems: Int = 0, valuesPerRegister: Int = 0, seed: UInt64 = 26
    ) -> TripDocument {
        var generator = TripGenerator(seed: seed, deviceCount: max(devices, 2))
        let writer = generator.devices[0]
        var document = TripDocument(
            tripID: generator.tripID, deviceID: writer, clock: VersionVector(),
            trip: TripInfo(name: Register(value: "Hostile", rev: generator.stamp(writer))))
        for (index, device) in generator.devices.enumerated() {
            document.devices[device] = DeviceInfo(name: Register(value: "Device \(index)", rev: generator.stamp(device)))
        }
        document.tombstones.reserveCapacity(tombstones)
        for index in 0..<tombstones {
            let item = generator.item(index: index, by: writer)
            var seen = VersionVector()
            for dot in item.dots { seen.include(dot.rev) }
            let rev = generator.stamp(writer)
            let deletion = Deletion(at: UTCTimestamp(millisecondsSinceEpoch: rev.counter), seen: seen)
            document.tombstones[generator.identifier()] = Tombstone(deleted: Register(value: deletion, rev: rev), item: item)
        }
        for index in 0..<forkedItems {
            var item = generator.item(index: tombstones + index, by: writer)
            if let title = item.title, valuesPerRegister > 1 {
                // Canonical order: one dot, so the greatest value bytes first.
                let values = (0..<valuesPerRegister).map { "Value \($0) of \(index)" }
                    .sorted { $1.utf8.lexicographicallyPrecedes($0.utf8) }
                var register = Register(value: values[0], rev: title.rev)
                register.conflicts = values.dropFirst().map { Versioned(value: $0, rev: title.rev) }
                item.title = register
            }
            document.items[generator.identifier()] = item
        }
        document.clock = TripGenerator.clockCovering(document)
        // Every device but the last acknowledges everything: each tombstone is compactable
        // but for one device, and that device is looked at only after all the others.
        for device in generator.devices.dropLast() {
            document.acks[device] = VersionVector([writer: document.clock[writer]])
        }
        document.acks[writer] = document.clock
        return document
    }

    /// A plain document of two devices about `bytes` canonical JSON bytes long (at most 100,000
    /// items): live items and as many recent tombstones as `tombstones`, none compactable.
    package static func plain(bytes: Int, tombstones: Int, seed: UInt64 = 27) -> TripDocument {
        var generator = TripGenerator(seed: seed)
        var document = generator.document(itemCount: 0, name: "Plain")
        let writer = generator.devices[0]
        func add(_ count: Int) {
            for index in 0..<count {
                let item = generator.item(index: index, by: generator.devices[index % 2])
                if document.tombstones.count < tombstones {
                    var seen = VersionVector()
                    for dot in item.dots { seen.include(dot.rev) }
                    let rev = generator.stamp(writer)
                    // Deleted "now": within the retention, never compactable in the benchmark.
                    let deletion = Deletion(at: UTCTimestamp.now, seen: seen)
                    document.tombstones[generator.identifier()] = Tombstone(deleted: Register(value: deletion, rev: rev), item: item)
                } else {
                    document.items[generator.identifier()] = item
                }
            }
        }
        add(min(tombstones, 1000))
        let perEntry = max(document.canonicalJSON().count / max(document.tombstones.count, 1), 1)
        let wanted = min(max(bytes / perEntry, tombstones), 100_000 + tombstones)
        add(wanted - document.tombstones.count - document.items.count)
        document.clock = TripGenerator.clockCovering(document)
        for device in generator.devices { document.acks[device] = document.clock }
        return document
    }

    /// A second replica's file of `document`: the same state, written by another device that
    /// retitled one item (so a merge has work to do).
    package static func peer(of document: TripDocument) throws -> TripDocument {
        var peer = document
        let device = document.clock.entries.keys.sorted()[0]
        peer.deviceID = device
        var clock = HybridLogicalClock(highWater: document.clock.maxCounter)
        if let id = document.items.keys.sorted().first, document.items[id]?.title?.conflicts.isEmpty ?? false {
            try peer.set(.title, of: id, to: .text("Retitled by a peer"), hlc: &clock, now: document.clock.maxCounter + 1)
        } else {
            try peer.addItem(
                Identifier(high: 26, low: 6), NewItem(title: "Added by a peer", sortKey: "ZZV"), hlc: &clock,
                now: document.clock.maxCounter + 1)
        }
        peer.acknowledgeOwnState()
        return peer
    }
}
