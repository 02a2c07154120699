import Foundation
import Testing
import TripSync
import TripSyncFixtures
import TripSyncCore

/// Seeded random multi-device histories checked against a simple reference model of the
/// multi-value register: a write survives unless a write to the same register replaced it
/// (had seen it) or compaction dropped it from a tombstone body. Devices go away for long
/// stretches (editing items others delete meanwhile) while the others compact far past the
/// retention: compaction may drop only what a surviving delete had seen, never typed work
/// (a value written while the item was deleted), so no typed value vanishes without a sign.
@Suite struct MergeSimulationTests {
    /// Which register a write went to.
    struct RegisterKey: Hashable {
        var item: ItemID
        var field: String  // an ItemField raw value, or "deleted"
    }

    /// One write in the reference log.
    struct Write {
        var key: RegisterKey
        var dot: Rev?  // nil for a restore's clearing of the delete register
        var value: String
        var seen: VersionVector?  // replaces every dot this vector has seen…
        var replacedDots: Set<Rev>  // …or exactly these dots
        func replaces(_ other: Rev) -> Bool {
            if let seen { return seen.sees(other) && other != dot }
            return replacedDots.contains(other)
        }
    }

    struct Simulation {
        var random: SeededGenerator
        var devices: [DeviceID] = []
        var replicas: [TripDocument] = []
        var clocks: [HybridLogicalClock] = []
        var wall: [UInt64] = []
        var snapshots: [TripDocument] = []
        var log: [Write] = []
        var compacted: Set<Rev> = []
        var valueCounter = 0
        var operations: [String: Int] = [:]
        /// Devices away from every exchange (a long absence); they keep editing.
        var away: Set<Int> = []
        /// Typed work compaction dropped (must stay empty): what and where.
        var lostTypedWork: [String] = []

        init(seed: UInt64) throws {
            random = SeededGenerator(seed: seed)
            let count = Int.random(in: 3...6, using: &random)
            for _ in 0..<count { devices.append(Identifier.random(using: &random)) }
            let start = UInt64(1_764_000_000_000)
            for index in 0..<count {
                clocks.append(HybridLogicalClock())
                wall.append(start + UInt64.random(in: 0...5_000, using: &random))
                _ = index
            }
            // Device 0 creates the trip; the others start from a copy of it.
            var first = TripDocument(
                tripID: Identifier.random(using: &random), deviceID: devices[0], clock: VersionVector(),
                trip: TripInfo(name: Register(value: "Trip", rev: Rev(counter: start, device: devices[0]))))
            first.clock.include(first.trip.name.rev)
            clocks[0].observe(start)
            replicas.append(first)
            for index in 1..<count {
                var copy = first
                copy.deviceID = devices[index]
                replicas.append(copy)
            }
            for _ in 0..<Int.random(in: 1...4, using: &random) { try add(0) }
        }

        mutating func tick(_ device: Int) -> UInt64 {
            wall[device] += UInt64.random(in: 1...2_000, using: &random)
            return wall[device]
        }

        mutating func nextValue(_ prefix: String) -> String {
            valueCounter += 1
            // Sometimes two people type the same thing.
            if Int.random(in: 0..<8, using: &random) == 0 { return prefix + " same" }
            return "\(prefix) \(valueCounter)"
        }

