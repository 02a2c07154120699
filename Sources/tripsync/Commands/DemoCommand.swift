import Foundation
import TripSync

/// `tripsync demo`: the whole idea in one command, in temporary homes.
enum DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo",
        summary: "two laptops in temporary homes: invite, join, sync, settle a conflict",
        forms: ["[--keep]"],
        about: """
            Alex plans a trip, invites Sam's laptop, Sam joins through a shared folder, both edit
            offline (the same title twice, a delete, a new item), both sync, and Alex settles the
            conflict: every command as you would type it, in two temporary homes and a shared
            folder it names; your own home is untouched. At the end it prints commands to try on
            those homes and, on a terminal, keeps them until you press Enter. --keep keeps them and
            exits; without a terminal and without --keep they are removed (and it says so).
            """,
        options: [
            OptionSpec("--keep", .flag, "keep the demo's homes and exit (their paths are printed)"),
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        let root = temporary + "tripsync-demo-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let alex = GlobalOptions(home: root + "/alex")
        let sam = GlobalOptions(home: root + "/sam")
        let shared = root + "/shared"
        try Failure.during(.creating(shared, what: "the demo's folder")) {
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        }
        do {
            try play(root: root, alex: alex, sam: sam, shared: shared)
        } catch {
            // A demo that stopped is cleaned up as one that ran, and says where it was.
            finish(root: root, keep: parser.has("--keep"), ask: false)
            throw error
        }
        Console.out("")
        Console.out("Try it yourself on these homes (the shared folder stands for a synced Dropbox or Syncthing folder):")
        let a = "tripsync --home " + CommandHint.shellWord(root + "/alex")
        let b = "tripsync --home " + CommandHint.shellWord(root + "/sam")
        let folder = CommandHint.shellWord(shared)
        for line in [
            "\(a) show", "\(b) status", "\(b) add \"Tram 28\" --day 2027-06-09 --at 15:00", "\(b) sync \(folder)",
            "\(a) sync \(folder)", "\(a) show",
        ] { Console.out("  " + line) }
        finish(root: root, keep: parser.has("--keep"), ask: true)
    }

    /// The demo's steps, each shown as the command a person types and what it printed.
    static func play(root: String, alex: GlobalOptions, sam: GlobalOptions, shared: String) throws {
        func step(_ who: String, _ words: [String], _ options: GlobalOptions) throws -> String {
            let shown = words.map { $0.contains(" ") || $0.contains("'") ? "\"\($0)\"" : $0 }.joined(separator: " ")
            Console.out("")
            Console.out("\(who)$ tripsync \(shown)")
            guard let command = Registry.commands.first(where: { $0.name == words[0] }) else { return "" }
            // Hints the command prints name the home it ran in.
            let saved = (CommandHint.home, CommandHint.trip)
            CommandHint.home = options.home
            CommandHint.trip = nil
            defer { (CommandHint.home, CommandHint.trip) = saved }
            let capture = OutputCapture()
            try capture.run { try command.run(Array(words.dropFirst()), global: options) }
            for line in capture.lines { Console.verbatim(line) }
            return capture.lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        Console.out("TripSync demo: two laptops, no server. Alex's home: \(root)/alex; Sam's home: \(root)/sam;")
        Console.out("the folder both sync with (a Dropbox or Syncthing folder in real life): \(shared)")
        _ = try step("alex", ["init", "--device-name", "Alex's laptop"], alex)
        _ = try step("alex", ["new", "Lisbon 2027", "--zone", "Europe/Lisbon"], alex)
        let lunch = try step("alex", ["add", "Lunch", "--day", "2027-06-08", "--at", "12:30", "--place", "Mercado da Ribeira"], alex)
        _ = try step("alex", ["add", "Fado night", "--day", "2027-06-08", "--at", "21:00", "--place", "Alfama"], alex)
        let museum = try step("alex", ["add", "Gulbenkian Museum", "--day", "2027-06-09", "--at", "10:00"], alex)
        _ = try step("alex", ["sync", shared], alex)
        Console.out("")
        Console.out("# Alex invites Sam's laptop; the code goes to Sam by message or mail.")
        let code = try step("alex", ["invite", "--role", "editor"], alex)
        _ = try step("sam", ["init", "--device-name", "Sam's laptop"], sam)
        _ = try step("sam", ["join", code, shared], sam)
        _ = try step("alex", ["sync", shared], alex)
        _ = try step("sam", ["sync", shared], sam)
        Console.out("")
        Console.out("# Offline, both edit: the same title twice is a conflict; Sam also deletes the museum and adds a dinner.")
        let shortLunch = String(lunch.prefix(8))
        let shortMuseum = String(museum.prefix(8))
        _ = try step("alex", ["edit", shortLunch, "--title", "Lunch at Time Out Market"], alex)
        _ = try step("sam", ["edit", shortLunch, "--title", "Lunch at Cervejaria Ramiro", "--note", "Book for 4"], sam)
        _ = try step("sam", ["delete", shortMuseum], sam)
        _ = try step("sam", ["add", "Dinner at Zé da Mouraria", "--day", "2027-06-09", "--at", "20:00"], sam)
        _ = try step("sam", ["sync", shared], sam)
        _ = try step("alex", ["sync", shared], alex)
        _ = try step("alex", ["conflicts"], alex)
        _ = try step("alex", ["resolve", shortLunch, "title", "--keep", "mine"], alex)
        _ = try step("alex", ["sync", shared], alex)
        _ = try step("sam", ["sync", shared], sam)
        _ = try step("sam", ["show"], sam)
        let a = try step("alex", ["fingerprint"], alex)
        let s = try step("sam", ["fingerprint"], sam)
        Console.out("")
        Console.out((a == s ? "Both laptops hold the same trip: nothing anyone typed was lost." : "The laptops differ (this is a bug)."))
    }

    /// Keeps the demo's homes (with `keep`, or until Enter on a terminal when `ask`) or removes
    /// them, and says which.
    static func finish(root: String, keep: Bool, ask: Bool) {
        Console.out("")
        if keep {
            Console.out("The demo's homes are kept in \(root) (remove them with: rm -r \(CommandHint.shellWord(root)))")
            return
        }
        if ask && Confirm.canAsk {
            Confirm.waitForEnter("Press Enter to remove the demo's homes in \(root) (Ctrl-C keeps them)... ")
        }
        do {
            try FileManager.default.removeItem(atPath: root)
            Console.out("Removed the demo's homes in \(root) (tripsync demo --keep keeps them).")
        } catch {
            Console.warning("\(root): cannot remove the demo's homes (\(error)); remove them by hand")
        }
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
