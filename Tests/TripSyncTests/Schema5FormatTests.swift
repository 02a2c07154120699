import Foundation
import Testing
import TripSyncFixtures

@testable import TripSync
@testable import TripSyncCore

/// Schema 5's format (docs/FORMAT.md, "Schema 5"): the trip's zone register, the member's name
/// inside the signed grant, successions; read, written, merged, refused in older files.
@Suite struct Schema5FormatTests {
    static let owner = SigningKey(seed: Array(repeating: 7, count: 32))!
    static let deviceKeys = (1...3).map { SigningKey(seed: Array(repeating: UInt8($0), count: 32))! }

    /// An owned trip with two members, a trip zone and a succession, and its two devices.
    static func document() -> (TripDocument, [DeviceID]) {
        var document = smallDocument()
        let devices = Array(document.clock.entries.keys.sorted().prefix(2))
        let a = devices[0]
        var counter = document.clock[a]
        func stamp() -> Rev {
            counter += 1
            document.clock.include(Rev(counter: counter, device: a))
            return Rev(counter: counter, device: a)
        }
        document.owner = TripOwner(trip: document.tripID, ownerKey: owner)
        for (index, device) in devices.enumerated() {
            document.members[device] = MemberGrant(
                device: device, key: deviceKeys[index].publicKey, name: "Laptop \(index)", role: index == 0 ? .owner : .editor,
                rev: stamp(), seen: nil, trip: document.tripID, ownerKey: owner)
        }
        document.trip.zone = Register(value: "Europe/Madrid", rev: stamp())
        let successor = Identifier("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c99")!
        document.successions[successor] = Succession(
            from: devices[1], to: successor, key: deviceKeys[2].publicKey, trip: document.tripID, signingKey: deviceKeys[1])
        return (document, devices)
    }

