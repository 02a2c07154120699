/// Schema 2 → 3: the same document as an *open* trip, with no owner and no members
/// (docs/DESIGN.md, "Members and roles"): every device may still write and files need no
/// signature, until a device runs `members claim`. Nothing else changes.
enum Migration2To3 {
    static let step = MigrationStep(from: 2, name: "2→3: an open trip (no owner, no members)") {
        (document: VersionedDocument, context: inout MigrationContext) throws(MigrationFailure) -> VersionedDocument in
        guard case .v2(var open) = document else { return document }
        open.owner = nil
        open.members = [:]
        context.summary.items = open.items.count
        context.summary.tombstones = open.tombstones.count
        return .v3(open)
    }
}
