import Foundation
import TripSync
import TripSyncCore

/// `tripsync show [ITEM] [--in ZONE] [--from D] [--to D] [--deleted] [--json]`.
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show",
        summary: "the itinerary by day (or one item whole, or the deleted items)",
        forms: ["[--in] [--from] [--to] [--json] [--trip]", "ITEM [--in] [--json] [--trip]", "--deleted [--json] [--trip]"],
        about: """
            Prints the itinerary grouped by each item's own local date, each time in its own zone
            with the zone's abbreviation, the item's short id first on its line (so 'show | grep'
            keeps it); items with an end show its time and the duration (by instants: Lisbon 10:00
            to New York 13:00 is 8 h), a multi-day item its last day; a note's first line is shown
            under its item. Conflicts and DST notes are marked. A stay (a later date in the same
            zone, or whole days) counts nights: June 7 to June 10 is 3 nights. Where your zone
            (this machine's, or --in) reads a time differently, it is shown beside it:
            "10:00 WEST (05:00 EDT your time)". `show ITEM` links its place to a map.

            ITEM (id or id prefix) shows one item whole, live or deleted: every field, the whole
            note, who wrote each value and when (in this machine's zone), its conflicts, the edits
            made while it was deleted, and the place's map link (an OpenStreetMap search; "mapURL"
            in --json).
            """,
        options: [
            OptionSpec("--in", .text("ZONE"), "your zone, instead of this machine's (items stay under their own dates); with --json, each time also has \"viewer\": {\"local\", \"zone\", \"abbreviation\"}"),
            OptionSpec("--from", .text("YYYY-MM-DD"), "only the days from this one (unscheduled items have no day, so they are left out)"),
            OptionSpec("--to", .text("YYYY-MM-DD"), "only the days through this one (unscheduled items are left out too)"),
            OptionSpec("--deleted", .flag, "the deleted items, newest first, each restorable (tripsync restore ID)"),
            OptionSpec("--json", .flag, "one JSON value on stdout"),
            .trip,
        ])

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count <= 1 else { throw CLIError.usage("show takes at most one ITEM", command: name) }
        let json = parser.has("--json")
        let from = try parser.value("--from").map { try InputParser.date($0, option: "--from", command: name) }
        let to = try parser.value("--to").map { try InputParser.date($0, option: "--to", command: name) }
        if let from, let to, to < from { throw CLIError.usage("--to \(to) is before --from \(from)", command: name) }
        let zones = ZoneRules()
        let viewer = try parser.value("--in").map { id -> ViewerZone in
            let typed = try InputParser.zone(id, option: "--in", command: name)
            guard let zone = ViewerZone(typed, rules: zones) else { throw CLIError.usage("--in: zone '\(id)' is unknown here", command: name) }
            return zone
        }
        if let item = parser.positionals.first {
            guard from == nil, to == nil, !parser.has("--deleted") else {
                throw CLIError.usage("show ITEM takes only --in, --json and --trip", command: name)
            }
            let document = try Session.read(global, trip: parser.value("--trip")).trip.document
            let detail = try detail(item, in: document)
            let attachments = try Session.attempt { try AttachmentEntry.list(in: document, home: HomeAccess.home(global), of: detail.id) }
            if json {
                try Console.json(ItemDetailReport(detail, attachments: attachments))
            } else {
                Console.out(lines: ItemText.lines(detail, document, zones: zones, viewer: viewer ?? ItemText.machine) + ItemText.attachments(attachments))
            }
            return
        }
        if parser.has("--deleted") {
            guard viewer == nil, from == nil, to == nil else { throw CLIError.usage("--deleted takes only --json and --trip", command: name) }
            let document = try Session.read(global, trip: parser.value("--trip")).trip.document
            let list = DeletedItemList(document)
            if json { try Console.json(DeletedItemsReport(list)) } else { Console.out(lines: ItemText.deleted(list)) }
            return
        }
        let document = try Session.read(global, trip: parser.value("--trip")).trip.document
        let itinerary = Itinerary(document, zones: zones).narrowed(from: from, to: to)
        if json {
            try Console.json(ItineraryReport(document, itinerary, viewer: viewer))
        } else {
            var lines = header(document, viewer: viewer)
            if from != nil || to != nil { lines.append("(days \(from.map(\.description) ?? "…") to \(to.map(\.description) ?? "…"))") }
            lines += ItineraryText(viewer: viewer ?? ItemText.machine, zones: zones, attachments: document.shownAttachmentCounts).lines(itinerary)
            if itinerary.isEmpty {
                lines.append(
                    from != nil || to != nil ? "(no items on those days)" : "(no items yet: tripsync add TITLE --day YYYY-MM-DD --at HH:MM)")
            }
            let deleted = ConflictList(document).deletedWhileEdited
            if !deleted.isEmpty {
                lines.append("")
                lines.append("⚠ \(plural(deleted.count, "deleted item was", "deleted items were")) edited while deleted: tripsync show --deleted")
            }
            Console.out(lines: lines)
        }
    }

    /// The trip's name (marked when it holds a conflict) and the viewer's zone when given.
    /// The trip's name (and its name's conflict), then the viewer's zone when given: one
    /// line each.
    static func header(_ document: TripDocument, viewer: ViewerZone?) -> [String] {
        let name = document.trip.name
        let others = name.conflicts.filter { $0.value != name.value }.map { "\"\($0.value)\" (\(document.deviceName($0.rev.device)))" }
        let conflict = others.isEmpty ? "" : "  [conflict: also named \(others.joined(separator: ", ")); 'tripsync rename NAME' settles it]"
        return [name.value + conflict] + (viewer.map { ["(your time: \($0.id), beside each time where it differs)"] } ?? [])
    }

    /// The live or deleted item `text` names.
    static func detail(_ text: String, in document: TripDocument) throws -> ItemDetail {
        let id: ItemID
        do {
            id = try ItemLookup.find(text, in: document, scope: .live)
        } catch let error where error.kind == .itemDeleted {
            id = try Session.attempt { try ItemLookup.find(text, in: document, scope: .deleted) }
        } catch {
            throw Session.refusal(error)
        }
        guard let detail = ItemDetail(id, in: document) else { throw CLIError.refused("no item matches '\(text)'") }
        return detail
    }
}
