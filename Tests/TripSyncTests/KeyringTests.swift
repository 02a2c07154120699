import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncPlatform

/// The keyring of an owned trip (issue 43, layer 3): epoch keys sealed to members, earlier ones
/// reachable from the current one, signed by the owner key; and the rule by which owner
/// laptops decide what to publish, so concurrent rotations converge.
@Suite struct KeyringTests {
    static let trip = DeviceID.random()
    static let owner = SigningKey.generate()

    struct Device {
        let id = DeviceID.random()
        let pair = EncryptionKeyPair.generate()
    }

    static func ring(
        _ current: EpochKey, earlier: [EpochKey] = [], to devices: [Device], writer: DeviceID = .random(), ownerKey: SigningKey = owner,
        trip: TripID = trip
    ) -> Keyring {
        Keyring(
            trip: trip, writer: writer, current: current, earlier: earlier,
            recipients: Dictionary(uniqueKeysWithValues: devices.map { ($0.id, $0.pair.publicKey) }), ownerKey: ownerKey)
    }

    static func parse(_ ring: Keyring, trip: TripID = trip, owner: PublicKey = owner.publicKey) throws -> Keyring {
        try Keyring(parsing: ring.fileBytes, trip: trip, owner: owner)
    }

    @Test func eachMemberOpensTheCurrentKeyAndTheHistoryAndNobodyElseDoes() throws {
        let (a, b, stranger) = (Device(), Device(), Device())
        let e1 = EpochKey.generate(epoch: 1)
        let e2 = EpochKey.generate(epoch: 2)
        let read = try Self.parse(Self.ring(e2, earlier: [e1, e2], to: [a, b]))
        #expect(read.epoch == 2 && read.epochID == e2.id && Set(read.sealed.keys) == [a.id, b.id])
        for member in [a, b] {
            let keys = try #require(read.open(device: member.id, keys: [member.pair]))
            #expect(keys.map(\.id) == [e2.id, e1.id])
            #expect(keys.map { $0.key.withBytes { Array($0) } } == [e2, e1].map { $0.key.withBytes { Array($0) } })
        }
        #expect(read.open(device: stranger.id, keys: [stranger.pair]) == nil)
        #expect(read.open(device: a.id, keys: [b.pair]) == nil, "another device's key does not open a's box")
    }

    @Test func aMemberJoiningAfterThreeEpochsReadsEveryEpoch() throws {
        let (owner, b, late) = (Device(), Device(), Device())
        let epochs = (1...3).map { EpochKey.generate(epoch: $0) }
        // Three rotations; the fourth keyring is the first sealed to the late member.
        let fourth = EpochKey.generate(epoch: 4)
        let read = try Self.parse(Self.ring(fourth, earlier: epochs, to: [owner, b, late]))
        let keys = try #require(read.open(device: late.id, keys: [late.pair]))
        #expect(Set(keys.map(\.id)) == Set((epochs + [fourth]).map(\.id)))
        #expect(Set(keys.map(\.epoch)) == [1, 2, 3, 4])
    }

    @Test func aRemovedMemberWithEveryKeyItHeldOpensNothingOfTheNextEpoch() throws {
        let (owner, removed) = (Device(), Device())
        let e1 = EpochKey.generate(epoch: 1)
        let before = try Self.parse(Self.ring(e1, to: [owner, removed]))
        let held = try #require(before.open(device: removed.id, keys: [removed.pair]))
        let e2 = EpochKey.generate(epoch: 2)
        let after = try Self.parse(Self.ring(e2, earlier: [e1], to: [owner]))
        #expect(after.open(device: removed.id, keys: [removed.pair]) == nil)
        #expect(after.open(device: owner.id, keys: [removed.pair]) == nil)
        // Its epoch key does not open the new history either, whatever data it guesses.
        for key in held {
            if case .success = Sodium.streamOpen(after.history, key: key.key, additionalData: []) { Issue.record("the history opened") }
            let data = Array("tripsync-keyring-history-v1\n\(Self.trip)\n2\n\(e2.id)".utf8)
            if case .success = Sodium.streamOpen(after.history, key: key.key, additionalData: data) { Issue.record("the history opened") }
        }
    }

