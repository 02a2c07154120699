import TripSync
import TripSyncCore

/// `tripsync delete ITEM`.
enum DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete",
        summary: "delete an item (it stays restorable)",
        forms: ["ITEM [--trip]"],
        about: """
            Deletes the item. Its fields are kept in a tombstone, so 'tripsync restore ITEM' brings
            it back with everything it held, edits others make meanwhile included. A deleted item
            that was edited while deleted ('tripsync conflicts' lists it) is kept whole until you
            restore it or delete it again here, having seen the edits.
            """,
        options: [
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 1, let selector = parser.positionals.first else {
            throw CLIError.usage("delete needs exactly one ITEM", command: name)
        }
        let (title, again): (String, Bool) = try Session.edit(global, trip: parser.value("--trip")) { trip in
            let id: ItemID
            do {
                id = try trip.item(selector)
            } catch let error as EditError where error.kind == .itemDeleted {
                // Deleting again an item edited while deleted: the person has now seen the edits.
                let deleted = try ItemLookup.find(selector, in: trip.document, scope: .deleted)
                guard !trip.document.editedWhileDeleted(deleted).isEmpty else { throw error }
                id = deleted
            }
            let again = trip.document.tombstones[id] != nil
            let title = (trip.document.items[id] ?? trip.document.tombstones[id]?.item)?.title?.value ?? ""
            try trip.delete(id)
            return (title, again)
        }
        if again {
            Console.out("deleted \"\(title)\" again, with the edits made while it was deleted (restore with: tripsync restore \(selector))")
        } else {
            Console.out("deleted \"\(title)\" (restore with: tripsync restore \(selector))")
        }
    }
}
