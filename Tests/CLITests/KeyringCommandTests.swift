import Foundation
import Testing

@testable import TripSyncCore

/// Issue 43, layer 3, through the built binary: an owned trip's keyring in the shared folder,
/// a new epoch at a removal and at `members rotate` that a removed member cannot open, and two
/// owner laptops rotating at once converging on one current key while keeping both.
@Suite struct KeyringCommandTests {
    /// The epoch keys `who`'s home holds for `trip`, as (epoch, id).
    static func held(_ laptops: Laptops, _ who: String, _ trip: String) throws -> [(epoch: Int, id: String)] {
        let path = laptops.home(who) + "/access/\(trip).json"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let entries = (json["epochs"] as? [[String: Any]]) ?? []
        return try entries.map { entry in
            let epoch = try #require(entry["epoch"] as? Int)
            let text = try #require(entry["key"] as? String)
            let key = try #require(EpochKey(epoch: epoch, base64: text))
            return (epoch, key.id)
        }
    }

    /// An owned trip of A with B an editor, both synced once more after B joined (so both hold
    /// the first epoch): the trip id and both device ids.
    static func settledTrip(_ laptops: Laptops) throws -> (trip: String, a: DeviceID, b: DeviceID) {
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let a = try laptops.device("A")
        let b = try laptops.device("B")
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        try laptops.expect(0, "B", ["sync", laptops.folder], cwd: laptops.root)
        return (trip, a, b)
    }

