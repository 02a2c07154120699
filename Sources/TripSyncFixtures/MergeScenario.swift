import TripSync
import TripSyncCore

/// The benchmark's diverged pair (issue "Merge trip files", speed): one trip of N items, then
/// A retitles the first N/10 items and adds N/100; B edits the note of those N/10, retitles
/// every 4th of them (same-field conflicts) and deletes N/100 (half of them items A edited).
///
/// So that no file passes the 100,000-item limit, the shared trip holds N − N/100 items and A,
/// after its adds, exactly N.
package struct MergeScenario {
    /// Replica A's document.
    package var a: TripDocument
    /// Replica B's document.
    package var b: TripDocument

    /// Builds the pair for `items` items, deterministically.
    package init(items: Int, seed: UInt64 = 42) throws {
        var generator = TripGenerator(seed: seed)
        let base = generator.document(itemCount: items - items / 100)
        let deviceA = generator.devices[0]
        let deviceB = generator.devices.count > 1 ? generator.devices[1] : generator.identifier()
        var a = base
        a.deviceID = deviceA
        var b = base
        b.deviceID = deviceB
        let ids = base.items.keys.sorted()
        let edited = Array(ids.prefix(items / 10))
        var now = generator.counter + 60_000
        var clockA = HybridLogicalClock(highWater: base.clock.maxCounter)
        var clockB = HybridLogicalClock(highWater: base.clock.maxCounter)
        for (index, id) in edited.enumerated() {
            now += 3
            try a.set(.title, of: id, to: .text("Retitled by A #\(index)"), hlc: &clockA, now: now)
        }
        for index in 0..<(items / 100) {
            now += 3
            let title = "Added by A #\(index)"
            try a.addItem(generator.identifier(), NewItem(title: title, sortKey: "W\(index)V", place: "Somewhere new"), hlc: &clockA, now: now)
        }
        for (index, id) in edited.enumerated() {
            now += 3
            try b.set(.note, of: id, to: .text("Note from B #\(index)\nBring tickets."), hlc: &clockB, now: now)
            if index % 4 == 0 {
                try b.set(.title, of: id, to: .text("Retitled by B #\(index)"), hlc: &clockB, now: now + 1)
            }
        }
        let deletes = items / 100
        let fromEdited = edited.suffix(deletes / 2)
        let fromRest = ids.dropFirst(edited.count).prefix(deletes - fromEdited.count)
        for id in Array(fromEdited) + Array(fromRest) {
            now += 3
            let at = UTCTimestamp(millisecondsSinceEpoch: now)
            try b.deleteItem(id, at: at, hlc: &clockB, now: now)
        }
        a.acknowledgeOwnState()
        b.acknowledgeOwnState()
        self.a = a
        self.b = b
    }
}
