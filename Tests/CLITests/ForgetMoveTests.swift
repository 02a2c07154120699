import Foundation
import Testing

/// `forget` keeps its promise (the next sync brings an owned trip back with this home's seat)
/// and `move` says why a timed item cannot go where the day's times decide (issue 25,
/// findings 6 and 7).
@Suite struct ForgetMoveTests {
    @Test func forgetThenSyncBringsAnOwnedTripBackWithTheSameSeat() throws {
        let desk = Laptops()
        defer { desk.cleanUp() }
        try FileManager.default.createDirectory(atPath: desk.shared, withIntermediateDirectories: true)
        try desk.ok("alex", ["init", "--device-name", "Alex"])
        let trip = try desk.ok("alex", ["new", "Lisbon", "--zone", "Europe/Lisbon", "--owned"]).line
        try desk.ok("alex", ["add", "Fado night", "--day", "2027-06-08", "--at", "21:00"])
        try desk.ok("alex", ["sync", desk.shared])
        // An editor laptop joins.
        let invite = try desk.ok("alex", ["invite", "--role", "editor"]).line
        try desk.ok("sam", ["init", "--device-name", "Sam"])
        try desk.ok("sam", ["join", invite, desk.shared])
        try desk.ok("sam", ["sync", desk.shared])
        try desk.ok("alex", ["sync", desk.shared])
        try desk.ok("sam", ["sync", desk.shared])
        try desk.ok("sam", ["add", "Lunch", "--day", "2027-06-09", "--at", "12:30"])
        try desk.ok("sam", ["sync", desk.shared])
        try desk.ok("alex", ["sync", desk.shared])
        let ownerRole = try desk.role("alex")
        let editorRole = try desk.role("sam")
        #expect(ownerRole.contains("owner"), "\(ownerRole)")
        #expect(editorRole.contains("editor"), "\(editorRole)")

        for who in ["alex", "sam"] {
            let forgot = try desk.ok(who, ["forget", "--yes"]).line
            #expect(forgot.contains("brings the trip back"), "\(forgot)")
            let sync = try desk.run(who, ["sync", desk.shared])
            #expect(sync.status == 0, "\(who): \(sync.stdout) \(sync.stderr)")
            #expect(!(sync.stdout + sync.stderr).contains("not a member"), "\(who): \(sync.stdout) \(sync.stderr)")
            #expect(!(sync.stdout + sync.stderr).contains("not joined"), "\(who): \(sync.stdout) \(sync.stderr)")
            let shown = try desk.ok(who, ["show", "--trip", trip]).line
            #expect(shown.contains("Fado night") && shown.contains("Lunch"), "\(who): \(shown)")
            #expect(try desk.role(who) == (who == "alex" ? ownerRole : editorRole), "\(who) keeps its seat")
            // It still writes as that member: an edit reaches the other laptop.
            try desk.ok(who, ["add", "Back \(who)", "--day", "2027-06-10", "--at", "10:00"])
            try desk.ok(who, ["sync", desk.shared])
            let other = who == "alex" ? "sam" : "alex"
            let otherSync = try desk.run(other, ["sync", desk.shared])
            #expect(otherSync.status == 0 && otherSync.stdout.contains(", 0 skipped") && !otherSync.stderr.contains("skipped"), "\(other): \(otherSync.stdout) \(otherSync.stderr)")
            #expect(try desk.ok(other, ["show"]).line.contains("Back \(who)"), "\(who)'s edit after coming back is taken")
        }
    }

    @Test func moveOfATimedItemSaysWhyOrMovesAmongItsTies() throws {
        let desk = Laptops()
        defer { desk.cleanUp() }
        try desk.ok("alex", ["init", "--device-name", "Alex"])
        try desk.ok("alex", ["new", "Lisbon", "--zone", "Europe/Lisbon", "--open"])
        let lunch = try desk.ok("alex", ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30"]).line
        let dinner = try desk.ok("alex", ["add", "Dinner", "--day", "2027-06-08", "--at", "20:00"]).line
        let fado = try desk.ok("alex", ["add", "Fado", "--day", "2027-06-08", "--at", "20:00"]).line
        let fingerprint = try desk.ok("alex", ["fingerprint"]).line

        // Another time: refused, naming both times; nothing changed.
        let before = try desk.run("alex", ["move", dinner, "--before", lunch])
        #expect(before.status == 1, "\(before.stdout) \(before.stderr)")
        #expect(!before.stdout.contains("saved"))
        #expect(before.stderr.contains("20:00") && before.stderr.contains("12:30") && before.stderr.contains("nothing was changed"), "\(before.stderr)")
        // First of its own time when no other item shares it: refused too.
        let first = try desk.run("alex", ["move", lunch, "--first"])
        #expect(first.status == 1 && first.stderr.contains("12:30"), "\(first.stderr)")
        #expect(try desk.ok("alex", ["fingerprint"]).line == fingerprint, "a refused move wrote nothing")

        // Among items of the same time, the order is what moves.
        let order = { (text: String) -> [String] in text.split(separator: "\n").compactMap { line in
            ["Lunch", "Dinner", "Fado"].first { line.hasSuffix(" " + $0) } } }
        let start = order(try desk.ok("alex", ["show"]).line)
        let target = (start.firstIndex(of: "Fado") ?? 0) < (start.firstIndex(of: "Dinner") ?? 0) ? (dinner, fado, "Dinner") : (fado, dinner, "Fado")
        let moved = try desk.run("alex", ["move", target.0, "--before", target.1])
        #expect(moved.status == 0 && moved.stdout.contains("saved"), "\(moved.stdout) \(moved.stderr)")
        let after = order(try desk.ok("alex", ["show"]).line)
        #expect(after == ["Lunch", target.2, target.2 == "Dinner" ? "Fado" : "Dinner"], "\(after)")
    }
}

extension Laptops {
    /// Laptop `who`'s line in `members` (the one marked "this laptop").
    func role(_ who: String) throws -> String {
        try ok(who, ["members"]).line.split(separator: "\n").first { $0.contains("(this laptop)") }.map(String.init) ?? ""
    }
}