    /// `who`'s encryption key pair, from its home's `device.key`.
    static func pair(_ laptops: Laptops, _ who: String) throws -> EncryptionKeyPair {
        let data = try Data(contentsOf: URL(fileURLWithPath: laptops.home(who) + "/device.key"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let secret = try #require(json["box"] as? String)
        return try #require(EncryptionKeyPair(secretBase64: secret))
    }

    /// The keyring `device` (laptop `who`) wrote for `trip`, checked against the owner key its
    /// device file names, that file read as `who` reads it (sealed: with its home's keys).
    static func keyring(_ laptops: Laptops, _ trip: String, of device: DeviceID, as who: String, folder: String? = nil) throws -> Keyring {
        let path = (folder ?? laptops.folder) + "/\(trip)/\(device).keyring.json"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let owner = try laptops.tripFile((folder ?? laptops.folder) + "/\(trip)/\(device).trip.json.gz", as: who).document.owner
        let id = try #require(Identifier(trip))
        let key = try #require(owner).key
        return try Keyring(parsing: bytes, trip: id, owner: key)
    }

    @Test func membersHoldTheKeyAndARemovedOneOpensNoLaterEpoch() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, a, b) = try Self.settledTrip(laptops)
        let first = try Self.held(laptops, "A", trip)
        #expect(first.map(\.epoch) == [1])
        #expect(try Self.held(laptops, "B", trip).map(\.id) == first.map(\.id))
        // The keyring names devices and epochs, nothing typed.
        let text = try String(contentsOfFile: laptops.folder + "/\(trip)/\(a).keyring.json", encoding: .utf8)
        for marker in ["Laptop A", "Laptop B", "Lisbon 2027", "Fado night"] { #expect(!text.contains(marker), "\(marker)") }
        #expect(Set(try Self.keyring(laptops, trip, of: a, as: "A").sealed.keys) == [a, b])

        try laptops.expect(0, "A", ["members", "remove", String(b.description.prefix(8))], cwd: laptops.root)
        let sync = try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        #expect((sync.stdout + sync.stderr).contains("started epoch 2 of the trip's keys"), "\(sync.stdout)\(sync.stderr)")
        try laptops.expect(0, "B", ["sync", laptops.folder], cwd: laptops.root)
        #expect(try Self.held(laptops, "A", trip).map(\.epoch).sorted() == [1, 2])
        #expect(try Self.held(laptops, "B", trip).map(\.id) == first.map(\.id), "the removed laptop keeps epoch 1 and gets nothing newer")
        let after = try Self.keyring(laptops, trip, of: a, as: "A")
        #expect(after.epoch == 2 && Set(after.sealed.keys) == [a])
        #expect(after.open(device: b, keys: [try Self.pair(laptops, "B")]) == nil)

        // Asked for: a new epoch at the next sync; the removed laptop cannot ask.
        try laptops.expect(0, "A", ["members", "rotate"], cwd: laptops.root)
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        #expect(try Self.held(laptops, "A", trip).map(\.epoch).sorted() == [1, 2, 3])
        try laptops.expect(1, "B", ["members", "rotate"], cwd: laptops.root)
        // Settled: a later sync writes no new keyring.
        let before = try Data(contentsOf: URL(fileURLWithPath: laptops.folder + "/\(trip)/\(a).keyring.json"))
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        #expect(try Data(contentsOf: URL(fileURLWithPath: laptops.folder + "/\(trip)/\(a).keyring.json")) == before)
    }

    /// A laptop invited after three epochs gets every epoch key; a keyring changed in the
    /// folder is refused with its reason, and nothing it held is taken.
    @Test func aLateMemberGetsEveryEpochAndAChangedKeyringIsRefused() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let a = try laptops.device("A")
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        for _ in 0..<2 {
            try laptops.expect(0, "A", ["members", "rotate"], cwd: laptops.root)
            try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        }
        #expect(try Self.held(laptops, "A", trip).map(\.epoch).sorted() == [1, 2, 3])
        let code = try laptops.expect(0, "A", ["invite", "--role", "viewer"], cwd: laptops.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.expect(0, "C", ["init", "--device-name", "Laptop C"], cwd: laptops.root)
        try laptops.expect(0, "C", ["join", code, laptops.folder], cwd: laptops.root)
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        try laptops.expect(0, "C", ["sync", laptops.folder], cwd: laptops.root)
        #expect(Set(try Self.held(laptops, "C", trip).map(\.id)) == Set(try Self.held(laptops, "A", trip).map(\.id)))

        // One byte of the owner's keyring changed by the folder's host: refused, nothing taken.
        try laptops.expect(0, "A", ["members", "rotate"], cwd: laptops.root)
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        let path = laptops.folder + "/\(trip)/\(a).keyring.json"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "\"")).map { $0 + 200 })
        bytes[index] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try Self.held(laptops, "C", trip).map(\.id)
        let sync = try laptops.expect(0, "C", ["sync", laptops.folder, "--json"], cwd: laptops.root)
        #expect(sync.stdout.contains("a keyring that cannot be used"), "\(sync.stdout)")
        #expect(try Self.held(laptops, "C", trip).map(\.id) == before)
    }

    /// A keyring signed by the owner key whose box for B was sealed to another key: B's sync
    /// says so, and B's keys stay as they were.
    @Test func aKeyringSealedToTheWrongKeyIsReported() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, a, b) = try Self.settledTrip(laptops)
        let before = try Self.held(laptops, "B", trip).map(\.id)
        let access = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: laptops.home("A") + "/access/\(trip).json"))) as? [String: Any]
        let seed = try #require(access?["ownerKey"] as? String)
        let ownerKey = try #require(SigningKey(seedBase64: seed))
        let tripID = try #require(Identifier(trip))
        let wrong = Keyring(
            trip: tripID, writer: a, current: EpochKey.generate(epoch: 9), earlier: [],
            recipients: [a: try Self.pair(laptops, "A").publicKey, b: EncryptionKeyPair.generate().publicKey], ownerKey: ownerKey)
        try Data(wrong.fileBytes).write(to: URL(fileURLWithPath: laptops.folder + "/\(trip)/\(a).keyring.json"))
        let sync = try laptops.expect(0, "B", ["sync", laptops.folder, "--json"], cwd: laptops.root)
        #expect(sync.stdout.contains("a keyring sealed to this laptop that does not open"), "\(sync.stdout)")
        #expect(try Self.held(laptops, "B", trip).map(\.id) == before)
    }

    @Test func twoOwnerLaptopsRotatingAtOnceConverge() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let a = try laptops.device("A")
        let b = try laptops.device("B")
        try "correct horse battery staple\n".write(toFile: laptops.root + "/pass.txt", atomically: true, encoding: .utf8)
        try laptops.expect(0, "A", ["owner", "export", "-o", "owner.key", "--passphrase-file", "pass.txt"], cwd: laptops.root)
        try laptops.expect(0, "B", ["owner", "import", "owner.key", "--passphrase-file", "pass.txt"], cwd: laptops.root)
        for who in ["B", "A", "B", "A"] { try laptops.expect(0, who, ["sync", laptops.folder], cwd: laptops.root) }
        #expect(try Self.held(laptops, "B", trip).map(\.id) == (try Self.held(laptops, "A", trip)).map(\.id))
        // Each rotates without seeing the other: B syncs with its own copy of the folder.
        let other = laptops.root + "/shared-b"
        let (status, _, _) = try CLI.spawn("/bin/cp", ["-a", laptops.folder, other], cwd: laptops.root)
        #expect(status == 0)
        try laptops.expect(0, "A", ["members", "rotate"], cwd: laptops.root)
        try laptops.expect(0, "A", ["sync", laptops.folder], cwd: laptops.root)
        try laptops.expect(0, "B", ["members", "rotate"], cwd: laptops.root)
        try laptops.expect(0, "B", ["sync", other], cwd: laptops.root)
        let fromA = try Self.keyring(laptops, trip, of: a, as: "A")
        let fromB = try Self.keyring(laptops, trip, of: b, as: "B", folder: other)
        #expect(fromA.epoch == 2 && fromB.epoch == 2 && fromA.epochID != fromB.epochID)
        // The folder's host delivers B's files; each laptop syncs until both are settled.
        for name in ["\(b).keyring.json", "\(b).trip.json.gz"] {
            try? FileManager.default.removeItem(atPath: laptops.folder + "/\(trip)/" + name)
            try FileManager.default.copyItem(atPath: other + "/\(trip)/" + name, toPath: laptops.folder + "/\(trip)/" + name)
        }
        for who in ["A", "B", "A", "B"] { try laptops.expect(0, who, ["sync", laptops.folder], cwd: laptops.root) }
        let settledA = try Self.keyring(laptops, trip, of: a, as: "A")
        let settledB = try Self.keyring(laptops, trip, of: b, as: "B")
        #expect(settledA.epoch == 2 && settledA.epochID == max(fromA.epochID, fromB.epochID))
        #expect(settledB.epochID == settledA.epochID)
        // Both epoch 2 keys stay readable to every member.
        for who in ["A", "B"] {
            let ids = Set(try Self.held(laptops, who, trip).map(\.id))
            #expect(ids.isSuperset(of: [fromA.epochID, fromB.epochID]), "\(who)")
        }
        let opened = try #require(settledA.open(device: a, keys: [try Self.pair(laptops, "A")]))
        #expect(Set(opened.map(\.id)).isSuperset(of: [fromA.epochID, fromB.epochID]))
    }
}