    @Test func theAdditionsRoundTripCanonically() throws {
        let (document, devices) = Self.document()
        let bytes = document.canonicalJSON()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"schemaVersion\":7"))
        #expect(text.contains("\"trip\":{\"name\":"))
        #expect(text.contains(",\"zone\":{\"rev\":"))
        #expect(text.contains("\"name\":\"Laptop 1\",\"rev\":"))
        #expect(text.contains("\"successions\":{\"5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c99\":{\"from\":\"\(devices[1])\""))
        let read = try readTrip(bytes).get()
        #expect(read.warnings.isEmpty)
        #expect(read.document == document)
        #expect(read.document.canonicalJSON() == bytes)
        // A named grant is signed over the v2 message; the name is covered.
        let grant = try #require(read.document.members[devices[1]])
        #expect(grant.signedMessage(trip: document.tripID, device: devices[1]).starts(with: Array("tripsync-member-v2\n".utf8)))
        var renamed = grant
        renamed.name = "Eve laptop"
        #expect(!renamed.isSigned(by: Self.owner.publicKey, trip: document.tripID, device: devices[1]))
        // A succession verifies with the old device's key only.
        let (to, succession) = try #require(read.document.successions.first)
        #expect(succession.isSigned(by: Self.deviceKeys[1].publicKey, trip: document.tripID, to: to))
        #expect(!succession.isSigned(by: Self.deviceKeys[0].publicKey, trip: document.tripID, to: to))
    }

    /// Without the additions, schema 5 writes none of the three keys (all optional).
    @Test func absentAdditionsAreNotWritten() {
        let text = String(decoding: smallDocument().canonicalJSON(), as: UTF8.self)
        #expect(!text.contains("\"successions\"") && !text.contains("\"zone\":{\"rev\""))
        #expect(text.contains("\"schemaVersion\":7"))
    }

    /// A schema 4 file holding a schema 5 key is refused at that key's pointer.
    @Test(arguments: [
        ("\"trip\":{\"name\":", "\"trip\":{\"zone\":{\"rev\":[1,\"DEV\"],\"value\":\"Europe/Madrid\"},\"name\":", "/trip/zone"),
        ("\"tombstones\":{", "\"successions\":{},\"tombstones\":{", "/successions"),
    ])
    func schema5KeysInASchema4FileAreRefused(anchor: String, replacement: String, pointer: String) throws {
        let document = smallDocument()
        let device = try #require(document.clock.entries.keys.sorted().first)
        let text = String(decoding: document.canonicalJSON(), as: UTF8.self)
            .replacingOccurrences(of: "\"schemaVersion\":7", with: "\"schemaVersion\":4")
            .replacingOccurrences(of: anchor, with: replacement.replacingOccurrences(of: "DEV", with: device.description))
        guard case .failure(let error) = readTrip(bytes(text)) else {
            Issue.record("a schema 4 file with \(pointer) was read")
            return
        }
        #expect(error.issues.contains { $0.pointer == pointer && $0.message.contains("a schema 5 key in a schema 4 file") }, "\(error.issues)")
    }

    /// trip.zone is checked like any register: its dot within the clock, a zone id's shape, an
    /// unknown zone a warning.
    @Test func theTripZoneIsCheckedLikeAnyRegister() throws {
        var (document, devices) = Self.document()
        document.trip.zone = Register(value: "Mars/Olympus_Mons", rev: Rev(counter: document.clock[devices[0]], device: devices[0]))
        let warned = try readTrip(document.canonicalJSON()).get()
        #expect(warned.warnings.map(\.pointer) == ["/trip/zone/value"])
        let above = String(decoding: document.canonicalJSON(), as: UTF8.self).replacingOccurrences(
            of: "\"zone\":{\"rev\":[\(document.clock[devices[0]]),", with: "\"zone\":{\"rev\":[\(document.clock[devices[0]] + 1),")
        guard case .failure(let error) = readTrip(bytes(above)) else {
            Issue.record("a trip zone dot above the clock was read")
            return
        }
        #expect(error.issues.contains { $0.pointer == "/trip/zone/rev" }, "\(error.issues)")
        let offset = String(decoding: document.canonicalJSON(), as: UTF8.self).replacingOccurrences(of: "Mars/Olympus_Mons", with: "+01:00")
        guard case .failure(let refused) = readTrip(bytes(offset)) else {
            Issue.record("a fixed offset as trip zone was read")
            return
        }
        #expect(refused.issues.contains { $0.pointer == "/trip/zone/value" && $0.message.contains("IANA") }, "\(refused.issues)")
    }

    /// Merge: trip.zone by the register rule (concurrent writes conflict, a later write wins, a
    /// side that never set it keeps the other's); successions by union, one new id's two
    /// successions resolved by the greater signature bytes on every side.
    @Test func theAdditionsMergeByTheirRules() throws {
        let (base, devices) = Self.document()
        var a = base
        var b = base
        b.deviceID = devices[1]
        let next = base.clock.maxCounter + 1
        a.trip.zone?.write("Europe/Lisbon", rev: Rev(counter: next, device: devices[0]))
        a.clock.include(Rev(counter: next, device: devices[0]))
        b.trip.zone?.write("Asia/Tokyo", rev: Rev(counter: next, device: devices[1]))
        b.clock.include(Rev(counter: next, device: devices[1]))
        let ab = try DocumentMerger.merge(a, b, writer: devices[0])
        let ba = try DocumentMerger.merge(b, a, writer: devices[0])
        #expect(ab.trip.zone == ba.trip.zone)
        #expect(ab.trip.zone?.hasVisibleConflict == true)
        #expect(Set(ab.trip.zone?.versions.map(\.value) ?? []) == ["Europe/Lisbon", "Asia/Tokyo"])
        // Absent (never set, e.g. migrated) on one side: the other side's register, whole.
        var migrated = base
        migrated.trip.zone = nil
        #expect(try DocumentMerger.merge(migrated, a, writer: devices[0]).trip.zone == a.trip.zone)
        #expect(try DocumentMerger.merge(a, migrated, writer: devices[0]).trip.zone == a.trip.zone)
        // Successions: union, and a deterministic winner under one new id: a fixed order (the
        // smaller old id, then the smaller key), never the greater signature (issue 41; which
        // one holds is decided by validity when a replica accepts files).
        let other = Identifier("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c98")!
        let (to, succession) = try #require(base.successions.first)
        var c = base
        c.successions[other] = Succession(from: devices[0], to: other, key: Self.deviceKeys[2].publicKey, trip: base.tripID, signingKey: Self.deviceKeys[0])
        var d = base
        d.successions[to] = Succession(from: devices[0], to: to, key: Self.deviceKeys[2].publicKey, trip: base.tripID, signingKey: Self.deviceKeys[0])
        let cd = try DocumentMerger.merge(c, d, writer: devices[0])
        let dc = try DocumentMerger.merge(d, c, writer: devices[0])
        #expect(cd.successions == dc.successions)
        #expect(Set(cd.successions.keys) == [to, other])
        let kept = try #require(cd.successions[to])
        let dropped = kept == succession ? d.successions[to] : succession
        let loser = try #require(dropped)
        #expect(kept.from != loser.from ? kept.from < loser.from : kept.key.bytes.lexicographicallyPrecedes(loser.key.bytes))
    }

    /// A trip-zone conflict is listed with the trip's registers, counted, and boxed on the page
    /// with the command that settles it.
    @Test func aTripZoneConflictIsListedCountedAndShown() throws {
        let (base, devices) = Self.document()
        var document = base
        let next = base.clock.maxCounter + 1
        document.trip.zone = Register(versions: [
            Versioned(value: "Europe/Lisbon", rev: Rev(counter: next, device: devices[0])),
            Versioned(value: "Asia/Tokyo", rev: Rev(counter: next, device: devices[1])),
        ])
        document.clock.include(Rev(counter: next, device: devices[0]))
        document.clock.include(Rev(counter: next, device: devices[1]))
        let list = ConflictList(document)
        #expect(list.registers.contains { $0.subject == .tripZone })
        #expect(document.visibleConflictCount == 1)
        let html = ItineraryPage(document, generatedAt: UTCTimestamp(secondsSinceEpoch: 1_780_000_000)).html
        #expect(html.contains("Trip zone set on more than one device") && html.contains("tripsync resolve trip zone"))
        #expect(html.contains("id=\"conflict-1\""))
        // Named by the grants: never by `devices`.
        #expect(html.contains("Laptop 0") && html.contains("Laptop 1"))
    }

    /// Migration 4 → 5 adds nothing: a schema 4 file reads with no zone, no names, no successions.
    @Test func migrationFromSchema4AddsNothing() throws {
        let document = smallDocument()
        let text = String(decoding: document.canonicalJSON(), as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":7", with: "\"schemaVersion\":4")
        let read = try readTrip(bytes(text)).get()
        #expect(read.sourceSchemaVersion == 4)
        #expect(read.migration?.steps == ["4→5: no trip zone, member names or successions yet", "5→6: no encryption keys in grants yet", "6→7: no sealed attachment bytes yet"])
        #expect(read.document.canonicalJSON() == document.canonicalJSON())
    }
}
