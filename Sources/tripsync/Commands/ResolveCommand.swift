import TripSync
import TripSyncCore

/// `tripsync resolve ITEM FIELD (--keep mine | --keep current | --keep N)`.
enum ResolveCommand: Command {
    static let spec = CommandSpec(
        name: "resolve",
        summary: "settle a conflict with a new write",
        forms: ["ITEM FIELD --keep [--trip]", "ATTACHMENT caption --keep [--trip]", "trip name --keep [--trip]", "trip zone --keep [--trip]"],
        about: """
            Keeps one of a field's values with a new write that has seen them all, so the conflict
            disappears on every replica. mine: the value this device wrote; current: the value shown
            now; N: the alternative numbered N by 'tripsync conflicts'. FIELD is one of title,
            start, end, place, note, sortKey; an attachment's caption and the trip's name and zone
            are settled the same way.
            """,
        options: [
            OptionSpec("--keep", .text("mine|current|N"), "the value to keep: mine, current, or the alternative numbered N"),
            .trip,
        ])

    /// What is being settled.
    private enum Target {
        case field(String, ItemField)
        case caption(String)
        case tripName
        case tripZone
    }

    static func run(_ arguments: [String], global: GlobalOptions) throws {
        var parser = Arguments(spec)
        try parser.parse(arguments)
        guard parser.positionals.count == 2, let selector = parser.positionals.first, let fieldName = parser.positionals.last else {
            throw CLIError.usage("resolve needs ITEM and FIELD (or ATTACHMENT caption, or trip name, or trip zone)", command: name)
        }
        let target: Target
        if selector == "trip" && fieldName == "name" {
            target = .tripName
        } else if selector == "trip" && fieldName == "zone" {
            target = .tripZone
        } else if fieldName == "caption" {
            target = .caption(selector)
        } else if let field = ItemField(rawValue: fieldName) {
            target = .field(selector, field)
        } else {
            throw CLIError.usage("FIELD is one of title, start, end, place, note, sortKey (or caption of an attachment, or 'trip name'); got '\(fieldName)'", command: name)
        }
        guard let keep = parser.value("--keep") else { throw CLIError.usage("resolve needs --keep mine|current|N", command: name) }
        let choice: ConflictChoice
        switch keep {
        case "current": choice = .current
        case "mine": choice = .mine
        default:
            guard let number = Int(keep), number >= 1 else {
                throw CLIError.usage("--keep takes mine, current or a number N of 'tripsync conflicts', got '\(keep)'", command: name)
            }
            choice = .alternative(number)
        }
        let kept: String = try Session.edit(global, trip: parser.value("--trip")) { trip in
            switch target {
            case .field(let item, let field): return try trip.resolve(field, of: try trip.item(item), keeping: choice).text
            case .caption(let attachment): return try trip.resolveCaption(of: try trip.attachment(attachment), keeping: choice).text
            case .tripName: return try trip.resolveName(keeping: choice).text
            case .tripZone: return try trip.resolveZone(keeping: choice).text
            }
        }
        Console.out("saved: kept \"\(kept)\"")
    }
}
