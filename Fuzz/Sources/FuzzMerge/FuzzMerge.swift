import FuzzSupport
@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// libFuzzer entry point: the fuzz bytes are a script of local edits and exchanges between
/// two or three replicas of one trip, all through the public editing API. After the script,
/// every pair of replicas (and saved snapshots) must obey the merge laws, every document must
/// be valid and round-trip, and after everyone has exchanged with everyone the replicas must
/// hold the same trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMergeTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    var script = Script(bytes)
    var simulation = Simulation(&script)
    simulation.run(&script)
    simulation.check()
    return 0
}

/// The fuzz bytes, read one at a time; zeros once they run out.
struct Script {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> Int {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return Int(bytes[index])
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[byte() % choices.count] }
}

/// Fixed values, so every input replays exactly.
enum Pool {
    static let trip = Identifier("7a1b0000-0000-4000-8000-000000000001")!
    /// Device ids; their order matters when two writes share a counter (the greater id wins).
    static let devices = [
        Identifier("d0000000-0000-4000-8000-00000000000a")!,
        Identifier("30000000-0000-4000-8000-00000000000b")!,
        Identifier("d0000000-0000-4000-8000-00000000000c")!,
    ]
    /// Few item ids, so replicas often touch the same items (even add the same id concurrently).
    static let items = (1...6).map { Identifier("1e000000-0000-4000-8000-00000000000\($0)")! }
    static let titles = ["Dinner", "Lunch", "Museum", "Dinner at Cantinho", "Ünïcödé ✈︎ trip", String(repeating: "t", count: 200)]
    static let sortKeys = ["V", "A", "k", "Vx", "z9", "0001"]
    static let places: [String?] = [nil, "Lisbon", "Porto", "", "Café \"A Brasileira\""]
    static let notes: [String?] = [nil, "Bring tickets", "Line one\nline two\tand a tab", ""]
    static let times: [TripTime?] = {
        func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int, _ zone: String) -> TripTime? {
            LocalDate(year: y, month: m, day: d).flatMap { LocalDateTime(date: $0, hour: h, minute: min) }.map { .local($0, zone: zone) }
        }
        return [
            nil,
            LocalDate(year: 2027, month: 6, day: 10).map { .date($0) },
            local(2027, 6, 10, 10, 0, "Europe/Lisbon"),
            local(2027, 6, 10, 5, 0, "America/New_York"),
            local(2027, 3, 28, 1, 30, "Europe/Lisbon"),  // in the spring-forward gap
            local(2027, 10, 31, 1, 30, "Europe/Lisbon"),  // in the fall-back overlap
            LocalDate(year: 2027, month: 6, day: 9).map { .date($0) },
        ]
    }()
    static let start: UInt64 = 1_800_000_000_000
}

struct Simulation {
    var replicas: [TripDocument] = []
    var clocks: [HybridLogicalClock] = []
    var wall: [UInt64] = []
    var snapshots: [TripDocument] = []
    var log: [String] = []

    init(_ script: inout Script) {
        let count = 2 + script.byte() % 2
        let creator = Pool.devices[0]
        var first = TripDocument(
            tripID: Pool.trip, deviceID: creator, clock: VersionVector(),
            trip: TripInfo(name: Register(value: "Trip", rev: Rev(counter: Pool.start, device: creator))))
        first.clock.include(first.trip.name.rev)
        for index in 0..<count {
            var copy = first
            copy.deviceID = Pool.devices[index]
            replicas.append(copy)
            clocks.append(HybridLogicalClock(highWater: Pool.start))
            wall.append(Pool.start + UInt64(script.byte() % 4))
        }
    }

    /// Runs the script: at most 96 operations.
    mutating func run(_ script: inout Script) {
        var steps = 0
        while !script.isAtEnd, steps < 96 {
            steps += 1
            step(&script)
        }
    }

