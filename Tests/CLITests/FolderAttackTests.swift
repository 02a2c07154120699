import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome

/// Attacks of issue 26 by whoever can write into the shared folder (findings 2, 3 and 4), each
/// file crafted here with the library's own signing and played against the built binary: the
/// exit codes, `members --json` and `show` tell what happened. Tests/attacks/run.sh plays the
/// same attacks with files crafted by PyNaCl from docs/FORMAT.md alone.
@Suite struct FolderAttackTests {
    @Test func aRemovedMemberAskingAgainWithANewKeyStaysRemovedUntilTheOwnerActs() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, code) = try laptops.ownedTripWithB(as: "editor")
        let b = try laptops.device("B")
        #expect(try laptops.roles("A", of: b) == ["editor"])
        try laptops.ok("A", ["members", "remove", b.description])
        try laptops.ok("A", ["sync", laptops.folder])
        // B asks again for its old device id, with a new key, answering its own used invite.
        try laptops.plantJoinRequest(code: code, device: b, name: "Laptop B", trip: trip)
        let sync = try laptops.ok("A", ["sync", laptops.folder])
        #expect(!(sync.stdout + sync.stderr).contains("admitted Laptop B"), "\(sync.stdout)\(sync.stderr)")
        #expect((sync.stdout + sync.stderr).contains("not admitted"), "\(sync.stdout)\(sync.stderr)")
        #expect(try laptops.roles("A", of: b) == ["pending", "removed"])
        try laptops.ok("A", ["members", "approve", "--all"])
        #expect(try laptops.roles("A", of: b) == ["pending", "removed"])
        try laptops.ok("A", ["members", "decline", String(b.description.prefix(8))])
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.roles("A", of: b) == ["removed"])
    }

    @Test func aDemotedViewerDoesNotPromoteItselfWithANewKey() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, code) = try laptops.ownedTripWithB(as: "editor")
        let b = try laptops.device("B")
        try laptops.ok("A", ["members", "set", b.description, "--role", "viewer"])
        try laptops.ok("A", ["sync", laptops.folder])
        try laptops.plantJoinRequest(code: code, device: b, name: "Laptop B", trip: trip)
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        try laptops.ok("A", ["members", "approve", "--all", "--role", "editor"])
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        // Approving the request by name would hand B's seat to the request's new key: refused
        // (issue 41); the owner raises B, with its own key, by setting its role.
        let approve = try laptops.expect(1, "A", ["members", "approve", String(b.description.prefix(8)), "--role", "editor"])
        #expect(approve.stderr.contains("another key"), "\(approve.stderr)")
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        try laptops.ok("A", ["members", "set", String(b.description.prefix(8)), "--role", "editor"])
        #expect(try laptops.roles("A", of: b).contains("editor"))
    }

    @Test func aBackupNamingAnotherOwnerIsInvalidAndNoEntranceTakesIt() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let published = laptops.folder + "/\(trip)/\(try laptops.device("A")).trip.json.gz"
        // Forged from the owner's sealed file as B, a member, opens it (issue 43).
        let (bytes, ownerKey) = try laptops.claimedCopy(of: published, name: "Forger", as: "B")
        let forged = laptops.root + "/forged.trip.json.gz"
        try Data(bytes).write(to: URL(fileURLWithPath: forged))
        let validate = try laptops.expect(1, "A", ["validate", forged])
        #expect(validate.stdout.contains("/owner/key") || validate.stderr.contains("/owner/key"), "\(validate.stdout)\(validate.stderr)")
        try laptops.expect(1, "A", ["import", forged, "--merge", "--yes"])
        try laptops.expect(1, "A", ["merge", published, forged, "-o", laptops.root + "/out.trip.json"])
        #expect(!FileManager.default.fileExists(atPath: laptops.root + "/out.trip.json"))
        // In the folder too: every laptop skips it, the owner is unchanged and can still invite.
        try Data(bytes).write(to: URL(fileURLWithPath: laptops.folder + "/\(trip)/forged.trip.json.gz"))
        try laptops.ok("B", ["sync", laptops.folder])
        try laptops.ok("A", ["sync", laptops.folder])
        let members = try laptops.ok("A", ["members"]).stdout
        #expect(!members.contains(ownerKey.publicKey.fingerprint), "\(members)")
        try laptops.ok("A", ["invite", "--role", "viewer"])
    }

    @Test func anOlderUnsignedCopyOfAnOwnedTripIsNotMergedIntoIt() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ok("D", ["init", "--device-name", "Laptop D"])
        try laptops.ok("D", ["import", CLI.root + "/samples/lisbon-new-york.trip.json", "--merge", "--yes"])
        try laptops.ok("D", ["members", "claim"])
        let backup = laptops.root + "/claimed.trip.json"
        try laptops.ok("D", ["backup", "-o", backup])
        // The same trip as schema 2 would hold it: no owner, no members, no signature.
        guard case .object(var object) = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: backup)))) else {
            Issue.record("the backup is not a JSON object")
            return
        }
        for key in ["owner", "members", "deviceKey", "signature", "attachments"] { object[key] = nil }
        object["schemaVersion"] = .int(2)
        let downgraded = laptops.root + "/downgraded.trip.json"
        try Data(JSONValue.object(object).text.utf8).write(to: URL(fileURLWithPath: downgraded))
        try laptops.ok("D", ["validate", downgraded])
        let before = try laptops.ok("D", ["fingerprint"]).stdout
        let refused = try laptops.expect(1, "D", ["import", downgraded, "--merge", "--yes"])
        #expect(refused.stderr.contains("schema 2"), "\(refused.stderr)")
        try laptops.expect(1, "D", ["merge", backup, downgraded, "-o", laptops.root + "/out.trip.json"])
        #expect(try laptops.ok("D", ["fingerprint"]).stdout == before)
        // The home's own signed backup still merges back in.
        try laptops.ok("D", ["import", backup, "--merge", "--yes"])
    }

    @Test func anOwnerClaimDroppedIntoAnOpenTripsFolderIsShownAndNotAdopted() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try FileManager.default.createDirectory(atPath: laptops.folder, withIntermediateDirectories: true)
        try laptops.ok("E", ["init", "--device-name", "Laptop E"])
        let trip = try laptops.ok("E", ["new", "Open trip", "--open"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("E", ["sync", laptops.folder])
        try laptops.ok("F", ["init", "--device-name", "Laptop F"])
        try laptops.ok("F", ["sync", laptops.folder])
        let published = laptops.folder + "/\(trip)/\(try laptops.device("E")).trip.json.gz"
        let (bytes, ownerKey) = try laptops.claimedCopy(of: published)
        try Data(bytes).write(to: URL(fileURLWithPath: laptops.folder + "/\(trip)/host.trip.json.gz"))
        for who in ["E", "F"] {
            let sync = try laptops.ok(who, ["sync", laptops.folder])
            let said = sync.stdout + sync.stderr
            #expect(said.contains("claims to own this trip") && said.contains(ownerKey.publicKey.fingerprint), "\(said)")
            #expect(try laptops.ok(who, ["members"]).stdout.contains("is an open trip"))
            try laptops.ok(who, ["add", "Still editing on \(who)", "--day", "2027-06-09"])
        }
        let claimed = try laptops.ok("E", ["members", "claim"]).stdout
        #expect(!claimed.contains(ownerKey.publicKey.fingerprint), "\(claimed)")
    }
}

