import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome

/// Roles through successions (`Seat`), clock recovery (`ClockRecovery`) and the one re-key
/// decision (`ForkCheck`) at the library's level (issue 25 findings 2 and 3, issue 26 finding 1).
@Suite struct SuccessionTests {
    let start: UInt64 = 1_764_000_000_000

    /// An owned trip: the owner device, and `roles` granted to new devices (with their keys).
    func trip(_ roles: [MemberRole]) throws -> (document: TripDocument, owner: SigningKey, devices: [(id: DeviceID, key: SigningKey)]) {
        let ownerKey = SigningKey.generate()
        let ownerDevice = (id: Identifier.random(), key: SigningKey.generate())
        let tripID = TripOwner.derivedTripID(for: ownerKey.publicKey)
        var hlc = HybridLogicalClock(highWater: start)
        var document = TripDocument(
            tripID: tripID, deviceID: ownerDevice.id, clock: VersionVector([ownerDevice.id: start]),
            trip: TripInfo(name: Register(value: "Trip", rev: Rev(counter: start, device: ownerDevice.id))))
        try document.claim(ownerKey: ownerKey, deviceKey: ownerDevice.key.publicKey, hlc: &hlc, now: start + 1)
        var devices = [ownerDevice]
        for role in roles {
            let device = (id: Identifier.random(), key: SigningKey.generate())
            try document.grant(device.id, key: device.key.publicKey, role: role, ownerKey: ownerKey, hlc: &hlc, now: start + 2)
            devices.append(device)
        }
        return (document, ownerKey, devices)
    }

    @Test(arguments: [MemberRole.owner, .editor, .viewer, .removed])
    func aSuccessorHasItsPredecessorsRoleNeverAHigherOne(_ role: MemberRole) throws {
        var (document, _, devices) = try trip([role])
        let old = devices[1]
        let new = (id: Identifier.random(), key: SigningKey.generate())
        #expect(document.keepSeat(of: new.id, key: new.key.publicKey, former: [old.id], keys: [old.id: old.key]) == old.id)
        #expect(document.role(of: new.id) == role)
        #expect(document.mayEdit(new.id) == role.mayEdit)
        // A successor of the successor (a home copied twice) too.
        let third = (id: Identifier.random(), key: SigningKey.generate())
        #expect(document.keepSeat(of: third.id, key: third.key.publicKey, former: [old.id, new.id], keys: [new.id: new.key]) == new.id)
        #expect(document.role(of: third.id) == role)
    }

    @Test func aRemovalOfThePredecessorReachesEverySuccessor() throws {
        var (document, ownerKey, devices) = try trip([.editor])
        let old = devices[1]
        let new = (id: Identifier.random(), key: SigningKey.generate())
        _ = document.keepSeat(of: new.id, key: new.key.publicKey, former: [old.id], keys: [old.id: old.key])
        #expect(document.role(of: new.id) == .editor)
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        try document.grant(old.id, key: old.key.publicKey, role: .removed, ownerKey: ownerKey, hlc: &hlc, now: start + 10)
        #expect(document.role(of: new.id) == .removed)
        #expect(!document.mayEdit(new.id))
    }

    /// A succession signed by another key, or one naming a device that has its own grant (the
    /// owner's laptop "succeeding" a removed member), changes nothing.
    @Test func forgedOrMisdirectedSuccessionsChangeNothing() throws {
        var (document, ownerKey, devices) = try trip([.editor, .editor])
        let owner = devices[0]
        let removed = devices[1]
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        try document.grant(removed.id, key: removed.key.publicKey, role: .removed, ownerKey: ownerKey, hlc: &hlc, now: start + 10)
        // The removed member hands "its seat" to the owner's laptop: the owner's own grant decides.
        document.successions[owner.id] = Succession(from: removed.id, to: owner.id, key: owner.key.publicKey, trip: document.tripID, signingKey: removed.key)
        #expect(document.role(of: owner.id) == .owner)
        // A stranger signs a hand-over of an editor's seat with its own key: not taken.
        let stranger = (id: Identifier.random(), key: SigningKey.generate())
        document.successions[stranger.id] = Succession(
            from: devices[2].id, to: stranger.id, key: stranger.key.publicKey, trip: document.tripID, signingKey: stranger.key)
        #expect(document.role(of: stranger.id) == nil)
        // A cycle of successions ends.
        let a = Identifier.random()
        let b = Identifier.random()
        let key = SigningKey.generate()
        document.successions[a] = Succession(from: b, to: a, key: key.publicKey, trip: document.tripID, signingKey: key)
        document.successions[b] = Succession(from: a, to: b, key: key.publicKey, trip: document.tripID, signingKey: key)
        #expect(document.role(of: a) == nil && document.role(of: b) == nil)
    }

    /// A file whose writer is a successor verifies against the new key through `Membership`.
    @Test func membershipTakesASuccessorsFileWholeWithTheNewKey() throws {
        var (document, _, devices) = try trip([.editor])
        let old = devices[1]
        let new = (id: Identifier.random(), key: SigningKey.generate())
        var theirs = document
        theirs.deviceID = new.id
        _ = theirs.keepSeat(of: new.id, key: new.key.publicKey, former: [old.id], keys: [old.id: old.key])
        var hlc = HybridLogicalClock(highWater: theirs.clock.maxCounter)
        try theirs.addItem(Identifier.random(), NewItem(title: "From the restored laptop", sortKey: "V"), hlc: &hlc, now: start + 20)
        let (merged, verdicts) = try Membership.accept([(theirs, new.key.publicKey), (theirs, old.key.publicKey)], into: document)
        #expect(verdicts.first == .whole)
        #expect(verdicts.last != .whole, "the old key does not sign for the new id")
        #expect(merged.items.values.contains { $0.title?.value == "From the restored laptop" })
        #expect(merged.successions[new.id] != nil)
        document = merged
        #expect(document.role(of: new.id) == .editor)
    }