    @Test func anyByteChangedIsRefused() throws {
        let bytes = Self.ring(EpochKey.generate(epoch: 3), earlier: [EpochKey.generate(epoch: 1)], to: [Device(), Device()]).fileBytes
        _ = try Keyring(parsing: bytes, trip: Self.trip, owner: Self.owner.publicKey)
        for index in bytes.indices.dropLast() {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(throws: KeyringError.self, "byte \(index)") { try Keyring(parsing: changed, trip: Self.trip, owner: Self.owner.publicKey) }
        }
    }

    @Test func anotherTripsKeyringOrOneSignedByAnotherKeyIsRefused() throws {
        let ring = Self.ring(EpochKey.generate(epoch: 1), to: [Device()])
        let moved = #expect(throws: KeyringError.self) { try Self.parse(ring, trip: DeviceID.random()) }
        #expect(moved?.pointer == "/tripId")
        let other = SigningKey.generate()
        let resigned = #expect(throws: KeyringError.self) { try Self.parse(Self.ring(EpochKey.generate(epoch: 1), to: [Device()], ownerKey: other)) }
        #expect(resigned?.pointer == "/sig")
        // A history moved from another keyring (the owner's own, even) does not open.
        let member = Device()
        let first = Self.ring(EpochKey.generate(epoch: 2), earlier: [EpochKey.generate(epoch: 1)], to: [member])
        var second = Self.ring(EpochKey.generate(epoch: 2), earlier: [EpochKey.generate(epoch: 1)], to: [member])
        second.history = first.history
        #expect(second.open(device: member.id, keys: [member.pair]) == nil)
    }

