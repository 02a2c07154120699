import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncSync

/// Names in an owned trip come from the owner-signed grants (issue 26, finding 5): a grant made
/// before grants carried names is signed again with a name by the owner's next sync, from what
/// the owner knows (its own name, the name a device wrote for itself); a name another device
/// wrote for it is never taken.
@Suite struct GrantNameTests {
    @Test func theOwnersSyncNamesGrantsMadeWithoutNames() throws {
        let home = Home(path: FileManager.default.temporaryDirectory.appendingPathComponent("tripsync-grant-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: home.path) }
        let shared = home.path + "-shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shared) }
        let (tripID, myName) = try { () throws -> (TripID, String) in
            let store = try TripStore.create(name: "Porto 2027", defaultZone: "Europe/Lisbon", in: home)
            #expect(store.document.members[store.deviceID]?.name == store.deviceName, "new puts the owner's name into its grant")
            #expect(store.document.devices.isEmpty, "an owned trip's members write no device names")
            return (store.tripID, store.deviceName)
        }()
        let ownerKey = try #require(try TripAccess.load(home, tripID).ownerKey)
        var document = try TripFileReader().read(path: home.replicaPath(for: tripID)).document
        let me = document.deviceID
        let bob = Identifier("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c01")!
        let eve = Identifier("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c02")!
        let key = SigningKey(seed: Array(repeating: 9, count: 32))!.publicKey
        // As schema 4 left them: grants without names (the v1 message); Bob named itself under a
        // dot of its own, Eve was named by another device.
        var grantRevs: [DeviceID: Rev] = [:]
        var counter = document.clock.maxCounter
        func dot(_ device: DeviceID) -> Rev {
            counter += 1
            let rev = Rev(counter: counter, device: device)
            document.clock.include(rev)
            return rev
        }
        document.devices[bob] = DeviceInfo(name: Register(value: "Bob laptop", rev: dot(bob)))
        document.devices[eve] = DeviceInfo(name: Register(value: "Eve laptop", rev: dot(bob)))
        for (device, role) in [(me, MemberRole.owner), (bob, .editor), (eve, .editor)] {
            let rev = dot(me)
            grantRevs[device] = rev
            let signing = device == me ? document.members[me]?.key ?? key : key
            document.members[device] = MemberGrant(device: device, key: signing, role: role, rev: rev, seen: nil, trip: tripID, ownerKey: ownerKey)
        }
        try DeviceIdentity.raise(home, to: counter)
        try document.write(to: home.replicaPath(for: tripID))
        #expect(try TripStore.open(in: home).document.deviceName(bob) == "device 5d2c8b1a", "an unnamed grant shows the short id")

        _ = try FolderSync(home: home, folder: shared).run()
        let after = try TripStore.open(in: home).document
        #expect(after.members[me]?.name == myName)
        #expect(after.members[bob]?.name == "Bob laptop")
        #expect(after.members[eve]?.name == nil, "a name another device wrote is never put into a grant")
        #expect(after.deviceName(eve) == "device 5d2c8b1a")
        for device in [me, bob] {
            let grant = try #require(after.members[device])
            #expect(grant.rev > (grantRevs[device] ?? grant.rev) && grant.role == document.members[device]?.role)
            #expect(grant.isSigned(by: ownerKey.publicKey, trip: tripID, device: device))
        }
    }
}

extension DeviceIdentity {
    /// Raises the home's identity high-water mark to `counter` (dots a test wrote for it).
    static func raise(_ home: Home, to counter: UInt64) throws {
        var (identity, _) = try home.openIdentity()
        identity.highWater = max(identity.highWater, counter)
        identity.issued.formUnion(IssuedCounters([1...counter]))
        try home.save(identity)
    }
}