        /// Records every dot the local operation added (dots above the old clock).
        mutating func record(_ device: Int, before: TripDocument, clear deletes: ItemID? = nil, restamp: Bool = false) {
            let after = replicas[device]
            let old = before.clock
            func collect<V>(_ item: ItemID, _ field: String, _ register: Register<V>?, previous: Register<V>?) {
                guard let register else { return }
                for version in register.versions where !old.sees(version.rev) {
                    if restamp {
                        let replaced: Set<Rev> = previous.map { [$0.rev] } ?? []
                        log.append(Write(key: RegisterKey(item: item, field: field), dot: version.rev, value: "\(version.value)", seen: nil, replacedDots: replaced))
                    } else {
                        log.append(Write(key: RegisterKey(item: item, field: field), dot: version.rev, value: "\(version.value)", seen: old, replacedDots: []))
                    }
                }
            }
            func fields(_ id: ItemID, _ item: ItemFields, _ previous: ItemFields?) {
                collect(id, "title", item.title, previous: previous?.title)
                collect(id, "sortKey", item.sortKey, previous: previous?.sortKey)
                collect(id, "start", item.start, previous: previous?.start)
                collect(id, "end", item.end, previous: previous?.end)
                collect(id, "place", item.place, previous: previous?.place)
                collect(id, "note", item.note, previous: previous?.note)
            }
            for (id, item) in after.items { fields(id, item, before.items[id] ?? before.tombstones[id]?.item) }
            for (id, tombstone) in after.tombstones {
                fields(id, tombstone.item, before.tombstones[id]?.item)
                collect(id, "deleted", tombstone.deleted, previous: nil)
            }
            for (id, attachment) in after.attachments {
                let previous = before.attachments[id]
                collect(id, "attachment.blob", attachment.blob, previous: previous?.blob)
                collect(id, "attachment.caption", attachment.caption, previous: previous?.caption)
                collect(id, "attachment.deleted", attachment.deleted, previous: nil)
                collect(id, "attachment.item", attachment.item, previous: previous?.item)
                collect(id, "attachment.name", attachment.name, previous: previous?.name)
            }
            if let id = deletes {
                let field = before.attachments[id] != nil ? "attachment.deleted" : "deleted"
                log.append(Write(key: RegisterKey(item: id, field: field), dot: nil, value: "", seen: old, replacedDots: []))
            }
        }

        mutating func add(_ device: Int) throws {
            let before = replicas[device]
            let id = Identifier.random(using: &random)
            let now = tick(device)
            try replicas[device].addItem(
                id, NewItem(title: nextValue("title"), sortKey: "V", place: nextValue("place")), hlc: &clocks[device], now: now)
            record(device, before: before)
        }