extension Laptops {
    /// Laptop `who`'s device id.
    func device(_ who: String) throws -> DeviceID {
        try #require(Identifier(try deviceID(who)))
    }

    /// `who`'s members: (role or "pending", device) pairs from `members --json`.
    func members(_ who: String) throws -> [(role: String, device: String)] {
        let result = try ok(who, ["members", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return entries.map { entry in
            ((entry["pending"] as? Bool ?? false) ? "pending" : (entry["role"] as? String ?? "none"), entry["device"] as? String ?? "")
        }
    }

    func roles(_ who: String, of device: DeviceID) throws -> [String] {
        try members(who).filter { $0.device == device.description }.map(\.role).sorted()
    }

    /// An owned trip on A with one item, published; B joined through an invite as `role`.
    func ownedTripWithB(as role: String) throws -> (trip: String, code: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ok("A", ["init", "--device-name", "Laptop A"])
        let trip = try ok("A", ["new", "Lisbon 2027", "--owned", "--zone", "Europe/Lisbon"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try ok("A", ["add", "Fado night", "--day", "2027-06-08", "--at", "21:00"])
        try ok("A", ["sync", folder])
        let code = try ok("A", ["invite", "--role", role]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try ok("B", ["init", "--device-name", "Laptop B"])
        try ok("B", ["join", code, folder])
        try ok("B", ["sync", folder])
        try ok("A", ["sync", folder])
        try ok("B", ["sync", folder])
        return (trip, code)
    }

    /// A join request for `device` answering `code`, signed by a new key, put where `join` puts it.
    func plantJoinRequest(code: String, device: DeviceID, name: String, trip: String) throws {
        let invite = try InviteCode(parsing: code)
        let request = JoinRequest(code: invite, device: device, name: name, deviceKey: SigningKey.generate(), at: .now)
        try Data(request.fileBytes).write(to: URL(fileURLWithPath: folder + "/\(trip)/\(JoinRequest.fileName(for: device))"))
    }

    /// `file` rewritten by a new device that claims the trip for a new owner key (granting
    /// itself the owner role) and signs the file with its own key, plain (a key nobody granted
    /// seals nothing). `file` is read as laptop `who` reads it (a sealed file: with its keys),
    /// or by anyone when `who` is nil (an open trip's file).
    func claimedCopy(of file: String, name: String = "Folder host", as who: String? = nil) throws -> (bytes: [UInt8], ownerKey: SigningKey) {
        var document = try who.map { try tripFile(file, as: $0) }?.document ?? TripFileReader().read(path: file).document
        let ownerKey = SigningKey.generate()
        let deviceKey = SigningKey.generate()
        document.deviceID = Identifier.random()
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        let now = max(FileMerger.wallClockMilliseconds(), document.clock.maxCounter + 1)
        try document.claim(ownerKey: ownerKey, deviceKey: deviceKey.publicKey, hlc: &hlc, now: now)
        return (try document.signedGzipData(signingKey: deviceKey), ownerKey)
    }
}
