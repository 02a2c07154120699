import TripSync
import TripSyncPlatform
import TripSyncCore

/// `tripsync rename NAME [--trip T]`.
enum RenameCommand: Command {
    static let spec = CommandSpec(
        name: "rename",
        summary: "rename the trip (merged like any field)",
        forms: ["NAME [--trip]"],
        about: """
            Gives the trip a new name: one write of the trip's name, merged like any field, so two
            laptops renaming it at once keep one name and show the other as a conflict. Trip names
            are unique in a home: a name another trip here has is refused.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let typed = parser.positionals.first else {
            throw CLIError.usage("rename needs exactly one NAME (quote it if it has spaces)", command: name)
        }
        let newName = try InputParser.text(typed, option: "NAME", rule: .name, command: name)
        let store = try Session.store(global, trip: parser.value("--trip"))
        let old = store.document.trip.name.value
        let changed = try Failure.during(.saving(store.path)) { try store.rename(to: newName) }
        Console.out(changed ? "renamed \"\(old)\" to \"\(newName)\"" : "the trip is already named \"\(newName)\"; nothing was written")
    }
}
