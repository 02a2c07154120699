import TripSync

/// `tripsync delete ITEM`.
enum DeleteCommand: Command {
    static let name = "delete"
    static let summary = "delete an item (it stays restorable)"
    static let help = """
        usage: tripsync delete ITEM [--trip T]

        Deletes the item. Its fields are kept in a tombstone, so 'tripsync restore ITEM' brings
        it back with everything it held, edits others make meanwhile included.
        """

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(command: name, values: ["--trip"])
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("delete needs exactly one ITEM", command: name)
        }
        let title: String = try Session.edit(global, trip: parser.value("--trip")) { trip in
            let id = try trip.item(selector)
            let title = trip.document.items[id]?.title?.value ?? ""
            try trip.delete(id)
            return title
        }
        Console.out("deleted \"\(title)\" (restore with: tripsync restore \(selector))")
    }
}
