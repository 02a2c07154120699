import TripSync
import TripSyncCore

/// `tripsync invite --role editor|viewer [--expires DAYS]`.
enum InviteCommand: Command {
    static let spec = CommandSpec(
        name: "invite",
        summary: "print a code that lets a new laptop join the trip (owner)",
        forms: ["--role [--expires] [--trip]"],
        about: """
            Prints a one-time invite code (valid DAYS days, default 7) to send by any channel. On the
            new laptop, 'tripsync join CODE FOLDER' asks to join through the shared folder; your next
            sync admits it, and its next sync brings the trip. Needs the trip's owner key.
            """,
        options: [
            OptionSpec("--role", .choice(["editor", "viewer"]), "the role the new laptop gets"),
            OptionSpec("--expires", .text("DAYS"), "days the code stays valid (default 7)"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.isEmpty else { throw CLIError.usage("invite takes no argument", command: name) }
        guard let text = parser.value("--role") else { throw CLIError.usage("invite needs --role editor|viewer", command: name) }
        guard let role = MemberRole(rawValue: text), role == .editor || role == .viewer else {
            throw CLIError.usage("--role expects editor or viewer, found '\(text)'", command: name)
        }
        var days = 7
        if let value = parser.value("--expires") {
            guard let number = Int(value), (1...365).contains(number) else {
                throw CLIError.usage("--expires expects a number of days from 1 to 365, found '\(value)'", command: name)
            }
            days = number
        }
        let store = try Session.store(global, trip: parser.value("--trip"))
        try MembersCommand.attempt {
            let code = try store.invite(role: role, expiresInDays: days)
            Console.out(code.text)
            Console.err("invite for \(role.rawValue) of \"\(store.document.trip.name.value)\", valid until \(code.expires), usable once;")
            Console.err("on the new laptop: tripsync join CODE FOLDER, then your next sync admits it", forAnotherLaptop: true)
        }
    }
}
