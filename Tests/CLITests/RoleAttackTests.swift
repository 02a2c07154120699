import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import TripSyncCore
@testable import TripSyncHome

/// Issue 41's attacks through the built binary (findings 5, 6 and 7): keys that outlive a
/// removal, a copy of the owner's home, and entrances that took what sync refuses. Each test
/// failed before the change it guards.
@Suite struct RoleAttackTests {
    /// `cp -a homeFROM homeTO`: a copied (or restored) home.
    static func copyHome(_ laptops: Laptops, from: String, to: String) throws {
        let (status, _, err) = try CLI.spawn("/bin/cp", ["-a", laptops.home(from), laptops.home(to)], cwd: laptops.root)
        #expect(status == 0, "cp -a: \(String(decoding: err, as: UTF8.self))")
    }

    /// Finding 5: the owner removes a restored editor (a successor): the key it succeeded, which
    /// the restored home still holds, is retired too, so files under the old id are skipped.
    @Test func removingASuccessorRetiresTheKeyItSucceeded() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        _ = try laptops.ownedTripWithB(as: "editor")
        let old = try laptops.device("B")
        try Self.copyHome(laptops, from: "B", to: "C")
        try laptops.ok("C", ["sync", laptops.folder])
        let new = try laptops.device("C")
        #expect(new != old)
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(try laptops.roles("A", of: new) == ["editor"])
        try laptops.ok("A", ["members", "remove", String(new.description.prefix(8))])
        #expect(try laptops.roles("A", of: new) == ["removed"])
        #expect(try laptops.roles("A", of: old) == ["removed"], "the old key is retired with its successor")
        // The removed person writes under the old id (its key is still in the copied home).
        try laptops.ok("B", ["add", "Written with the old key", "--day", "2027-06-09"])
        try laptops.ok("B", ["sync", laptops.folder])
        try laptops.ok("A", ["sync", laptops.folder])
        #expect(!(try laptops.ok("A", ["show"]).stdout.contains("Written with the old key")))
    }

    /// Finding 6: a copy of the owner's home is a new device like any copy: it holds its seat
    /// through the original, so it cannot remove the original (that would remove itself; the
    /// command says so and exits non-zero), while the original removes the copy for good. When
    /// the copy acts as owner, the original is told that its owner key is used elsewhere.
    @Test func aCopyOfTheOwnersHomeCannotTakeTheTrip() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        _ = try laptops.ownedTripWithB(as: "editor")
        let original = try laptops.device("A")
        let b = try laptops.device("B")
        try Self.copyHome(laptops, from: "A", to: "D")
        try laptops.ok("D", ["sync", laptops.folder])
        let copy = try laptops.device("D")
        let refused = try laptops.expect(1, "D", ["members", "remove", String(original.description.prefix(8))])
        #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        // The copy acts as owner: the original is shown the fork of its owner key.
        try laptops.ok("D", ["members", "set", String(b.description.prefix(8)), "--role", "viewer"])
        try laptops.ok("D", ["sync", laptops.folder])
        let sync = try laptops.ok("A", ["sync", laptops.folder])
        #expect((sync.stdout + sync.stderr).contains("owner key of this trip is also used by device \(copy.description.prefix(8))"), "\(sync.stdout)\(sync.stderr)")
        // The original removes the copy: it takes effect, and the original stays owner.
        try laptops.ok("A", ["members", "remove", String(copy.description.prefix(8))])
        #expect(try laptops.roles("A", of: copy) == ["removed"])
        #expect(try laptops.roles("A", of: original) == ["owner"])
        try laptops.ok("A", ["sync", laptops.folder])
        try laptops.ok("B", ["sync", laptops.folder])
        #expect(try laptops.roles("B", of: original) == ["owner"])
        #expect(try laptops.roles("B", of: copy) == ["removed"])
        // The copy is told too, and its owner acts now take effect nowhere: refused, non-zero.
        let copySync = try laptops.ok("D", ["sync", laptops.folder])
        #expect((copySync.stdout + copySync.stderr).contains("owner key of this trip is also used by device \(original.description.prefix(8))"), "\(copySync.stderr)")
        try laptops.expect(1, "D", ["members", "remove", String(b.description.prefix(8))])
    }

    /// Finding 7: `import --replace --yes` refuses a removed member's signed backup and the
    /// folder host's unsigned copy, as `--merge` does; the home's own backup still replaces.
    @Test func importReplaceAppliesSyncsAcceptance() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let a = try laptops.device("A")
        let b = try laptops.device("B")
        try laptops.ok("B", ["add", "Only in B's backup", "--day", "2027-06-09"])
        try laptops.ok("B", ["backup", "-o", laptops.root + "/b.trip.json.gz"])
        try laptops.ok("A", ["members", "remove", String(b.description.prefix(8))])
        for mode in ["--merge", "--replace"] {
            let result = try laptops.expect(1, "A", ["import", laptops.root + "/b.trip.json.gz", mode, "--yes"])
            #expect(result.stderr.contains("removed"), "\(mode): \(result.stderr)")
        }
        // The host's unsigned copy of the owner's published file, with an item added. The file
        // is sealed (issue 43), so the host cannot open it: it is handed what a member reads,
        // the strongest such copy (one kept from before the trip was sealed).
        let published = laptops.folder + "/\(trip)/\(a).trip.json.gz"
        var document = try laptops.tripFile(published, as: "A").document
        var hlc = HybridLogicalClock(highWater: document.clock.maxCounter)
        try document.addItem(Identifier.random(), NewItem(title: "Planted by the host", sortKey: "V"), hlc: &hlc, now: document.clock.maxCounter + 10)
        try Data(document.canonicalJSON()).write(to: URL(fileURLWithPath: laptops.root + "/host.trip.json"))
        for mode in ["--merge", "--replace"] {
            try laptops.expect(1, "A", ["import", laptops.root + "/host.trip.json", mode, "--yes"])
        }
        let shown = try laptops.ok("A", ["show"]).stdout
        #expect(!shown.contains("Only in B's backup") && !shown.contains("Planted by the host"), "\(shown)")
        // The home's own backup still replaces, and so does the copy a replace kept (an undo).
        try laptops.ok("A", ["backup", "-o", laptops.root + "/a.trip.json.gz"])
        let replaced = try laptops.ok("A", ["import", laptops.root + "/a.trip.json.gz", "--replace", "--yes"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: laptops.home("A") + "/trips/backups").filter { $0.hasPrefix(trip) }
        #expect(kept.count == 1, "\(replaced.stdout)")
        try laptops.ok("A", ["import", laptops.home("A") + "/trips/backups/" + (kept.first ?? ""), "--replace", "--yes"])
    }

    /// Finding 4: after the owner removes B, B's later edit, new item and delete reach C (an
    /// editor that has not heard of the removal yet), and C's file relays them. The owner's sync
    /// takes C's own change but none of B's, and says so; C, once it holds the removal, drops
    /// them too and is told; both end with the same trip.
    @Test func aRemovedEditorsLaterWritesRelayedByAnotherEditorAreTakenByNobody() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (_, _) = try laptops.ownedTripWithB(as: "editor")
        let code = try laptops.ok("A", ["invite", "--role", "editor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("C", ["init", "--device-name", "Laptop C"])
        try laptops.ok("C", ["join", code, laptops.folder])
        try laptops.ok("C", ["sync", laptops.folder])
        let tram = try laptops.ok("A", ["add", "Tram 28", "--day", "2027-06-09"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let fado = try laptops.ok("A", ["add", "Castle", "--day", "2027-06-10"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("A", ["sync", laptops.folder])
        for laptop in ["B", "C", "A", "B", "C"] { try laptops.ok(laptop, ["sync", laptops.folder]) }
        let b = try laptops.device("B")
        try laptops.ok("A", ["members", "remove", String(b.description.prefix(8))])
        // B, removed but not told yet, edits, adds and deletes; C takes B's file.
        try laptops.ok("B", ["edit", String(fado.prefix(8)), "--title", "Edited after removal"])
        try laptops.ok("B", ["add", "Added after removal", "--day", "2027-06-11"])
        try laptops.ok("B", ["delete", String(tram.prefix(8))])
        try laptops.ok("B", ["sync", laptops.folder])
        try laptops.ok("C", ["add", "C's own plan", "--day", "2027-06-12"])
        try laptops.ok("C", ["sync", laptops.folder])
        let owner = try laptops.ok("A", ["sync", laptops.folder])
        #expect((owner.stdout + owner.stderr).contains("removed from the trip, made after its removal"), "\(owner.stdout)\(owner.stderr)")
        let shown = try laptops.ok("A", ["show"]).stdout
        #expect(shown.contains("C's own plan"), "\(shown)")
        #expect(shown.contains("Castle") && shown.contains("Tram 28"), "\(shown)")
        #expect(!shown.contains("Edited after removal") && !shown.contains("Added after removal"), "\(shown)")
        // C learns of the removal: it is told, and drops B's late writes too.
        let relay = try laptops.ok("C", ["sync", laptops.folder])
        #expect((relay.stdout + relay.stderr).contains("this laptop held"), "\(relay.stdout)\(relay.stderr)")
        for laptop in ["A", "C", "A"] { try laptops.ok(laptop, ["sync", laptops.folder]) }
        let relayed = try laptops.ok("C", ["show"]).stdout
        #expect(!relayed.contains("Edited after removal") && !relayed.contains("Added after removal") && relayed.contains("Tram 28"), "\(relayed)")
        #expect(try laptops.ok("A", ["fingerprint"]).stdout == laptops.ok("C", ["fingerprint"]).stdout)
    }

    /// C's backup holding B's writes made after the owner removed B (C took them before it
    /// heard of the removal), plus C's own change; the owner has not synced since.
    static func backupRelayingARemovedEditor(_ laptops: Laptops) throws -> String {
        let (_, _) = try laptops.ownedTripWithB(as: "editor")
        let code = try laptops.ok("A", ["invite", "--role", "editor"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("C", ["init", "--device-name", "Laptop C"])
        try laptops.ok("C", ["join", code, laptops.folder])
        try laptops.ok("C", ["sync", laptops.folder])
        let castle = try laptops.ok("A", ["add", "Castle", "--day", "2027-06-10"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptops.ok("A", ["sync", laptops.folder])
        for laptop in ["B", "C", "A", "B", "C"] { try laptops.ok(laptop, ["sync", laptops.folder]) }
        let b = try laptops.device("B")
        try laptops.ok("A", ["members", "remove", String(b.description.prefix(8))])
        try laptops.ok("B", ["edit", String(castle.prefix(8)), "--title", "Edited after removal"])
        try laptops.ok("B", ["add", "Added after removal", "--day", "2027-06-11"])
        try laptops.ok("B", ["sync", laptops.folder])
        try laptops.ok("C", ["sync", laptops.folder])  // C takes B's writes: it has not heard of the removal
        try laptops.ok("C", ["add", "C's own plan", "--day", "2027-06-12"])
        let backup = laptops.root + "/c-backup.trip.json.gz"
        try laptops.ok("C", ["backup", "-o", backup])
        return backup
    }

    /// Finding 4 at the other entrances: C's backup, relaying B's late writes, imported on the
    /// owner's laptop with `import --merge`, or merged with the owner's backup by `merge`: C's
    /// own change is taken, none of B's late ones, and the person is told (as a sync would).
    @Test func aRemovedEditorsLaterWritesInAnImportedBackupAreNotTaken() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let backup = try Self.backupRelayingARemovedEditor(laptops)
        let imported = try laptops.ok("A", ["import", backup, "--merge", "--yes"])
        #expect((imported.stdout + imported.stderr).contains("made after their removal"), "\(imported.stdout)\(imported.stderr)")
        let shown = try laptops.ok("A", ["show"]).stdout
        #expect(shown.contains("C's own plan") && shown.contains("Castle"), "\(shown)")
        #expect(!shown.contains("Edited after removal") && !shown.contains("Added after removal"), "\(shown)")
    }

    @Test func aRemovedEditorsLaterWritesInAMergedFileAreNotTaken() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let backup = try Self.backupRelayingARemovedEditor(laptops)
        let owners = laptops.root + "/a-backup.trip.json.gz"
        try laptops.ok("A", ["backup", "-o", owners])
        let out = laptops.root + "/merged.trip.json"
        let merged = try laptops.ok("A", ["merge", owners, backup, "-o", out])
        #expect((merged.stdout + merged.stderr).contains("made after their removal"), "\(merged.stdout)\(merged.stderr)")
        // The merge of sealed files is sealed (issue 43): read as the owner reads it.
        let text = String(decoding: try laptops.tripFile(out, as: "A").document.canonicalJSON(), as: UTF8.self)
        #expect(text.contains("C's own plan") && text.contains("Castle"))
        #expect(!text.contains("Edited after removal") && !text.contains("Added after removal"))
    }

    /// Finding 3: thirty join requests answering one invite: twenty wait for the owner, the rest
    /// are counted in one line; the next sync does not list them again one by one.
    @Test func joinRequestsAreBoundedPerInviteAndSummarised() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let code = try laptops.ok("A", ["invite", "--role", "viewer"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for index in 0..<30 { try laptops.plantJoinRequest(code: code, device: Identifier.random(), name: "Stranger \(index)", trip: trip) }
        let first = try laptops.ok("A", ["sync", laptops.folder])
        let text = first.stdout + first.stderr
        #expect(text.contains("more join request(s)") && text.contains("not listed"), "\(text)")
        #expect(text.components(separatedBy: "not admitted").count - 1 <= 11, "\(text)")
        #expect(try laptops.members("A").filter { $0.role == "pending" }.count == 20)
        let later = try laptops.ok("A", ["sync", laptops.folder])
        #expect(!(later.stdout + later.stderr).contains("Stranger 1"), "\(later.stdout)\(later.stderr)")
        #expect((later.stdout + later.stderr).contains("join request(s) still wait"), "\(later.stdout)\(later.stderr)")
    }

    /// Finding 3: a file skipped once is not read again while its name, size, time and inode are
    /// unchanged: its bytes replaced in place (same size, time put back) are not seen.
    @Test func aSkippedFileIsNotReadAgainWhileUnchanged() throws {
        let laptops = Laptops()
        defer { laptops.cleanUp() }
        let (trip, _) = try laptops.ownedTripWithB(as: "editor")
        let a = try laptops.device("A")
        // A stranger's file made from the owner's, as a member reads it (it is sealed, issue
        // 43), written plain and signed by a key nobody granted: what a stranger without the
        // trip's keys can write.
        var document = try laptops.tripFile(laptops.folder + "/\(trip)/\(a).trip.json.gz", as: "A").document
        let stranger = Identifier.random()
        document.deviceID = stranger
        let path = laptops.folder + "/\(trip)/\(stranger).trip.json.gz"
        let bytes = try document.signedGzipData(signingKey: SigningKey.generate())
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let first = try laptops.ok("A", ["sync", laptops.folder])
        #expect(first.stderr.contains("is not a member"), "\(first.stderr)")
        // Overwrite in place with bytes of the same size, and put the time back.
        var before = stat()
        #expect(lstat(path, &before) == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x20, count: bytes.count))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let second = try laptops.ok("A", ["sync", laptops.folder])
        #expect(second.stderr.contains("is not a member"), "not read again: \(second.stderr)")
        // A change of time makes it read again.
        var later = [before.st_atim, timespec(tv_sec: before.st_mtim.tv_sec + 5, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &later, 0) == 0)
        let third = try laptops.ok("A", ["sync", laptops.folder])
        #expect(!third.stderr.contains("is not a member") && third.stderr.contains("skipped"), "read again: \(third.stderr)")
    }
}
