/// How many conflicts a document holds, with its parts: counted by the rules `ConflictList`
/// lists by, so every command's count agrees with what `conflicts` lists.
package struct ConflictSummary: Hashable, Sendable, CustomStringConvertible {
    /// Fields with a visible conflict: those of live items (`ConflictList.fields`), the trip's
    /// name and attachment captions (`ConflictList.registers`).
    package var fields: Int
    /// Deleted items holding edits made while they were deleted: `ConflictList.deletedWhileEdited`.
    package var editedWhileDeleted: Int

    /// Every conflict a person should settle.
    package var total: Int { fields + editedWhileDeleted }

    /// Creates a summary from its parts.
    package init(fields: Int, editedWhileDeleted: Int) {
        self.fields = fields
        self.editedWhileDeleted = editedWhileDeleted
    }

    /// Counts what `list` lists.
    package init(_ list: ConflictList) {
        self.init(fields: list.fields.count + list.registers.count, editedWhileDeleted: list.deletedWhileEdited.count)
    }

    /// Counts the conflicts of `document`, exactly those `ConflictList(document)` lists, without
    /// building the list: a field counts when its register holds a value other than the
    /// winner's (`Register.hasVisibleConflict`, what makes `FieldConflict` exist), and most
    /// items are passed over by their `hasConflicts` flag. Building the list for a count made
    /// the report of a 10,000-item merge cost a quarter of the merge (docs/PERFORMANCE.md,
    /// "Issue 30").
    package init(_ document: TripDocument) {
        var fields = 0
        for item in document.items.values where item.hasConflicts {
            if item.title?.hasVisibleConflict == true { fields += 1 }
            if item.sortKey?.hasVisibleConflict == true { fields += 1 }
            if item.start?.hasVisibleConflict == true { fields += 1 }
            if item.end?.hasVisibleConflict == true { fields += 1 }
            if item.place?.hasVisibleConflict == true { fields += 1 }
            if item.note?.hasVisibleConflict == true { fields += 1 }
        }
        var edited = 0
        for id in document.tombstones.keys where !document.editedWhileDeleted(id).isEmpty { edited += 1 }
        self.init(fields: fields + RegisterConflict.all(in: document).count, editedWhileDeleted: edited)
    }

    /// `0 conflicts`, `1 conflict (1 field)`, `3 conflicts (2 fields, 1 item edited while deleted)`.
    package var description: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) " + (n == 1 ? one : many) }
        let head = count(total, "conflict", "conflicts")
        var parts: [String] = []
        if fields > 0 { parts.append(count(fields, "field", "fields")) }
        if editedWhileDeleted > 0 { parts.append(count(editedWhileDeleted, "item edited while deleted", "items edited while deleted")) }
        return parts.isEmpty ? head : head + " (" + parts.joined(separator: ", ") + ")"
    }
}

extension ConflictList {
    /// The counts of this list.
    package var summary: ConflictSummary { ConflictSummary(self) }
}
