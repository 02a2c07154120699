import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome
@testable import TripSyncPlatform

/// Schema 6 (issue 43, layer 2): each device's X25519 encryption key pair in its home, the
/// public half in its owner-signed grant (`box`, tripsync-member-v3), a pure migration from 5.
@Suite struct EncryptionKeyTests {
    static let alex = DeviceID("a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d")
    static let sam = DeviceID("5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c2d")
    static let rita = DeviceID("86657a70-1b26-4c6d-ab01-13f232741976")

    /// A sample key's X25519 public key (scripts/make-samples-v6.py): SHA-256 of the label is
    /// the secret key.
    static func sampleBox(_ label: String) throws -> EncryptionPublicKey {
        var secret = Array("tripsync-sample-box:\(label)".utf8).withUnsafeBytes { Sodium.sha256($0) }
        let bytes = try #require(Sodium.boxPublicKey(secretKey: SecretBytes(taking: &secret)))
        return try #require(EncryptionPublicKey(bytes: bytes))
    }

    /// The Porto owner key of the samples (seed SHA-256 of `tripsync-sample-key:v3/owner/porto`).
    static func portoOwnerKey() throws -> SigningKey {
        let seed = Array("tripsync-sample-key:v3/owner/porto".utf8).withUnsafeBytes { Sodium.sha256($0) }
        return try #require(SigningKey(seed: seed))
    }

    static func read(_ file: String) throws -> LoadedTrip {
        try TripFileReader().read(path: PackagePaths.samples + "/" + file)
    }

    @Test func theSchema6SampleCarriesEachMembersKnownEncryptionKey() throws {
        let loaded = try Self.read("v6/porto-boxes.trip.json")
        #expect(loaded.sourceSchemaVersion == 6 && loaded.migration?.steps == ["6→7: no sealed attachment bytes yet"] && loaded.warnings.isEmpty)
        let document = loaded.document
        let alex = try #require(Self.alex)
        let sam = try #require(Self.sam)
        let rita = try #require(Self.rita)
        #expect(document.members[alex]?.box == (try Self.sampleBox("alex-laptop")))
        #expect(document.members[sam]?.box == (try Self.sampleBox("sam-laptop")))
        #expect(document.members[rita]?.box == (try Self.sampleBox("rita-phone")))
        let owner = try #require(document.owner)
        for (device, grant) in document.members {
            #expect(grant.isSigned(by: owner.key, trip: document.tripID, device: device))
            #expect(grant.signedMessage(trip: document.tripID, device: device).starts(with: Array("tripsync-member-v3\n".utf8)))
        }
        #expect(loaded.signedBy == document.members[alex]?.key)
        // The canonical writer gives back the unsigned sample byte for byte, as schema 7.
        let backup = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v6/porto-boxes-backup.trip.json"))
        let asSchema7 = String(decoding: backup, as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":6,", with: "\"schemaVersion\":7,")
        #expect(document.canonicalJSON() == Array(asSchema7.utf8))
    }

    @Test func aBoxChangedAfterTheOwnerSignedBreaksTheGrant() throws {
        var document = try Self.read("v6/porto-boxes-backup.trip.json").document
        let sam = try #require(Self.sam)
        let owner = try #require(document.owner)
        document.members[sam]?.box = try Self.sampleBox("rita-phone")
        let grant = try #require(document.members[sam])
        #expect(!grant.isSigned(by: owner.key, trip: document.tripID, device: sam))
        // Taken away, the grant's message is v2 again, which the owner never signed either.
        document.members[sam]?.box = nil
        #expect(document.members[sam].map { $0.isSigned(by: owner.key, trip: document.tripID, device: sam) } == false)
    }

