import TripSync
import TripSyncHome

/// `tripsync join CODE FOLDER`.
enum JoinCommand: Command {
    static let spec = CommandSpec(
        name: "join",
        summary: "ask to join a trip with an invite code, through a shared folder",
        forms: ["CODE FOLDER"],
        about: """
            Writes this laptop's signed join request into FOLDER/<tripId>/ and remembers the code.
            The owner's next sync admits this laptop; then 'tripsync sync FOLDER' here brings the
            trip. The code names the owner key, so nothing else is trusted on first sight. A laptop
            that holds the trip open (from before it was claimed) joins the same way: an owner claim
            found in the folder is never taken by itself.
            """)

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 2 else { throw CLIError.usage("join needs CODE and FOLDER", command: name) }
        let (text, folder) = (parser.positionals[0], parser.positionals[1])
        try MembersCommand.attempt {
            let code = try InviteCode(parsing: text)
            let request = try TripHome(HomeAccess.home(global)).join(code: code, folder: folder)
            Console.out("asked to join trip \(code.trip) as \(code.role.rawValue) (this laptop: \(request.name), key \(request.key.fingerprint))")
            Console.out("the owner's next sync admits this laptop; then run: tripsync sync \(folder)")
        }
    }
}
