import Foundation
import Testing

@testable import TripSync
@testable import TripSyncPlatform
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// The one walk over a document's registers (`TripDocument.walkRegisters`) visits every
/// register, of every kind, once: a register added to the document that the walk misses fails
/// here, before any of the walks built on it (fork checks, re-keys, status, metrics) drift.
@Suite struct RegisterWalkTests {
    static let me = Identifier(high: 1, low: 1)
    static let other = Identifier(high: 2, low: 2)

    /// A document holding every kind of register: the trip's name and zone, device names, every
    /// field of a live item, a tombstone with its delete and every field its item keeps, and an
    /// attachment with all five registers; one register holds a conflict.
    static func everyKind() -> TripDocument {
        var counter: UInt64 = 1_700_000_000_000
        func rev(_ device: DeviceID = me) -> Rev {
            counter += 1
            return Rev(counter: counter, device: device)
        }
        func fields(_ title: String) -> ItemFields {
            ItemFields(
                title: Register(value: title, rev: rev()), sortKey: Register(value: "m", rev: rev()),
                start: Register(value: nil, rev: rev()), end: Register(value: nil, rev: rev()),
                place: Register(value: "Alfama", rev: rev()), note: Register(value: "bring water", rev: rev()))
        }
        let first = rev()
        var conflicted = Register(value: "Lisbon", rev: first)
        conflicted.conflicts = [Versioned(value: "Lisboa", rev: Rev(counter: first.counter - 1, device: other))]
        let live = Identifier(high: 10, low: 1)
        let gone = Identifier(high: 10, low: 2)
        let attachment = Identifier(high: 20, low: 1)
        var clock = VersionVector()
        let trip = TripInfo(name: conflicted, zone: Register(value: "Europe/Lisbon", rev: rev()))
        let devices = [me: DeviceInfo(name: Register(value: "Sam's laptop", rev: rev())), other: DeviceInfo(name: Register(value: "Alex's", rev: rev(other)))]
        let items = [live: fields("Castelo")]
        let deletion = Deletion(at: UTCTimestamp(secondsSinceEpoch: 1_700_000_000), seen: VersionVector())
        let tombstones = [gone: Tombstone(deleted: Register(value: deletion, rev: rev()), item: fields("Fado"))]
        let attachments = [
            attachment: Attachment(
                item: Register(value: live, rev: rev()), blob: Register(value: BlobReference(sha256: String(repeating: "a", count: 64), size: 3, type: "image/jpeg"), rev: rev()),
                name: Register(value: "tram.jpg", rev: rev()), caption: Register(value: "Tram 28", rev: rev()), deleted: Register(value: deletion, rev: rev()))
        ]
        clock[me] = counter
        clock[other] = counter
        return TripDocument(
            tripID: Identifier(high: 3, low: 3), deviceID: me, clock: clock, trip: trip, devices: devices, items: items, tombstones: tombstones,
            attachments: attachments)
    }

    struct Paths: RegisterVisitor {
        var paths: [RegisterPath] = []
        var versions = 0
        mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath) {
            paths.append(path)
            versions += register.versions.count
        }
    }

    /// How many `Register` values the document holds, found by reflection over every stored
    /// property (so a register the walk does not know of is counted too).
    static func reflectedRegisterCount(_ value: Any) -> (registers: Int, versions: Int) {
        var registers = 0
        var versions = 0
        func visit(_ value: Any) {
            let mirror = Mirror(reflecting: value)
            if String(describing: mirror.subjectType).hasPrefix("Register<") {
                registers += 1
                versions += 1 + versionCount(value)  // the winner, and each conflict
                return
            }
            for child in mirror.children { visit(child.value) }
        }
        func versionCount(_ register: Any) -> Int {
            // The conflicts: the `Versioned` values a register holds besides its winner.
            var count = 0
            func walk(_ value: Any) {
                let mirror = Mirror(reflecting: value)
                if String(describing: mirror.subjectType).hasPrefix("Versioned<") {
                    count += 1
                    return
                }
                for child in mirror.children { walk(child.value) }
            }
            walk(register)
            return count
        }
        visit(value)
        return (registers, versions)
    }

    @Test func theWalkVisitsEveryKindOfRegister() {
        let document = Self.everyKind()
        var visitor = Paths()
        document.walkRegisters(&visitor)
        #expect(Set(visitor.paths.map(\.kind)) == Set(RegisterPath.Kind.allCases))
        #expect(Set(visitor.paths).count == visitor.paths.count, "each register once")
    }

    /// Every register the document holds, found by reflection, is one the walk visits, with
    /// every version: a new register kind added to the model without the walk fails here.
    @Test func theWalkMissesNoRegisterOfTheDocument() {
        let document = Self.everyKind()
        var visitor = Paths()
        document.walkRegisters(&visitor)
        let reflected = Self.reflectedRegisterCount(document)
        #expect(reflected.registers == visitor.paths.count)
        #expect(reflected.versions == visitor.versions)
        var revs = 0
        document.forEachVersionRev { _, _ in revs += 1 }
        #expect(revs == visitor.versions)
        #expect(document.allDots().count == visitor.versions)
    }

    /// The walks built on it agree with it: the team metrics count every version, the delivery
    /// status every version of ours, a re-stamp through `updateRegisters` reaches every register.
    @Test func theWalksBuiltOnItSeeEveryRegister() {
        let document = Self.everyKind()
        var visitor = Paths()
        document.walkRegisters(&visitor)
        let metrics = TeamMetrics(document, me: Self.me, now: UTCTimestamp(secondsSinceEpoch: 1_700_000_100))
        #expect(metrics.changes == visitor.versions)
        let status = DeliveryStatus(document, me: Self.me, now: UTCTimestamp(secondsSinceEpoch: 1_700_000_100))
        #expect(status.changes.count == visitor.versions - 2, "every version but the other device's two")
        #expect(Set(status.changes.map(\.field)).isSuperset(of: ["trip name", "trip zone", "device name", "delete", "caption", "detach", "attachment"]))
        var moved = document
        let third = Identifier(high: 4, low: 4)
        moved.mapRegisterVersions { Rev(counter: $0.counter, device: $0.device == Self.me ? third : $0.device) }
        var after = Paths()
        moved.walkRegisters(&after)
        var ours = 0
        moved.forEachVersionRev { _, rev in if rev.device == Self.me { ours += 1 } }
        #expect(ours == 0)
        #expect(after.paths.count == visitor.paths.count)
        // A viewer's trip zone is its content: the membership check sees it (it once did not).
        var zoneOnly = document
        zoneOnly.trip.zone = Register(value: "Europe/Porto", rev: Rev(counter: document.clock[Self.other] + 5, device: Self.other))
        #expect(zoneOnly.hasContent(of: Self.other, above: document.clock[Self.other]))
    }
}