        mutating func step() throws {
            let device = Int.random(in: 0..<devices.count, using: &random)
            let roll = Int.random(in: 0..<100, using: &random)
            let liveIDs = replicas[device].items.keys.sorted()
            let deadIDs = replicas[device].tombstones.keys.sorted()
            let before = replicas[device]
            switch roll {
            case 0..<8:
                operations["add", default: 0] += 1
                try add(device)
            case 8..<35 where !liveIDs.isEmpty:
                operations["edit", default: 0] += 1
                let id = liveIDs[Int.random(in: 0..<liveIDs.count, using: &random)]
                let field = [ItemField.title, .place, .note, .sortKey, .start][Int.random(in: 0..<5, using: &random)]
                let value: FieldValue
                switch field {
                case .start:
                    let day = LocalDate(year: 2027, month: 6, day: Int.random(in: 1...28, using: &random))
                    value = .time(day.map { .date($0) })
                case .sortKey: value = .text(["A", "V", "k", "Vx"][Int.random(in: 0..<4, using: &random)])
                default: value = .text(nextValue(field.rawValue))
                }
                let now = tick(device)
                try replicas[device].set(field, of: id, to: value, hlc: &clocks[device], now: now)
                record(device, before: before)
            case 35..<42 where !liveIDs.isEmpty:
                operations["delete", default: 0] += 1
                let id = liveIDs[Int.random(in: 0..<liveIDs.count, using: &random)]
                let now = tick(device)
                try replicas[device].deleteItem(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &clocks[device], now: now)
                record(device, before: before)
            case 42..<47 where !deadIDs.isEmpty:
                operations["restore", default: 0] += 1
                let id = deadIDs[Int.random(in: 0..<deadIDs.count, using: &random)]
                let now = tick(device)
                try replicas[device].restoreItem(id, hlc: &clocks[device], now: now)
                record(device, before: before, clear: id, restamp: true)
            case 47..<52:
                // Resolve a conflict: keep one of the listed values (a write that has seen them all).
                guard let (id, item) = replicas[device].items.first(where: { $0.value.title?.conflicts.isEmpty == false }),
                    let title = item.title
                else { return }
                operations["resolve", default: 0] += 1
                let keep = title.versions[Int.random(in: 0..<title.versions.count, using: &random)].value
                let now = tick(device)
                try replicas[device].set(.title, of: id, to: .text(keep), force: true, hlc: &clocks[device], now: now)
                record(device, before: before)
            case 52..<56:
                // Compaction far past the retention: only bodies every device acknowledged go. The
                // histories span minutes, and the age is measured by every device's acknowledged
                // counters, so the policy here is no retention at all: what matters is which dots
                // every device acknowledged and whether a surviving delete had seen them.
                operations["compact", default: 0] += 1
                let now = UTCTimestamp(secondsSinceEpoch: Int64(tick(device) / 1000) + 100 * 86_400)
                let policy = RetentionPolicy(retentionDays: 0)
                let ids = replicas[device].compactableTombstones(now: now, policy: policy)
                for id in ids {
                    guard let tombstone = replicas[device].tombstones[id] else { continue }
                    let dots = tombstone.item.dots.map { (field: $0.field.rawValue, rev: $0.rev) }
                    checkNoTypedWork(dots, of: id, deletes: tombstone.deleted, field: "deleted")
                    for dot in dots { compacted.insert(dot.rev) }
                }
                for id in replicas[device].compactableAttachments(now: now, policy: policy) {
                    operations["compact attachment", default: 0] += 1
                    guard let attachment = replicas[device].attachments[id], let deleted = attachment.deleted else { continue }
                    let dots = attachment.dots.filter { $0.field != "deleted" }
                    checkNoTypedWork(dots, of: id, deletes: deleted, field: "attachment.deleted")
                    for dot in dots { compacted.insert(dot.rev) }
                }
                replicas[device].compact(now: now, policy: policy)
            case 66..<70 where !liveIDs.isEmpty:
                // Two people attaching at once never conflict: each attachment has its own id.
                operations["attach", default: 0] += 1
                let item = liveIDs[Int.random(in: 0..<liveIDs.count, using: &random)]
                let digest = String(repeating: String(Int.random(in: 0..<10, using: &random)), count: 64)
                let now = tick(device)
                try replicas[device].attach(
                    Identifier.random(using: &random), item: item, blob: BlobReference(sha256: digest, size: Int64(valueCounter), type: "image/jpeg"),
                    name: nextValue("photo") + ".jpg", caption: Bool.random(using: &random) ? nextValue("caption") : nil, hlc: &clocks[device], now: now)
                record(device, before: before)
            case 70..<75 where !replicas[device].attachments.isEmpty:
                let ids = replicas[device].attachments.keys.sorted()
                let id = ids[Int.random(in: 0..<ids.count, using: &random)]
                let now = tick(device)
                if replicas[device].attachments[id]?.isDetached == true {
                    // A compacted stub keeps too little to restore (restoreAttachment refuses it).
                    if Bool.random(using: &random), replicas[device].attachments[id]?.item != nil {
                        operations["restore attachment", default: 0] += 1
                        try replicas[device].restoreAttachment(id, hlc: &clocks[device], now: now)
                        record(device, before: before, clear: id, restamp: true)
                    }
                } else if Int.random(in: 0..<3, using: &random) == 0 {
                    operations["detach", default: 0] += 1
                    try replicas[device].detach(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &clocks[device], now: now)
                    record(device, before: before)
                } else {
                    operations["caption", default: 0] += 1
                    try replicas[device].setCaption(id, to: nextValue("caption"), hlc: &clocks[device], now: now)
                    record(device, before: before)
                }
            case 75..<79:
                // A long absence starts or ends: away, a device neither publishes nor receives.
                if away.contains(device) {
                    operations["back", default: 0] += 1
                    away.remove(device)
                    let other = Int.random(in: 0..<devices.count, using: &random)
                    if !away.contains(other) {
                        try receive(device, publish(other))
                        try receive(other, publish(device))
                    }
                } else if away.count + 1 < devices.count {
                    operations["away", default: 0] += 1
                    away.insert(device)
                    // Weeks pass for everyone.
                    for index in wall.indices { wall[index] += 40 * 86_400_000 }
                }
            case 79..<82:
                // A person deletes again an item edited while deleted, having seen the edits.
                guard let id = deadIDs.first(where: { !replicas[device].editedWhileDeleted($0).isEmpty }) else { return }
                operations["delete again", default: 0] += 1
                let now = tick(device)
                try replicas[device].deleteItem(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &clocks[device], now: now)
                #expect(replicas[device].editedWhileDeleted(id).isEmpty)
                record(device, before: before)
            case 56..<62 where !snapshots.isEmpty && !away.contains(device):
                // Replay a stale backup.
                operations["stale", default: 0] += 1
                let stale = snapshots[Int.random(in: 0..<snapshots.count, using: &random)]
                try receive(device, stale)
            case 62..<66:
                // A duplicated and reordered pair of inputs, as cloud conflicted copies give.
                let other = Int.random(in: 0..<devices.count, using: &random)
                let third = Int.random(in: 0..<devices.count, using: &random)
                guard away.isDisjoint(with: [device, other, third]) else { return }
                operations["duplicates", default: 0] += 1
                let x = publish(other)
                let y = publish(third)
                try receive(device, y)
                try receive(device, x)
                try receive(device, y)
            default:
                let other = Int.random(in: 0..<devices.count, using: &random)
                guard !away.contains(device), !away.contains(other) else { return }
                operations["exchange", default: 0] += 1
                try receive(device, publish(other))
            }
            if Int.random(in: 0..<10, using: &random) == 0 { snapshots.append(replicas[device]) }
        }