    @Test func theFileNamesDevicesAndEpochsOnly() throws {
        let ring = Self.ring(EpochKey.generate(epoch: 1), to: [Device()])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(ring.fileBytes)) as? [String: Any])
        #expect(Set(object.keys) == ["epoch", "epochId", "history", "sealed", "sig", "tripId", "type", "version", "writer"])
    }

    /// The keyring PyNaCl made from docs/FORMAT.md alone (scripts/make-samples-v6.py) reads and
    /// opens here: the format is pinned by a second implementation.
    @Test func theSampleKeyringMadeByPythonOpensWithTheSampleKeys() throws {
        let trip = try TripFileReader().read(path: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json").document
        let owner = try #require(trip.owner)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PackagePaths.samples + "/v6/keyring/a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d.keyring.json")))
        let ring = try Keyring(parsing: bytes, trip: trip.tripID, owner: owner.key)
        #expect(ring.epoch == 2 && Set(ring.sealed.keys) == Set(trip.members.keys))
        var secret = Array("tripsync-sample-box:sam-laptop".utf8).withUnsafeBytes { Sodium.sha256($0) }
        let sam = try #require(EncryptionKeyPair(secretBase64: Base64.encode(secret)))
        SecretBytes.wipe(&secret)
        let samID = try #require(DeviceID("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c2d"))
        #expect(trip.members[samID]?.box == sam.publicKey)
        let keys = try #require(ring.open(device: samID, keys: [sam]))
        #expect(keys.map(\.epoch) == [2, 1])
        for key in keys {
            let expected = Array("tripsync-sample-epoch:\(key.epoch)".utf8).withUnsafeBytes { Sodium.sha256($0) }
            #expect(key.key.withBytes { Array($0) } == expected)
        }
        // A byte of the Python file changed: refused here too.
        var changed = bytes
        changed[changed.count / 2] ^= 0x01
        #expect(throws: KeyringError.self) { try Keyring(parsing: changed, trip: trip.tripID, owner: owner.key) }
    }

    @Test func theFirstKeyringStartsEpochOne() {
        guard case .rotate(let key) = KeyringPlan.decide(known: [], recipients: [], members: [], rotateAsked: false, ownCurrent: nil, ownHeld: [], ownRecipients: [])
        else {
            Issue.record("no first epoch")
            return
        }
        #expect(key.epoch == 1)
    }

    /// Two owner laptops rotate at once from epoch 1: each makes its own epoch 2. Once each has
    /// read the other's keyring, both take the same current key (the greater id), keep the
    /// other in their history, and then stop writing.
    @Test func twoConcurrentRotationsConvergeOnOneCurrentKeyAndKeepBoth() throws {
        let members: Set<DeviceID> = [.random(), .random()]
        let e1 = EpochKey.generate(epoch: 1)
        let mine = EpochKey.generate(epoch: 2)
        let theirs = EpochKey.generate(epoch: 2)
        let known = [e1, mine, theirs]
        let winner = try #require(KeyringPlan.current(known))
        #expect(winner.id == max(mine.id, theirs.id))
        #expect(KeyringPlan.current([e1, theirs, mine])?.id == winner.id, "the order they were learnt in does not matter")
        for own in [mine, theirs] {
            let action = KeyringPlan.decide(
                known: known, recipients: members, members: members, rotateAsked: false, ownCurrent: own.id, ownHeld: [e1.id, own.id],
                ownRecipients: members)
            guard case .publish(let key) = action else {
                Issue.record("expected to publish the winner, got \(action)")
                continue
            }
            #expect(key.id == winner.id)
        }
        // Both published: nothing more to write.
        let settled = KeyringPlan.decide(
            known: known, recipients: members, members: members, rotateAsked: false, ownCurrent: winner.id, ownHeld: Set(known.map(\.id)),
            ownRecipients: members)
        guard case .keep = settled else {
            Issue.record("expected to keep, got \(settled)")
            return
        }
    }

    /// A rotation that still sealed to a device another owner laptop removed at the same time
    /// wins by id; the laptop that holds the removal then starts one more epoch without it.
    @Test func aWinningRotationSealedToARemovedDeviceIsFollowedByAnother() throws {
        let (kept, removed) = (DeviceID.random(), DeviceID.random())
        let winner = EpochKey.generate(epoch: 2)
        let action = KeyringPlan.decide(
            known: [EpochKey.generate(epoch: 1), winner], recipients: [kept, removed], members: [kept], rotateAsked: false, ownCurrent: nil,
            ownHeld: [], ownRecipients: [])
        guard case .rotate(let next) = action else {
            Issue.record("expected a new epoch, got \(action)")
            return
        }
        #expect(next.epoch == 3)
        // Asked for: a new epoch even when membership is unchanged.
        guard
            case .rotate(let asked) = KeyringPlan.decide(
                known: [winner], recipients: [kept], members: [kept], rotateAsked: true, ownCurrent: winner.id, ownHeld: [winner.id], ownRecipients: [kept])
        else {
            Issue.record("members rotate did not rotate")
            return
        }
        #expect(asked.epoch == 3)
    }
}

extension KeyringTests {
    /// A keyring at the last epoch number (only the owner key can sign one) never makes a
    /// laptop number a new epoch past it: it keeps the key instead of stopping.
    @Test func theLastEpochNumberIsKeptNotPassed() throws {
        let last = try #require(EpochKey(epoch: EpochKey.maximumEpoch, key: Sodium.randomSecret(32)))
        let device = DeviceID.random()
        let action = KeyringPlan.decide(
            known: [last], recipients: [device, .random()], members: [device], rotateAsked: true, ownCurrent: nil, ownHeld: [], ownRecipients: [])
        guard case .publish(let key) = action else {
            Issue.record("expected the last epoch to be published again, got \(action)")
            return
        }
        #expect(key.id == last.id)
    }
}
