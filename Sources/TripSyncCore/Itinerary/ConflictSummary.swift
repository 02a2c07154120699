/// How many conflicts a document holds, with its parts: counted from `ConflictList`, so every
/// command's count agrees with what `conflicts` lists.
public struct ConflictSummary: Hashable, Sendable, CustomStringConvertible {
    /// Fields with a visible conflict: those of live items (`ConflictList.fields`), the trip's
    /// name and attachment captions (`ConflictList.registers`).
    public var fields: Int
    /// Deleted items holding edits made while they were deleted: `ConflictList.deletedWhileEdited`.
    public var editedWhileDeleted: Int

    /// Every conflict a person should settle.
    public var total: Int { fields + editedWhileDeleted }

    /// Creates a summary from its parts.
    public init(fields: Int, editedWhileDeleted: Int) {
        self.fields = fields
        self.editedWhileDeleted = editedWhileDeleted
    }

    /// Counts what `list` lists.
    public init(_ list: ConflictList) {
        self.init(fields: list.fields.count + list.registers.count, editedWhileDeleted: list.deletedWhileEdited.count)
    }

    /// Counts the conflicts of `document` (as `ConflictList(document)` lists them).
    public init(_ document: TripDocument) {
        self.init(ConflictList(document))
    }

    /// `0 conflicts`, `1 conflict (1 field)`, `3 conflicts (2 fields, 1 item edited while deleted)`.
    public var description: String {
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
    public var summary: ConflictSummary { ConflictSummary(self) }
}
