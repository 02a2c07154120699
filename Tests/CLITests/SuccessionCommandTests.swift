import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore

/// Re-keys, wrong clocks and restored homes as a person meets them (issue 25, findings 2 and 3;
/// issue 26, finding 1): through the built binary, laptops as homes in one temporary folder
/// sharing the folder `shared`.
@Suite struct SuccessionCommandTests {
    // MARK: Issue 26, finding 1

    enum Claim: String, CaseIterable, Sendable {
        /// The editor's `clock` claims the owner's counter an hour ahead.
        case clock
        /// The editor's own `acks` entry claims it.
        case acks
    }

    /// A validly signed editor file claiming the owner's counters an hour ahead makes no laptop
    /// re-key: the file is skipped with a warning naming its writer, the owner keeps its id and
    /// its role, and can still edit and invite.
    @Test(arguments: Claim.allCases) func anEditorClaimingOurCountersIsRefusedNotObeyed(_ claim: Claim) throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        try laptops.ownedTrip(withB: "editor")
        try laptops.ok("B", "add", "Tram 28", "--day", "2027-06-09")
        try laptops.ok("B", "sync", "shared")
        let ownerID = try laptops.deviceID("A")
        let owner = try #require(Identifier(ownerID))
        // Laptop B turns hostile: its own file, validly signed with its own key, claims A's
        // counters an hour ahead of anything A issued. B opens it with its keys and seals it
        // again with them (issue 43), as a member holding the trip's key writes its file.
        let bID = try laptops.deviceID("B")
        let path = try laptops.tripFolder() + "/\(bID).trip.json.gz"
        var document = try laptops.tripFile(path, as: "B").document
        let ahead = document.clock[owner] + 3_600_000
        switch claim {
        case .clock: document.clock[owner] = ahead
        case .acks:
            document.clock[owner] = ahead
            var ack = document.acks[document.deviceID] ?? VersionVector()
            ack[owner] = ahead
            document.acks[document.deviceID] = ack
        }
        try Data(try laptops.sealed(document, by: "B")).write(to: URL(fileURLWithPath: path))

        let sync = try laptops.run("A", ["sync", "shared"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(!sync.stderr.contains("copied or restored"), "\(sync.stderr)")
        #expect(sync.stderr.contains("skipped") && sync.stderr.contains("Laptop B"), "the file is skipped naming its writer: \(sync.stderr)")
        #expect(try laptops.deviceID("A") == ownerID, "the owner's laptop took a new device id")
        // The owner still edits, invites and is listed as the owner.
        try laptops.ok("A", "add", "Belem", "--day", "2027-06-10")
        try laptops.ok("A", "invite", "--role", "viewer")
        let members = try laptops.ok("A", "members").stdout
        #expect(members.contains("owner") && members.contains("(this laptop)"), "\(members)")
    }

    // MARK: Issue 25, finding 2

    /// A laptop whose clock ran ten years ahead, then was fixed, recovers by itself: its next
    /// edit works and says what happened, the values typed while wrong reach the other laptop
    /// at the right time, and both converge to one fingerprint.
    @Test(.enabled(if: CLI.faketimeUsable, Comment(rawValue: CLI.faketimeMissing)), arguments: ["open", "owned"])
    func aLaptopWhoseClockRanAheadRecoversByItself(_ kind: String) throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        if kind == "owned" {
            try laptops.ownedTrip(withB: "editor")
        } else {
            try laptops.ok("A", "init", "--device-name", "Laptop A")
            try laptops.ok("A", "new", "Rome", "--open", "--zone", "Europe/Rome")
            try laptops.ok("A", "add", "Pantheon", "--day", "2027-05-01")
            try laptops.ok("A", "sync", "shared")
            try laptops.ok("B", "init", "--device-name", "Laptop B")
            try laptops.ok("B", "sync", "shared")
        }
        let before = try laptops.deviceID("A")
        // Ten years ahead: the edit is made and published, and every other laptop refuses it.
        try laptops.ok("A", "add", "Typed while wrong", "--day", "2027-05-02", through: ["/usr/bin/env", "faketime", "-f", "+3650d"])
        try laptops.ok("A", "sync", "shared", through: ["/usr/bin/env", "faketime", "-f", "+3650d"])
        try laptops.ok("B", "sync", "shared")
        #expect(try !laptops.ok("B", "show").stdout.contains("Typed while wrong"))
        // The clock is fixed: the laptop edits again, and says what happened.
        let edit = try laptops.ok("A", "add", "Typed after the fix", "--day", "2027-05-03")
        #expect(edit.stderr.contains("clock was") && edit.stderr.contains("reached nobody until now"), "\(edit.stderr)")
        #expect(try laptops.deviceID("A") != before, "a new device id")
        try laptops.ok("A", "sync", "shared")
        try laptops.ok("B", "sync", "shared")
        try laptops.ok("A", "sync", "shared")
        let shown = try laptops.ok("B", "show").stdout
        #expect(shown.contains("Typed while wrong") && shown.contains("Typed after the fix"), "\(shown)")
        let a = try laptops.ok("A", "fingerprint").stdout
        let b = try laptops.ok("B", "fingerprint").stdout
        #expect(a == b && !a.isEmpty, "both laptops converge")
        // B may edit on; no file from the future is left in the folder.
        let later = try laptops.ok("B", "sync", "shared")
        #expect(!later.stderr.contains("ahead of ours"), "\(later.stderr)")
    }

    // MARK: Issue 25, finding 3

    /// `cp -a homeFROM homeTO`: a copied (or restored) home at a new path.
    func copyHome(_ laptops: Laptops, from: String, to: String) throws {
        let (status, _, err) = try CLI.spawn("/bin/cp", ["-a", laptops.home(from), laptops.home(to)], cwd: laptops.root)
        #expect(status == 0, "cp -a: \(String(decoding: err, as: UTF8.self))")
    }

