/// One line of `attachments --json` (docs/CLI contract): id, item, name, caption, sha256, size,
/// type and state (`staged`, `shared`, `arriving`, `quarantined`).
public struct AttachmentReport: JSONReport, Hashable, Sendable {
    /// The attachment's id.
    public var id: String
    /// The item's id.
    public var item: String
    /// The name it was attached under.
    public var name: String
    /// The caption, or null.
    public var caption: String?
    /// Lowercase hex SHA-256 of the bytes.
    public var sha256: String
    /// The size in bytes.
    public var size: Int64
    /// The media type sniffed from the bytes.
    public var type: String
    /// Where the bytes are.
    public var state: String
    /// Whether a register holds a conflict.
    public var conflict: Bool
    /// Whether it is detached (listed with `--detached`).
    public var detached: Bool

    /// The report of `entry`.
    public init(_ entry: AttachmentEntry) {
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
    public var reportFields: [ReportField] {
        [
            .field("id", id), .field("item", item), .field("name", name), .field("caption", caption), .field("sha256", sha256),
            .field("size", size), .field("type", type), .field("state", state), .field("conflict", conflict), .field("detached", detached),
        ]
    }
}