        /// The file a device publishes: its state with its own acks entry set.
        mutating func publish(_ device: Int) -> TripDocument {
            replicas[device].acknowledgeOwnState()
            return replicas[device]
        }

        mutating func receive(_ device: Int, _ file: TripDocument) throws {
            replicas[device] = try DocumentMerger.merge(replicas[device], file, writer: devices[device])
        }

        /// The reference's check of one compaction: every dropped dot was seen by a delete that
        /// survives in `deletes` (the log's `seen` of that delete, not the document's). A dot
        /// no surviving delete had seen was written while deleted: typed work, never dropped.
        mutating func checkNoTypedWork<Field>(_ dots: [(field: Field, rev: Rev)], of id: ItemID, deletes: Register<Deletion>, field: String) {
            let surviving = Set(deletes.versions.map(\.rev))
            let decisions = log.filter { $0.key == RegisterKey(item: id, field: field) && $0.dot.map(surviving.contains) == true }
            for dot in dots where !decisions.contains(where: { $0.seen?.sees(dot.rev) == true }) {
                lostTypedWork.append("\(id)/\(dot.field): \(dot.rev) written while deleted was compacted")
            }
        }

        mutating func exchangeEverything() throws {
            away = []
            for _ in 0..<2 {
                for source in devices.indices {
                    let file = publish(source)
                    for target in devices.indices where target != source { try receive(target, file) }
                }
            }
        }

        /// The reference: which dots survive in each register.
        func expectedSurvivors() -> [RegisterKey: Set<Rev>] {
            var byKey: [RegisterKey: [Write]] = [:]
            for write in log { byKey[write.key, default: []].append(write) }
            var result: [RegisterKey: Set<Rev>] = [:]
            for (key, writes) in byKey {
                var survivors: Set<Rev> = []
                for write in writes {
                    guard let dot = write.dot, !compacted.contains(dot) else { continue }
                    if !writes.contains(where: { $0.dot != dot && $0.replaces(dot) }) { survivors.insert(dot) }
                }
                if !survivors.isEmpty { result[key] = survivors }
            }
            return result
        }
    }

    /// The dots per register actually in a document.
    static func actualSurvivors(_ document: TripDocument) -> [MergeSimulationTests.RegisterKey: Set<Rev>] {
        var result: [RegisterKey: Set<Rev>] = [:]
        for (slot, revs) in document.registerVersions() {
            guard let item = slot.item else { continue }
            result[RegisterKey(item: item, field: slot.field)] = revs
        }
        return result
    }

    static var historyCount: Int {
        ProcessInfo.processInfo.environment["TRIPSYNC_SIM_HISTORIES"].flatMap(Int.init) ?? 1500
    }

