import Foundation
import Testing

@testable import TripSync
@testable import TripSyncCore
@testable import TripSyncHome

/// The trip's zone is a register of the trip (issue 25, finding 4), member names come from the
/// owner-signed grant (issue 26, finding 5), and every member, viewers included, converges to
/// one fingerprint (issue 25, finding 5); each through the built binary.
@Suite(.serialized) struct TripZoneAndNamesTests {
    // MARK: The trip's zone (issue 25, finding 4)

    /// A laptop that joined adds without --zone in the trip's zone, not in the zone most items
    /// use, and says on stderr what it stored.
    @Test func aJoinedLaptopAddsInTheTripsZoneNotTheItemsMajorityZone() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ok("a", "init", "--device-name", "Alex laptop")
        try laptops.ok("a", "new", "Madrid 2027", "--zone", "Europe/Madrid")
        for day in 1...3 { try laptops.ok("a", "add", "Tokyo call \(day)", "--day", "2027-06-0\(day)", "--at", "10:00", "--zone", "Asia/Tokyo") }
        try laptops.ok("a", "sync", laptops.folder)
        let code = try laptops.ok("a", "invite", "--role", "editor").stdout.split(separator: "\n").first.map(String.init) ?? ""
        try laptops.ok("b", "init", "--device-name", "Bob laptop")
        try laptops.ok("b", "join", code, laptops.folder)
        for home in ["b", "a", "b"] { try laptops.ok(home, "sync", laptops.folder) }
        let added = try laptops.ok("b", "add", "Dinner", "--day", "2027-06-10", "--at", "21:00")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Identifier(id) != nil, "stdout stays the id only: \(added.stdout)")
        let start = try laptops.start("b", id)
        #expect(start?["zone"] as? String == "Europe/Madrid", "stored \(String(describing: start))")
        #expect(start?["local"] as? String == "2027-06-10T21:00")
        #expect(added.stderr.contains("added \"Dinner\" on Thu 10 Jun 2027 at 21:00 Europe/Madrid"), "\(added.stderr)")
    }

    /// `zone ZONE` is a register write every laptop takes (here a second home of an open trip
    /// synced through a folder); two laptops setting it at once make a `trip-zone` conflict that
    /// `resolve trip zone` settles; `new` without --zone takes this machine's zone, saying so;
    /// a well-formed zone unknown here is set with a warning, a fixed offset refused.
    @Test func theZoneCommandSetsTheTripsZoneForEveryLaptop() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ok("a", "init", "--device-name", "Alex laptop")
        let made = try laptops.ok("a", "new", "Lisbon 2027", "--open", environment: ["TZ": "America/New_York"])
        #expect(made.stderr.contains("the trip's zone is America/New_York, this machine's zone"), "\(made.stderr)")
        #expect(try laptops.ok("a", "zone").stdout == "America/New_York\n")
        try laptops.ok("a", "add", "Call", "--day", "2027-06-01", "--at", "09:00", "--zone", "Asia/Tokyo")
        try laptops.ok("a", "sync", laptops.folder)
        try laptops.ok("b", "init", "--device-name", "Bob laptop")
        try laptops.ok("b", "sync", laptops.folder)
        let set = try laptops.ok("b", "zone", "Europe/Lisbon")
        #expect(set.stdout == "the trip's zone is now Europe/Lisbon (was America/New_York)\n")
        try laptops.ok("b", "sync", laptops.folder)
        try laptops.ok("a", "sync", laptops.folder)
        let added = try laptops.ok("a", "add", "Fado", "--day", "2027-06-08", "--at", "21:00", environment: ["TZ": "Asia/Tokyo"])
        #expect(try laptops.start("a", added.stdout.trimmingCharacters(in: .whitespacesAndNewlines))?["zone"] as? String == "Europe/Lisbon")
        // Set at once on both laptops: a conflict of kind trip-zone, settled by resolve.
        try laptops.ok("a", "zone", "Europe/Madrid")
        try laptops.ok("b", "zone", "Europe/Paris")
        for home in ["a", "b", "a"] { try laptops.ok(home, "sync", laptops.folder) }
        let listed = try laptops.ok("a", "conflicts", "--json")
        #expect(listed.stdout.contains("trip-zone"), "\(listed.stdout)")
        let text = try laptops.ok("a", "conflicts")
        #expect(text.stdout.contains("The trip's zone:") && text.stdout.contains(" resolve trip zone --keep mine"), "\(text.stdout)")
        try laptops.ok("a", "resolve", "trip", "zone", "--keep", "current")
        #expect(!(try laptops.ok("a", "conflicts", "--json").stdout.contains("trip-zone")))
        // Unknown but well-formed: set with a warning; a fixed offset: refused, nothing written.
        let unknown = try laptops.ok("a", "zone", "Mars/Olympus_Mons")
        #expect(unknown.stderr.contains("unknown to this machine's time zone database"))
        let offset = try laptops.run("a", ["zone", "+01:00"])
        #expect(offset.status == 2 && offset.stderr.contains("never a fixed offset"))
        #expect(try laptops.ok("a", "zone").stdout == "Mars/Olympus_Mons\n")
    }

    /// A trip with no zone (migrated from schema 4, never set): add uses this machine's zone and
    /// says so.
    @Test func aTripWithoutAZoneAddsInThisMachinesZoneAndSaysSo() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ok("a", "init", "--device-name", "Alex laptop")
        try laptops.ok("a", "import", CLI.root + "/samples/v4/open-trip.trip.json", "--merge", "--yes")
        let added = try laptops.ok("a", "add", "Breakfast", "--day", "2027-06-09", "--at", "08:00", environment: ["TZ": "Europe/Berlin"])
        #expect(added.stderr.contains("the trip has no zone: used this machine's zone Europe/Berlin"), "\(added.stderr)")
        #expect(added.stderr.contains("added \"Breakfast\" on Wed 9 Jun 2027 at 08:00 Europe/Berlin"), "\(added.stderr)")
    }

    // MARK: Names from grants (issue 26, finding 5)

    /// An editor's validly signed file that renames the owner ("Eve laptop") changes no display:
    /// members, conflicts, show ITEM, status and the page name devices by their grants.
    @Test func anEditorsFileCannotRenameOtherDevices() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ownedTrip(["Madrid 2027", "--zone", "Europe/Madrid"], members: [("b", "Bob laptop", "editor"), ("c", "Cleo laptop", "viewer")])
        let item = try laptops.ok("a", "add", "Tapas", "--day", "2027-06-10", "--at", "20:00").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("a", "sync", laptops.folder)
        try laptops.ok("b", "sync", laptops.folder)
        try laptops.ok("b", "edit", item, "--place", "Bar Tomate")
        try laptops.ok("b", "sync", laptops.folder)
        // Bob's laptop turns hostile: its next file names the owner "Eve laptop" and itself
        // "Alice laptop" with dots of its own, signed by its own key (a valid editor's file).
        let home = Home(path: laptops.home("b"))
        let tripFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: laptops.folder).first { !$0.hasPrefix(".") })
        let identity = try home.openIdentity().0
        let bob = identity.deviceID
        let replica = try TripFileReader().read(path: home.replicaPath(for: try #require(Identifier(tripFolder)))).document
        let owner = try #require(replica.members.first { $0.value.role == .owner }?.key)
        var hostile = replica
        var counter = replica.clock[bob]
        for (device, name) in [(owner, "Eve laptop"), (bob, "Alice laptop")] {
            counter += 1
            let rev = Rev(counter: counter, device: bob)
            hostile.clock.include(rev)
            hostile.devices[device] = DeviceInfo(name: Register(value: name, rev: rev))
        }
        hostile.acknowledgeOwnState()
        let bytes = try hostile.signedGzipData(signingKey: try home.signingKey(for: bob))
        try Data(bytes).write(to: URL(fileURLWithPath: laptops.folder + "/" + tripFolder + "/\(bob).trip.json.gz"))
        for other in ["a", "c"] {
            let synced = try laptops.ok(other, "sync", laptops.folder)
            var shown = synced.stdout + synced.stderr
            for arguments in [["members"], ["members", "--json"], ["conflicts"], ["show", item], ["show", item, "--json"], ["status"], ["status", "--json"]] {
                let result = try laptops.run(other, arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                shown += result.stdout + result.stderr
            }
            try laptops.ok(other, "export", "--html", laptops.root + "/\(other).html")
            shown += (try? String(contentsOfFile: laptops.root + "/\(other).html", encoding: .utf8)) ?? ""
            #expect(!shown.contains("Eve laptop") && !shown.contains("Alice laptop"), "\(other) shows a name Bob's file wrote")
            #expect(shown.contains("Bob laptop"), "\(other): Bob's edit is Bob's")
            if other == "c" { #expect(shown.contains("Alex laptop"), "the owner keeps its name") }
        }
    }

    // MARK: Convergence (issue 25, finding 5)

    /// Owner, editor and viewer sync through one folder a few rounds: all three print one
    /// fingerprint (the viewer wrote nothing that stays in its replica alone).
    @Test func ownerEditorAndViewerConvergeToOneFingerprint() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        try laptops.ownedTrip(["Madrid 2027", "--zone", "Europe/Madrid"], members: [("b", "Bob laptop", "editor"), ("c", "Cleo laptop", "viewer")])
        try laptops.ok("b", "add", "Prado", "--day", "2027-06-11", "--at", "10:00")
        try laptops.ok("a", "add", "Retiro", "--day", "2027-06-12")
        for _ in 0..<3 { for home in ["a", "b", "c"] { try laptops.ok(home, "sync", laptops.folder) } }
        let prints = try ["a", "b", "c"].map { try laptops.ok($0, "fingerprint").stdout }
        #expect(Set(prints).count == 1, "fingerprints \(prints)")
        // And the names every member shows are the grants' names.
        let members = try laptops.ok("c", "members").stdout
        #expect(members.contains("Alex laptop") && members.contains("Bob laptop") && members.contains("Cleo laptop"), "\(members)")
    }
}

extension Laptops {
    /// Owner `a` ("Alex laptop") makes an owned trip with `new` ARGS, publishes it, and admits
    /// each (home, device name, role) through an invite, the join and a few syncs.
    func ownedTrip(_ newArguments: [String], members: [(String, String, String)]) throws {
        try ok("a", "init", "--device-name", "Alex laptop")
        _ = try run("a", ["new"] + newArguments)
        try ok("a", "sync", folder)
        for (home, name, role) in members {
            let code = try ok("a", "invite", "--role", role).stdout.split(separator: "\n").first.map(String.init) ?? ""
            try ok(home, "init", "--device-name", name)
            try ok(home, "join", code, folder)
            try ok(home, "sync", folder)
            try ok("a", "sync", folder)
            try ok(home, "sync", folder)
        }
    }

    /// The stored start of item `id` as `show ITEM --json` reports it.
    func start(_ home: String, _ id: String) throws -> [String: Any]? {
        let shown = try ok(home, "show", id, "--json")
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        let fields = object?["fields"] as? [[String: Any]] ?? []
        return fields.first { $0["field"] as? String == "start" }?["value"] as? [String: Any]
    }
}
