import Foundation
import Testing

@testable import TripSyncCore

/// Issue 43, layer 2, through the built binary: `new --owned` and an invited laptop's `join`
/// put each device's X25519 encryption key into its owner-signed grant in the shared folder,
/// and the secret half stays in the device's home (`device.key`, 0600).
@Suite struct EncryptionKeyCommandTests {
    /// The public key of the encryption secret key in `who`'s home, whose key file is 0600.
    static func homeBox(_ laptops: Laptops, _ who: String) throws -> EncryptionPublicKey {
        let attributes = try FileManager.default.attributesOfItem(atPath: laptops.home(who) + "/device.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        return try KeyringCommandTests.pair(laptops, who).publicKey
    }

    @Test func theOwnerAndAnInvitedLaptopPublishTheirEncryptionKeysInTheirGrants() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, a, b) = try KeyringCommandTests.settledTrip(laptops)
        let published = laptops.folder + "/\(trip)/\(a).trip.json.gz"
        // Read as A, a member, reads it: sealed with the trip's epoch key (issue 43).
        let loaded = try laptops.tripFile(published, as: "A")
        #expect(loaded.wasSealed && loaded.sourceSchemaVersion == TripDocument.currentSchemaVersion)
        let document = loaded.document
        let owner = try #require(document.owner)
        let boxA = try Self.homeBox(laptops, "A")
        let boxB = try Self.homeBox(laptops, "B")
        #expect(boxA != boxB)
        #expect(document.members[a]?.box == boxA)
        #expect(document.members[b]?.box == boxB)
        for device in [a, b] {
            let grant = try #require(document.members[device])
            #expect(grant.isSigned(by: owner.key, trip: document.tripID, device: device))
        }
        // B's own replica holds the same grants once it has synced.
        try laptops.expect(0, "B", ["sync", laptops.folder], cwd: laptops.root)
        let bFile = try laptops.tripFile(laptops.folder + "/\(trip)/\(b).trip.json.gz", as: "B").document
        #expect(bFile.members[b]?.box == boxB)
        // A role change keeps the key.
        try laptops.expect(0, "A", ["members", "set", String(b.description.prefix(8)), "--role", "viewer"], cwd: laptops.root)
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        let after = try laptops.tripFile(published, as: "A").document
        #expect(after.members[b]?.role == .viewer && after.members[b]?.box == boxB)
    }
}