    @Test func randomHistoriesConvergeAndLoseNothing() throws {
        var totals: [String: Int] = [:]
        for seed in 0..<UInt64(Self.historyCount) {
            var simulation = try Simulation(seed: seed)
            let steps = Int.random(in: 10...60, using: &simulation.random)
            for _ in 0..<steps { try simulation.step() }
            try simulation.exchangeEverything()
            for (name, count) in simulation.operations { totals[name, default: 0] += count }
            #expect(simulation.lostTypedWork.isEmpty, "seed \(seed): \(simulation.lostTypedWork.prefix(3))")

            // Every replica holds the same trip.
            let fingerprints = Set(simulation.replicas.map(\.fingerprint))
            #expect(fingerprints.count == 1, "seed \(seed): replicas diverged")

            // …which is exactly the reference's: no value lost, none resurrected.
            let expected = simulation.expectedSurvivors()
            let actual = Self.actualSurvivors(simulation.replicas[0])
            let differing = Set(actual.keys).union(expected.keys).filter { actual[$0] != expected[$0] }
            #expect(differing.isEmpty, "seed \(seed): merge differs from the reference model at \(differing.prefix(3).map { "\($0.item)/\($0.field): \(actual[$0] ?? []) vs expected \(expected[$0] ?? [])" })")
            if actual != expected || fingerprints.count != 1 { return }

            // An item is deleted exactly while a delete dot survives.
            let document = simulation.replicas[0]
            for (key, _) in expected where key.field == "deleted" {
                #expect(document.tombstones[key.item] != nil && document.items[key.item] == nil, "seed \(seed)")
            }
            // An attachment is detached exactly while a detach dot survives, and shown exactly
            // while it is live and its item is live.
            for (id, attachment) in document.attachments {
                let detached = expected[RegisterKey(item: id, field: "attachment.deleted")] != nil
                #expect(attachment.isDetached == detached, "seed \(seed): attachment \(id)")
                let itemLive = attachment.item.map { document.items[$0.value] != nil } ?? false
                #expect(document.isShown(id) == (!detached && itemLive), "seed \(seed): attachment \(id)")
            }
            // The result is a valid document, and its canonical form reads back identically.
            #expect(DocumentValidator().issues(in: document).filter { $0.severity == .error }.isEmpty, "seed \(seed)")
            let bytes = document.canonicalJSON()
            let again = try TripFileReader().read(bytes: bytes, file: "sim").document.canonicalJSON()
            #expect(again == bytes, "seed \(seed): canonical round trip changed the bytes")
        }
        // The histories exercised every operation.
        for name in [
            "add", "edit", "delete", "restore", "resolve", "compact", "stale", "duplicates", "exchange", "attach", "caption", "detach",
            "restore attachment", "compact attachment", "away", "back", "delete again",
        ] {
            #expect(totals[name, default: 0] > 0, "no \(name) operations ran")
        }
    }

    @Test func mergeIsCommutativeAssociativeAndIdempotent() throws {
        for seed in 0..<UInt64(Self.historyCount / 3) {
            var simulation = try Simulation(seed: seed &+ 1_000_000)
            let steps = Int.random(in: 5...40, using: &simulation.random)
            for _ in 0..<steps { try simulation.step() }
            let r = simulation.replicas
            let writer = simulation.devices[0]
            let a = r[0], b = r[1], c = r[2]
            let ab = try DocumentMerger.merge(a, b, writer: writer)
            let ba = try DocumentMerger.merge(b, a, writer: writer)
            let commutes = ab.canonicalJSON() == ba.canonicalJSON()
            #expect(commutes, "seed \(seed): not commutative")
            let left = try DocumentMerger.merge(ab, c, writer: writer)
            let right = try DocumentMerger.merge(a, try DocumentMerger.merge(b, c, writer: writer), writer: writer)
            let associates = left.canonicalJSON() == right.canonicalJSON()
            #expect(associates, "seed \(seed): not associative")
            let idempotent = try DocumentMerger.merge(a, a, writer: a.deviceID) == a
            #expect(idempotent, "seed \(seed): not idempotent")
            let absorbs = try DocumentMerger.merge(ab, b, writer: writer) == ab
            #expect(absorbs, "seed \(seed): merging again changed the result")
        }
    }
}