    /// An open trip named by `device` at counter `at`, nothing else in it.
    static func openTrip(by device: DeviceID, at: UInt64) -> TripDocument {
        TripDocument(
            tripID: Identifier.random(), deviceID: device, clock: VersionVector([device: at]), trip: TripInfo(name: Register(value: "Trip", rev: Rev(counter: at, device: device))))
    }

    /// A replica written while the clock ran ten years ahead: after recovery nothing is past the
    /// bound, every value is kept in the order typed, and the document is valid.
    @Test func clockRecoveryMovesValuesFromTheFutureAndKeepsTheDocumentValid() throws {
        let now = start
        let old = Identifier.random()
        let new = Identifier.random()
        let future = now + 10 * 365 * 86_400_000
        var hlc = HybridLogicalClock(highWater: now)
        var document = Self.openTrip(by: old, at: now)
        let first = Identifier.random()
        let second = Identifier.random()
        try document.addItem(first, NewItem(title: "Typed first", sortKey: "V"), hlc: &hlc, now: future)
        try document.addItem(second, NewItem(title: "Typed second", sortKey: "W"), hlc: &hlc, now: future + 5)
        try document.deleteItem(first, at: UTCTimestamp(millisecondsSinceEpoch: future + 9), hlc: &hlc, now: future + 9)
        document.deviceID = new
        var clock = HybridLogicalClock(highWater: now)
        let outcome = ClockRecovery.recover(&document, ours: [old, new], to: new, clock: &clock, ownerKey: nil, now: now + 1_000)
        #expect(outcome.moved > 0)
        #expect(ClockGuard.futureDevice(in: document, nowMilliseconds: now + 1_000) == nil)
        let errors = DocumentValidator().issues(in: document).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        #expect(document.items[second]?.title?.value == "Typed second")
        #expect(document.tombstones[first] != nil, "the delete still holds")
        #expect(ConflictList(document).deletedWhileEdited.isEmpty, "the delete still sees the item it deleted")
        let firstRev = try #require(document.tombstones[first]?.item.title?.rev)
        let secondRev = try #require(document.items[second]?.title?.rev)
        #expect(firstRev.device == new && firstRev < secondRev, "the order typed is kept")
    }

    /// Issue 40: recovery never rewrites a value under another device's dot. Another device's
    /// delete that had seen values of ours from the future keeps its `seen` byte for byte (it
    /// was rewritten, so two replicas held two values under that device's rev, and the owner's
    /// replica became unreadable); the clock stays above what it saw, and the document is valid.
    @Test func clockRecoveryLeavesAnotherDevicesDeleteAsItWasWritten() throws {
        let now = start
        let old = Identifier.random()
        let new = Identifier.random()
        let other = Identifier.random()
        let future = now + 10 * 365 * 86_400_000
        var hlc = HybridLogicalClock(highWater: now)
        var document = Self.openTrip(by: old, at: now)
        let item = Identifier.random()
        try document.addItem(item, NewItem(title: "Typed far ahead", sortKey: "V"), hlc: &hlc, now: future)
        // Another laptop (its clock as far ahead) saw it and deleted it.
        document.deviceID = other
        var otherClock = HybridLogicalClock(highWater: future)
        try document.deleteItem(item, at: UTCTimestamp(millisecondsSinceEpoch: future + 50), hlc: &otherClock, now: future + 50)
        let written = try #require(document.tombstones[item]?.deleted)
        document.deviceID = new
        var clock = HybridLogicalClock(highWater: now)
        _ = ClockRecovery.recover(&document, ours: [old, new], to: new, clock: &clock, ownerKey: nil, now: now + 1_000)
        #expect(document.tombstones[item]?.deleted == written, "another device's delete is its own")
        let errors = DocumentValidator().issues(in: document).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors)")
        #expect(document.clock[old] >= written.value.seen[old])
    }

    /// `import --merge` of another device's file that claims our counters is refused, and the
    /// home keeps its id.
    @Test func importRefusesAnotherDevicesClaimOnOurCounters() throws {
        let folder = NSTemporaryDirectory() + "tripsync-succession-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = Home(path: folder + "/home")
        let (me, document): (DeviceID, TripDocument) = try {
            let store = try TripStore.create(name: "Lisbon", in: home)
            try store.edit { trip in _ = try trip.addItem(NewItem(title: "Fado", sortKey: ""), at: .last) }
            return (store.deviceID, store.document)
        }()
        var hostile = document
        hostile.deviceID = Identifier.random()
        hostile.clock[me] = hostile.clock[me] + 3_600_000
        let path = folder + "/hostile.trip.json"
        try hostile.write(to: path)
        #expect(throws: TripImport.Refusal.self) { _ = try TripImport.prepare(file: path, into: home) }
        #expect(try home.identity().deviceID == me)
    }
}
