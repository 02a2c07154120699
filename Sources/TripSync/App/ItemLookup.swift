import TripSyncCore
import TripSyncPlatform

/// Finds an item by what a person types: its id, or an id prefix of at least four characters
/// that names one item (the CLI's `ITEM` argument; an app's search box).
package enum ItemLookup {
    /// Which items a lookup may find.
    package enum Scope: Sendable {
        /// Live items (to edit, move, delete).
        case live
        /// Deleted items (to restore).
        case deleted
    }

    /// The shortest prefix that is looked up.
    package static let minimumPrefix = 4

    /// The item `text` names among the `scope` items of `document`. Throws `EditError` of kind
    /// `.shortItemPrefix`, `.ambiguousItem` (several match), `.itemDeleted` (a live lookup that
    /// names a deleted item), `.itemNotDeleted` (a restore of a live one) or `.noSuchItem`.
    package static func find(_ text: String, in document: TripDocument, scope: Scope = .live) throws(EditError) -> ItemID {
        let candidates = scope == .live ? Array(document.items.keys) : Array(document.tombstones.keys)
        switch match(text, among: candidates, id: \.description) {
        case .one(let found): return found
        case .tooShort:
            throw EditError(.shortItemPrefix, "an item is named by its id or an id prefix of at least \(minimumPrefix) characters, got '\(text)'")
        case .several(let matches):
            throw EditError(.ambiguousItem, "'\(text)' matches \(matches.count) items; type more of the id\n" + hint(matches, in: document))
        case .none: break
        }
        let lower = text.lowercased()
        switch scope {
        case .live where document.tombstones.keys.contains(where: { $0.description.hasPrefix(lower) }):
            throw EditError(.itemDeleted, "item '\(text)' is deleted", remedy: "restoring it brings it back", facts: ErrorFacts(item: text, thing: "item"))
        case .deleted where document.items.keys.contains(where: { $0.description.hasPrefix(lower) }):
            throw EditError(.itemNotDeleted, "item '\(text)' is not deleted")
        default:
            throw EditError(.noSuchItem, "no item matches '\(text)'", remedy: "the itinerary lists the items with their ids", facts: ErrorFacts(item: text, thing: "item"))
        }
    }

    /// How what a person typed matches a list of ids.
    enum Match<Candidate> {
        /// The id itself, or a prefix of one id only.
        case one(Candidate)
        /// A prefix of several ids.
        case several([Candidate])
        /// Shorter than `minimumPrefix` and no whole id.
        case tooShort
        /// Nothing matches.
        case none
    }

    /// Matches `text` (any case) against the ids of `candidates`: a whole id first, then a
    /// prefix of at least `minimumPrefix` characters. The one rule for items, attachments and
    /// anything else a person names by id.
    static func match<Candidate>(_ text: String, among candidates: [Candidate], id: (Candidate) -> String) -> Match<Candidate> {
        let lower = text.lowercased()
        if let exact = candidates.first(where: { id($0) == lower }) { return .one(exact) }
        guard text.count >= minimumPrefix else { return .tooShort }
        let matches = candidates.filter { id($0).hasPrefix(lower) }
        switch matches.count {
        case 0: return .none
        case 1: return .one(matches[0])
        default: return .several(matches)
        }
    }

    /// `hint: the candidates are:` and a `hint:` line per item (id, title), as git lists the
    /// objects an ambiguous short sha names.
    static func hint(_ items: [ItemID], in document: TripDocument) -> String {
        let lines = items.sorted().map { id -> String in
            let fields = document.items[id] ?? document.tombstones[id]?.item
            let title = fields?.title?.value ?? "(untitled)"
            return "hint:   \(id)  \(title)" + (document.tombstones[id] != nil ? " (deleted)" : "")
        }
        return (["hint: the candidates are:"] + lines).joined(separator: "\n")
    }
}