    @Test func migrationFrom5AddsNothing() throws {
        let loaded = try Self.read("v5/porto-zone-backup.trip.json")
        #expect(loaded.sourceSchemaVersion == 5)
        #expect(loaded.migration?.steps == ["5→6: no encryption keys in grants yet", "6→7: no sealed attachment bytes yet"])
        #expect(loaded.document.members.values.allSatisfy { $0.box == nil })
        let v5 = try #require(FileManager.default.contents(atPath: PackagePaths.samples + "/v5/porto-zone-backup.trip.json"))
        let expected = String(decoding: v5, as: UTF8.self).replacingOccurrences(of: "\"schemaVersion\":5,", with: "\"schemaVersion\":7,")
        #expect(String(decoding: loaded.document.canonicalJSON(), as: UTF8.self) == expected)
    }

    @Test func everyOlderSampleStillReads() throws {
        for file in ["v5/porto-zone.trip.json", "v5/porto-owned.trip.json.gz", "v4/porto-attachments.trip.json", "v3/porto-owned.trip.json"] {
            let loaded = try Self.read(file)
            #expect(loaded.document.members.values.allSatisfy { $0.box == nil }, "\(file)")
            #expect(!loaded.document.members.isEmpty, "\(file)")
        }
    }

    @Test func aRoleChangeKeepsTheBoxAndANewSigningKeyDropsIt() throws {
        var document = try Self.read("v6/porto-boxes-backup.trip.json").document
        let sam = try #require(Self.sam)
        let ownerKey = try Self.portoOwnerKey()
        #expect(document.owner?.key == ownerKey.publicKey)
        let before = try #require(document.members[sam])
        var clock = HybridLogicalClock()
        let now = (document.clock[document.deviceID] ?? 0) + 1000
        try document.grant(sam, key: before.key, role: .viewer, ownerKey: ownerKey, hlc: &clock, now: now)
        let viewer = try #require(document.members[sam])
        #expect(viewer.role == .viewer && viewer.box == before.box && viewer.rev > before.rev)
        #expect(viewer.isSigned(by: ownerKey.publicKey, trip: document.tripID, device: sam))
        let written = try TripFileReader().read(bytes: document.canonicalJSON(), file: "regranted")
        #expect(written.document.members[sam]?.box == before.box)
        try document.grant(sam, key: SigningKey.generate().publicKey, role: .editor, ownerKey: ownerKey, hlc: &clock, now: now + 1)
        #expect(document.members[sam]?.box == nil, "an encryption key belongs to the signing key it was granted with")
    }

    @Test func aHomeMakesItsEncryptionKeyOnceAndKeepsItPrivate() throws {
        let (home, cleanUp) = temporaryHome("box")
        defer { cleanUp() }
        let device = DeviceID.random()
        let signing = try home.signingKey(for: device)
        let pair = try home.encryptionKey(for: device)
        #expect(try home.encryptionKey(for: device).publicKey == pair.publicKey)
        #expect(try home.signingKey(for: device).publicKey == signing.publicKey)
        #expect(Sodium.boxPublicKey(secretKey: pair.secretKey) == pair.publicKey.bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: home.layout.deviceKey)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = String(decoding: try #require(FileManager.default.contents(atPath: home.layout.deviceKey)), as: UTF8.self)
        #expect(text.contains("\"box\":\"\(pair.secretBase64)\""))
        // A new device id (a copied home) gets a new pair; the old one stays for what was sealed to it.
        let next = DeviceID.random()
        let newPair = try home.encryptionKey(for: next)
        #expect(newPair.publicKey != pair.publicKey)
        #expect(try home.previousEncryptionKeys()[device]?.publicKey == pair.publicKey)
    }

    @Test("a former id keeps its keys: asked for by a caller holding a stale id, it is not made current again with a fresh key")
    func aFormerIDNeverGetsAFreshKey() throws {
        let (home, cleanUp) = temporaryHome("box-former")
        defer { cleanUp() }
        let old = DeviceID.random()
        let oldSigning = try home.signingKey(for: old)
        let oldBox = try home.encryptionKey(for: old)
        // A re-key (a clock far ahead, a copied home): a new id, a new key.
        let new = DeviceID.random()
        let newSigning = try home.signingKey(for: new)
        let newBox = try home.encryptionKey(for: new)
        // A stage still holding the old id asks for its keys (the keyring stage of a sync
        // round that re-keyed did, and the new id's grant then named a key nobody signed with).
        #expect(try home.signingKey(for: old).publicKey == oldSigning.publicKey)
        #expect(try home.encryptionKey(for: old).publicKey == oldBox.publicKey)
        // The new id is still current, with the keys it had.
        #expect(try DeviceKeyFile(home: home).device == new)
        #expect(try home.signingKey(for: new).publicKey == newSigning.publicKey)
        #expect(try home.encryptionKey(for: new).publicKey == newBox.publicKey)
        #expect(try home.previousSigningKeys().map(\.device) == [old])
    }