    /// An editor's home copied to a new path (a restored laptop) keeps editing: its edit reaches
    /// the owner and the others, `members` shows the new device as the old one's successor with
    /// the editor role, and nobody is asked to approve anything.
    @Test func aCopiedEditorHomeKeepsItsSeat() throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        try laptops.ownedTrip(withB: "editor")
        try copyHome(laptops, from: "B", to: "C")
        let old = try laptops.deviceID("B")
        let edit = try laptops.ok("C", "add", "Typed on the restored laptop", "--day", "2027-06-09")
        #expect(edit.stderr.contains("keeps the seat"), "\(edit.stderr)")
        let new = try laptops.deviceID("C")
        #expect(new != old)
        try laptops.ok("C", "sync", "shared")
        let sync = try laptops.ok("A", "sync", "shared")
        #expect(!sync.stderr.contains("not a member"), "\(sync.stderr)")
        #expect(try laptops.ok("A", "show").stdout.contains("Typed on the restored laptop"))
        let members = try laptops.ok("A", "members").stdout
        let line = members.split(separator: "\n").first { $0.contains(new.prefix(8)) }.map(String.init) ?? ""
        #expect(line.contains("editor (successor of \(old.prefix(8)))"), "\(members)")
        #expect(!members.contains("pending"), "\(members)")
        #expect(try laptops.ok("A", "members", "approve", "--all").stdout.contains("no pending device"))
        // The original laptop and the copy both go on; everyone converges.
        try laptops.ok("B", "add", "Typed on the original", "--day", "2027-06-10")
        for laptop in ["B", "C", "A", "B", "C"] { try laptops.ok(laptop, "sync", "shared") }
        let fingerprints = Set(try ["A", "B", "C"].map { try laptops.ok($0, "fingerprint").stdout })
        #expect(fingerprints.count == 1, "\(fingerprints)")
        let shown = try laptops.ok("B", "show").stdout
        #expect(shown.contains("Typed on the restored laptop") && shown.contains("Typed on the original"), "\(shown)")
    }

    /// The owner copying their home to a new laptop keeps the trip: the copy holds the owner
    /// key, grants itself owner at once, edits and invites; the others take its files.
    @Test func theOwnersHomeCopiedToANewLaptopStaysOwner() throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        try laptops.ownedTrip(withB: "editor")
        try copyHome(laptops, from: "A", to: "D")
        try laptops.ok("D", "add", "Typed on the new laptop", "--day", "2027-06-09")
        try laptops.ok("D", "invite", "--role", "viewer")
        let new = try laptops.deviceID("D")
        let members = try laptops.ok("D", "members").stdout
        let line = members.split(separator: "\n").first { $0.contains(new.prefix(8)) }.map(String.init) ?? ""
        #expect(line.contains("owner") && line.contains("(this laptop)"), "\(members)")
        try laptops.ok("D", "sync", "shared")
        try laptops.ok("B", "sync", "shared")
        #expect(try laptops.ok("B", "show").stdout.contains("Typed on the new laptop"))
        try laptops.ok("A", "sync", "shared")
        #expect(try laptops.ok("A", "show").stdout.contains("Typed on the new laptop"))
    }

    /// A copied viewer's home stays a viewer and a removed member's copy stays removed: a
    /// succession never gives more than the old device's role, and `members approve --all`
    /// finds nothing to turn into an editor.
    @Test(arguments: ["viewer", "removed"]) func aCopyNeverGainsARole(_ role: String) throws {
        let laptops = Laptops(homePrefix: "home", sharedWord: "shared")
        try laptops.ownedTrip(withB: role == "viewer" ? "viewer" : "editor")
        if role == "removed" {
            try laptops.ok("A", "members", "remove", String(try laptops.deviceID("B").prefix(8)))
            try laptops.ok("A", "sync", "shared")
            try laptops.ok("B", "sync", "shared")
        }
        try copyHome(laptops, from: "B", to: "C")
        let edit = try laptops.run("C", ["add", "Should not be taken", "--day", "2027-06-09"])
        #expect(edit.status == 1, "\(edit.stderr)")
        try laptops.ok("C", "sync", "shared")
        try laptops.ok("A", "sync", "shared")
        try laptops.ok("A", "members", "approve", "--all")
        let new = try laptops.deviceID("C")
        let members = try laptops.ok("A", "members").stdout
        let line = members.split(separator: "\n").first { $0.contains(new.prefix(8)) }.map(String.init) ?? ""
        #expect(!line.contains("editor") && !line.contains("owner"), "\(members)")
        #expect(try !laptops.ok("A", "show").stdout.contains("Should not be taken"))
    }
}

extension Laptops {
    /// The only trip folder of `shared`.
    func tripFolder() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: shared).filter { !$0.hasPrefix(".") }
        return shared + "/" + (names.first ?? "")
    }

    /// An owned trip made on A with one item, published; B joined as `role`.
    func ownedTrip(withB role: String) throws {
        try ok("A", "init", "--device-name", "Laptop A")
        try ok("A", "new", "Lisbon 2027", "--zone", "Europe/Lisbon", "--owned")
        try ok("A", "add", "Fado night", "--day", "2027-06-08", "--at", "21:00")
        try ok("A", "sync", shared)
        let code = try ok("A", "invite", "--role", role).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try ok("B", "init", "--device-name", "Laptop B")
        try ok("B", "join", code, shared)
        try ok("B", "sync", shared)
        try ok("A", "sync", shared)
        try ok("B", "sync", shared)
    }
}
