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
    /// Homes and the shared folder under one temp root.
    struct Laptops {
        var root = CLI.temporaryFolder()
        var folder: String { root + "/shared" }
        func home(_ name: String) -> String { root + "/" + name }

        /// Runs tripsync in `who`'s home; `expecting` is the exit status the step must end with.
        @discardableResult
        func run(_ who: String, _ arguments: [String], expecting status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
            let result = try CLI.run(["--home", home(who)] + arguments, cwd: root)
            #expect(result.status == status, "\(who) \(arguments.joined(separator: " ")): \(result.stdout) \(result.stderr)", sourceLocation: sourceLocation)
            return result
        }

        func device(_ who: String) throws -> DeviceID {
            let data = try Data(contentsOf: URL(fileURLWithPath: home(who) + "/device.json"))
            let text = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["deviceId"] as? String)
            return try #require(Identifier(text))
        }

        /// `who`'s members: (role or "pending", device) pairs from `members --json`.
        func members(_ who: String) throws -> [(role: String, device: String)] {
            let result = try run(who, ["members", "--json"])
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
            try run("A", ["init", "--device-name", "Laptop A"])
            let trip = try run("A", ["new", "Lisbon 2027", "--owned", "--zone", "Europe/Lisbon"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try run("A", ["add", "Fado night", "--day", "2027-06-08", "--at", "21:00"])
            try run("A", ["sync", folder])
            let code = try run("A", ["invite", "--role", role]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try run("B", ["init", "--device-name", "Laptop B"])
            try run("B", ["join", code, folder])
            try run("B", ["sync", folder])
            try run("A", ["sync", folder])
            try run("B", ["sync", folder])
            return (trip, code)
        }

        /// A join request for `device` answering `code`, signed by a new key, put where `join` puts it.
        func plantJoinRequest(code: String, device: DeviceID, name: String, trip: String) throws {
            let invite = try InviteCode(parsing: code)
            let request = JoinRequest(code: invite, device: device, name: name, deviceKey: SigningKey.generate(), at: .now)
            try Data(request.fileBytes).write(to: URL(fileURLWithPath: folder + "/\(trip)/\(JoinRequest.fileName(for: device))"))
        }

        /// `file` rewritten by a new device that claims the trip for a new owner key (granting
        /// itself the owner role) and signs the file with its own key.
        func claimedCopy(of file: String, name: String = "Folder host") throws -> (bytes: [UInt8], ownerKey: SigningKey) {
            var document = try TripFileReader().read(path: file).document
            let ownerKey = SigningKey.generate()
            let deviceKey = SigningKey.generate()
            document.deviceID = Identifier.random()
            var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
            let now = max(FileMerger.wallClockMilliseconds(), document.clock.maxCounter + 1)
            try document.claim(ownerKey: ownerKey, deviceKey: deviceKey.publicKey, hlc: &hlc, now: now)
            return (try document.signedGzipData(signingKey: deviceKey), ownerKey)
        }
    }

    @Test func aRemovedMemberAskingAgainWithANewKeyStaysRemovedUntilTheOwnerActs() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, code) = try laptops.ownedTripWithB(as: "editor")
        let b = try laptops.device("B")
        #expect(try laptops.roles("A", of: b) == ["editor"])
        try laptops.run("A", ["members", "remove", b.description])
        try laptops.run("A", ["sync", laptops.folder])
        // B asks again for its old device id, with a new key, answering its own used invite.
        try laptops.plantJoinRequest(code: code, device: b, name: "Laptop B", trip: trip)
        let sync = try laptops.run("A", ["sync", laptops.folder])
        #expect(!(sync.stdout + sync.stderr).contains("admitted Laptop B"), "\(sync.stdout)\(sync.stderr)")
        #expect((sync.stdout + sync.stderr).contains("not admitted"), "\(sync.stdout)\(sync.stderr)")
        #expect(try laptops.roles("A", of: b) == ["pending", "removed"])
        try laptops.run("A", ["members", "approve", "--all"])
        #expect(try laptops.roles("A", of: b) == ["pending", "removed"])
        try laptops.run("A", ["members", "decline", String(b.description.prefix(8))])
        try laptops.run("A", ["sync", laptops.folder])
        #expect(try laptops.roles("A", of: b) == ["removed"])
    }

    @Test func aDemotedViewerDoesNotPromoteItselfWithANewKey() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, code) = try laptops.ownedTripWithB(as: "editor")
        let b = try laptops.device("B")
        try laptops.run("A", ["members", "set", b.description, "--role", "viewer"])
        try laptops.run("A", ["sync", laptops.folder])
        try laptops.plantJoinRequest(code: code, device: b, name: "Laptop B", trip: trip)
        try laptops.run("A", ["sync", laptops.folder])
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        try laptops.run("A", ["members", "approve", "--all", "--role", "editor"])
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        // Approving the request by name would hand B's seat to the request's new key: refused
        // (issue 41); the owner raises B, with its own key, by setting its role.
        let approve = try laptops.run("A", ["members", "approve", String(b.description.prefix(8)), "--role", "editor"], expecting: 1)
        #expect(approve.stderr.contains("another key"), "\(approve.stderr)")
        #expect(try laptops.roles("A", of: b) == ["pending", "viewer"])
        try laptops.run("A", ["members", "set", String(b.description.prefix(8)), "--role", "editor"])
        #expect(try laptops.roles("A", of: b).contains("editor"))
    }

    @Test func aBackupNamingAnotherOwnerIsInvalidAndNoEntranceTakesIt() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let published = laptops.folder + "/\(trip)/\(try laptops.device("A")).trip.json.gz"
        let (bytes, ownerKey) = try laptops.claimedCopy(of: published, name: "Forger")
        let forged = laptops.root + "/forged.trip.json.gz"
        try Data(bytes).write(to: URL(fileURLWithPath: forged))
        let validate = try laptops.run("A", ["validate", forged], expecting: 1)
        #expect(validate.stdout.contains("/owner/key") || validate.stderr.contains("/owner/key"), "\(validate.stdout)\(validate.stderr)")
        try laptops.run("A", ["import", forged, "--merge", "--yes"], expecting: 1)
        try laptops.run("A", ["merge", published, forged, "-o", laptops.root + "/out.trip.json"], expecting: 1)
        #expect(!FileManager.default.fileExists(atPath: laptops.root + "/out.trip.json"))
        // In the folder too: every laptop skips it, the owner is unchanged and can still invite.
        try Data(bytes).write(to: URL(fileURLWithPath: laptops.folder + "/\(trip)/forged.trip.json.gz"))
        try laptops.run("B", ["sync", laptops.folder])
        try laptops.run("A", ["sync", laptops.folder])
        let members = try laptops.run("A", ["members"]).stdout
        #expect(!members.contains(ownerKey.publicKey.fingerprint), "\(members)")
        try laptops.run("A", ["invite", "--role", "viewer"])
    }

    @Test func anOlderUnsignedCopyOfAnOwnedTripIsNotMergedIntoIt() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        try laptops.run("D", ["init", "--device-name", "Laptop D"])
        try laptops.run("D", ["import", CLI.root + "/samples/lisbon-new-york.trip.json", "--merge", "--yes"])
        try laptops.run("D", ["members", "claim"])
        let backup = laptops.root + "/claimed.trip.json"
        try laptops.run("D", ["backup", "-o", backup])
        // The same trip as schema 2 would hold it: no owner, no members, no signature.
        guard case .object(var object) = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: backup)))) else {
            Issue.record("the backup is not a JSON object")
            return
        }
        for key in ["owner", "members", "deviceKey", "signature", "attachments"] { object[key] = nil }
        object["schemaVersion"] = .int(2)
        let downgraded = laptops.root + "/downgraded.trip.json"
        try Data(JSONValue.object(object).text.utf8).write(to: URL(fileURLWithPath: downgraded))
        try laptops.run("D", ["validate", downgraded])
        let before = try laptops.run("D", ["fingerprint"]).stdout
        let refused = try laptops.run("D", ["import", downgraded, "--merge", "--yes"], expecting: 1)
        #expect(refused.stderr.contains("schema 2"), "\(refused.stderr)")
        try laptops.run("D", ["merge", backup, downgraded, "-o", laptops.root + "/out.trip.json"], expecting: 1)
        #expect(try laptops.run("D", ["fingerprint"]).stdout == before)
        // The home's own signed backup still merges back in.
        try laptops.run("D", ["import", backup, "--merge", "--yes"])
    }

    @Test func anOwnerClaimDroppedIntoAnOpenTripsFolderIsShownAndNotAdopted() throws {
        let laptops = Laptops()
        defer { try? FileManager.default.removeItem(atPath: laptops.root) }
        try FileManager.default.createDirectory(atPath: laptops.folder, withIntermediateDirectories: true)
        try laptops.run("E", ["init", "--device-name", "Laptop E"])
        let trip = try laptops.run("E", ["new", "Open trip", "--open"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.run("E", ["sync", laptops.folder])
        try laptops.run("F", ["init", "--device-name", "Laptop F"])
        try laptops.run("F", ["sync", laptops.folder])
        let published = laptops.folder + "/\(trip)/\(try laptops.device("E")).trip.json.gz"
        let (bytes, ownerKey) = try laptops.claimedCopy(of: published)
        try Data(bytes).write(to: URL(fileURLWithPath: laptops.folder + "/\(trip)/host.trip.json.gz"))
        for who in ["E", "F"] {
            let sync = try laptops.run(who, ["sync", laptops.folder])
            let said = sync.stdout + sync.stderr
            #expect(said.contains("claims to own this trip") && said.contains(ownerKey.publicKey.fingerprint), "\(said)")
            #expect(try laptops.run(who, ["members"]).stdout.contains("is an open trip"))
            try laptops.run(who, ["add", "Still editing on \(who)", "--day", "2027-06-09"])
        }
        let claimed = try laptops.run("E", ["members", "claim"]).stdout
        #expect(!claimed.contains(ownerKey.publicKey.fingerprint), "\(claimed)")
    }
}
