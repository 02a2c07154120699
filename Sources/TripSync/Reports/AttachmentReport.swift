/// One line of `attachments --json` (docs/CLI contract): id, item, name, caption, sha256, size,
/// type and state (`staged`, `shared`, `arriving`, `quarantined`).
package struct AttachmentReport: JSONReport, Hashable, Sendable {
    /// The attachment's id.
    package var id: String
    /// The item's id.
    package var item: String
    /// The name it was attached under.
    package var name: String
    /// The caption, or null.
    package var caption: String?
    /// Lowercase hex SHA-256 of the bytes.
    package var sha256: String
    /// The size in bytes.
    package var size: Int64
    /// The media type sniffed from the bytes.
    package var type: String
    /// Where the bytes are.
    package var state: String
    /// Whether a register holds a conflict.
    package var conflict: Bool
    /// Whether it is detached (listed with `--detached`).
    package var detached: Bool

    /// The report of `entry`.
    package init(_ entry: AttachmentEntry) {
        id = entry.id.description
        item = entry.item.description
        name = entry.name
        caption = entry.caption
        sha256 = entry.blob.sha256
        size = entry.blob.size
        type = entry.blob.type
        state = entry.state.rawValue
        conflict = entry.hasConflict
        detached = entry.isDetached
    }

    /// The JSON object: every field, a missing caption as `null`.
    package var reportFields: [ReportField] {
        [
            .field("id", id), .field("item", item), .field("name", name), .field("caption", caption), .field("sha256", sha256),
            .field("size", size), .field("type", type), .field("state", state), .field("conflict", conflict), .field("detached", detached),
        ]
    }
}