    mutating func step(_ script: inout Script) {
        let operation = script.byte()
        let r = script.byte() % replicas.count
        // Small wall-clock steps (often none): equal counters on different devices happen.
        wall[r] += UInt64(operation >> 4 & 3)
        let now = wall[r]
        switch operation % 13 {
        case 0:
            let id = script.pick(Pool.items)
            let item = NewItem(
                title: script.pick(Pool.titles), sortKey: script.pick(Pool.sortKeys), start: script.pick(Pool.times),
                end: script.pick(Pool.times), place: script.pick(Pool.places), note: script.pick(Pool.notes))
            log.append("r\(r) add \(id)")
            try? replicas[r].addItem(id, item, hlc: &clocks[r], now: now)
        case 1, 2, 3:
            let id = script.pick(Pool.items)
            let field = script.pick(ItemField.allCases)
            let force = script.byte() & 1 == 1
            let value: FieldValue
            switch field {
            case .title: value = .text(script.pick(Pool.titles))
            case .sortKey: value = .text(script.pick(Pool.sortKeys))
            case .place: value = .text(script.pick(Pool.places))
            case .note: value = .text(script.pick(Pool.notes))
            case .start, .end: value = .time(script.pick(Pool.times))
            }
            log.append("r\(r) set \(field) of \(id)\(force ? " (force)" : "")")
            _ = try? replicas[r].set(field, of: id, to: value, force: force, hlc: &clocks[r], now: now)
        case 4:
            let id = script.pick(Pool.items)
            log.append("r\(r) delete \(id)")
            try? replicas[r].deleteItem(id, at: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000)), hlc: &clocks[r], now: now)
        case 5:
            let id = script.pick(Pool.items)
            log.append("r\(r) restore \(id)")
            try? replicas[r].restoreItem(id, hlc: &clocks[r], now: now)
        case 6:
            log.append("r\(r) ack")
            replicas[r].acknowledgeOwnState()
        case 7:
            // Compaction 0, 60, 120 or 180 days later: past the 90-day retention half the time.
            let days = Int64(script.byte() % 4) * 60
            log.append("r\(r) compact +\(days)d")
            replicas[r].compact(now: UTCTimestamp(secondsSinceEpoch: Int64(now / 1000) + days * 86_400))
        case 8, 9, 10:
            let s = script.byte() % replicas.count
            if script.byte() & 1 == 1 { replicas[s].acknowledgeOwnState() }
            log.append("r\(r) receives r\(s)")
            receive(r, replicas[s])
        case 11:
            if snapshots.count < 4 {
                log.append("snapshot r\(r)")
                snapshots.append(replicas[r])
            } else if !snapshots.isEmpty {
                let k = script.byte() % snapshots.count
                log.append("r\(r) receives snapshot \(k)")
                receive(r, snapshots[k])
            }
        default:
            // A wall clock jump of up to about four hours, or all clocks set equal.
            let minutes = script.byte()
            if minutes == 0 {
                let top = wall.max() ?? Pool.start
                for index in wall.indices { wall[index] = top }
                log.append("walls equal")
            } else {
                wall[r] += UInt64(minutes) * 60_000
                log.append("r\(r) wall +\(minutes)min")
            }
        }
    }

    mutating func receive(_ r: Int, _ file: TripDocument) {
        do {
            replicas[r] = try DocumentMerger.merge(replicas[r], file, writer: replicas[r].deviceID)
        } catch {
            violated("merge refused between replicas of one trip edited only through the API: \(error)\n\(history)")
        }
    }

    var history: String { "history:\n  " + log.joined(separator: "\n  ") }

    /// The laws on every pair and triple, validity, then convergence after a full exchange.
    mutating func check() {
        let documents = replicas + snapshots
        for (index, document) in documents.enumerated() {
            Properties.requireValid(document, "document \(index)\n\(history)")
            Properties.requireRoundTrip(document, "document \(index)\n\(history)")
            Properties.requireIdempotent(document, "document \(index)\n\(history)")
        }
        // Every pair with at least one replica in it (documents 0..<replicas.count); the
        // reader's side of merged documents is FuzzRead's job, so no round trip here.
        for i in replicas.indices {
            for j in documents.indices where j > i {
                let writer = documents[i].deviceID
                let merged = Properties.requireMergeLaws(
                    documents[i], documents[j], writer: writer, roundTrip: false, "documents \(i) · \(j)\n\(history)")
                if merged == nil { violated("documents \(i) and \(j) of one trip do not merge\n\(history)") }
            }
        }
        if documents.count >= 3 {
            Properties.requireAssociative(documents[0], documents[1], documents[2], writer: documents[0].deviceID, "documents 0, 1, 2\n\(history)")
        }
        if documents.count >= 4 {
            Properties.requireAssociative(documents[3], documents[0], documents[1], writer: documents[1].deviceID, "documents 3, 0, 1\n\(history)")
        }
        // Everyone publishes to everyone, twice: the replicas converge.
        for _ in 0..<2 {
            for source in replicas.indices {
                replicas[source].acknowledgeOwnState()
                let file = replicas[source]
                for target in replicas.indices where target != source { receive(target, file) }
            }
        }
        let fingerprints = Set(replicas.map(\.fingerprint))
        if fingerprints.count != 1 { violated("replicas diverged after a full exchange\n\(history)") }
        for (index, replica) in replicas.enumerated() {
            Properties.requireValid(replica, "replica \(index) after the full exchange\n\(history)")
        }
        Properties.requireRoundTrip(replicas[0], "replica 0 after the full exchange\n\(history)")
    }
}
