import Foundation
import TripSync

/// `tripsync demo`: the whole idea in one command, in temporary homes.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "two laptops in temporary homes: plan offline, exchange files, merge, settle a conflict"
    static let help = """
        usage: tripsync demo [--keep]

        Builds a sample trip on "Alex's laptop", copies it to "Sam's laptop", lets both edit
        offline (two fields, the same title, a delete against an edit), exchanges backups both
        ways, shows the merged itinerary and its conflicts, and settles one with --keep mine.
        Everything happens in a temporary folder (kept with --keep); your own home is untouched.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, flags: ["--keep"])
        try parser.parse(arguments)
        let root = NSTemporaryDirectory() + "tripsync-demo-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let alex = GlobalOptions(home: root + "/alex")
        let sam = GlobalOptions(home: root + "/sam")
        defer {
            if parser.has("--keep") {
                Console.out("")
                Console.out("(the demo homes are kept in \(root))")
            } else {
                try? FileManager.default.removeItem(atPath: root)
            }
        }
        func step(_ who: String, _ words: [String], _ options: GlobalOptions) throws -> String {
            let shown = words.map { $0.contains(" ") || $0.contains("'") ? "\"\($0)\"" : $0 }.joined(separator: " ")
            Console.out("")
            Console.out("\(who)$ tripsync \(shown)")
            guard let command = Registry.commands.first(where: { $0.name == words[0] }) else { return "" }
            let capture = OutputCapture()
            try capture.run { try command.run(Array(words.dropFirst()), global: options) }
            for line in capture.lines { Console.verbatim(line) }
            return capture.lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        Console.out("TripSync demo: two laptops, no server. Homes in \(root).")
        _ = try step("alex", ["init", "--device-name", "Alex's laptop"], alex)
        _ = try step("alex", ["new", "Lisbon & New York 2027", "--zone", "Europe/Lisbon", "--open"], alex)
        let lunch = try step("alex", ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30", "--place", "Mercado da Ribeira"], alex)
        _ = try step("alex", ["add", "Fado night", "--day", "2027-06-08", "--at", "21:00", "--place", "Alfama"], alex)
        let museum = try step("alex", ["add", "Gulbenkian Museum", "--day", "2027-06-09", "--at", "10:00"], alex)
        _ = try step("alex", ["add", "TP 201 Lisbon → New York", "--day", "2027-06-10", "--at", "10:00", "--end", "2027-06-10T13:00", "--end-zone", "America/New_York"], alex)
        _ = try step("alex", ["backup", "-o", root + "/alex.trip.json.gz"], alex)
        _ = try step("sam", ["init", "--device-name", "Sam's laptop"], sam)
        _ = try step("sam", ["import", root + "/alex.trip.json.gz", "--merge", "--yes"], sam)
        Console.out("")
        Console.out("# Offline, both edit. Different fields merge by themselves; the same title twice is a conflict;")
        Console.out("# Sam deletes the museum while Alex adds a note to it.")
        let shortLunch = String(lunch.prefix(8))
        let shortMuseum = String(museum.prefix(8))
        _ = try step("alex", ["edit", shortLunch, "--title", "Lunch at Time Out Market"], alex)
        _ = try step("alex", ["edit", shortMuseum, "--note", "Closed on Tuesdays"], alex)
        _ = try step("sam", ["edit", shortLunch, "--title", "Lunch at Cervejaria Ramiro", "--note", "Book for 4"], sam)
        _ = try step("sam", ["delete", shortMuseum], sam)
        _ = try step("alex", ["backup", "-o", root + "/alex.trip.json.gz", "--force"], alex)
        _ = try step("sam", ["backup", "-o", root + "/sam.trip.json.gz"], sam)
        _ = try step("alex", ["import", root + "/sam.trip.json.gz", "--merge", "--yes"], alex)
        _ = try step("alex", ["show"], alex)
        _ = try step("alex", ["conflicts"], alex)
        _ = try step("alex", ["resolve", shortLunch, "title", "--keep", "mine"], alex)
        _ = try step("alex", ["restore", shortMuseum], alex)
        _ = try step("alex", ["backup", "-o", root + "/alex.trip.json.gz", "--force"], alex)
        _ = try step("sam", ["import", root + "/alex.trip.json.gz", "--merge", "--yes"], sam)
        _ = try step("sam", ["show"], sam)
        let a = try step("alex", ["fingerprint"], alex)
        let s = try step("sam", ["fingerprint"], sam)
        Console.out("")
        Console.out((a == s ? "Both laptops hold the same trip: nothing anyone typed was lost." : "The laptops differ (this is a bug)."))
    }
}

/// Collects what a command prints on stdout (the demo shows it under the command line).
final class OutputCapture {
    /// The lines the command printed, each already escaped by `Console`.
    private(set) var lines: [String] = []

    func run(_ body: () throws -> Void) throws {
        Console.capture = { [weak self] line in self?.lines.append(line) }
        defer { Console.capture = nil }
        try body()
    }
}