    @Test func aHomeWrittenBeforeEncryptionKeysGetsOneAndKeepsItsSigningKey() throws {
        let (home, cleanUp) = temporaryHome("box-old")
        defer { cleanUp() }
        let device = DeviceID.random()
        let signing = SigningKey.generate()
        try FileIO.makeFolder(home.path)
        let old = "{\"device\":\"\(device)\",\"seed\":\"\(signing.seedBase64)\"}\n"
        try FileIO.writeAtomically(Array(old.utf8), to: home.layout.deviceKey, mode: 0o600)
        let pair = try home.encryptionKey(for: device)
        #expect(try home.signingKey(for: device).publicKey == signing.publicKey)
        #expect(try home.encryptionKey(for: device).publicKey == pair.publicKey)
        // A damaged box is an error naming the pointer, not a new key made in silence.
        let damaged = "{\"box\":\"short\",\"device\":\"\(device)\",\"seed\":\"\(signing.seedBase64)\"}\n"
        try FileIO.writeAtomically(Array(damaged.utf8), to: home.layout.deviceKey, mode: 0o600)
        #expect(throws: FileSystemError.self) { try home.encryptionKey(for: device) }
    }

    @Test func aJoinRequestCarriesTheBoxUnderItsSignature() throws {
        let owner = SigningKey.generate()
        let trip = TripOwner.derivedTripID(for: owner.publicKey)
        let code = InviteCode(trip: trip, ownerKey: owner.publicKey, role: .editor, expires: UTCTimestamp(millisecondsSinceEpoch: 4_102_444_800_000))
        let box = EncryptionKeyPair.generate().publicKey
        let request = JoinRequest(code: code, device: .random(), name: "Laptop B", deviceKey: SigningKey.generate(), box: box, at: .now)
        let read = try JoinRequest(parsing: request.fileBytes)
        #expect(read.box == box && read.answers(code))
        // Version 3: the name is sealed with the invite's secret; the folder's host never reads
        // it, the owner holding the invite does, and another invite opens nothing.
        let text = String(decoding: request.fileBytes, as: UTF8.self)
        #expect(text.contains("\"version\":3") && text.contains("\"sealedName\"") && !text.contains("Laptop B"))
        #expect(read.name.isEmpty && read.opened(with: code)?.name == "Laptop B")
        let another = InviteCode(trip: trip, ownerKey: owner.publicKey, role: .editor, expires: code.expires)
        #expect(read.opened(with: another) == nil && !read.answers(another))
        // Another box put in after signing: refused.
        let other = EncryptionKeyPair.generate().publicKey
        let swapped = String(decoding: request.fileBytes, as: UTF8.self).replacingOccurrences(of: box.base64, with: other.base64)
        #expect(throws: InviteError.self) { try JoinRequest(parsing: Array(swapped.utf8)) }
        // A version 1 request (no box) still reads; a box in a version 1 request does not.
        let plain = JoinRequest(code: code, device: .random(), name: "Laptop C", deviceKey: SigningKey.generate(), at: .now)
        #expect(try JoinRequest(parsing: plain.fileBytes).box == nil)
        let smuggled = String(decoding: request.fileBytes, as: UTF8.self).replacingOccurrences(of: "\"version\":3", with: "\"version\":1")
        #expect(throws: InviteError.self) { try JoinRequest(parsing: Array(smuggled.utf8)) }
    }
}
