/// One line of `attachments --json` (docs/CLI contract): id, item, name, caption, sha256, size,
/// type and state (`staged`, `shared`, `arriving`, `quarantined`).
public struct AttachmentReport: Encodable, Hashable, Sendable {
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

    enum CodingKeys: String, CodingKey { case id, item, name, caption, sha256, size, type, state, conflict, detached }

    /// Encodes every key, `caption` as null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(item, forKey: .item)
        try container.encode(name, forKey: .name)
        try container.encode(caption, forKey: .caption)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(size, forKey: .size)
        try container.encode(type, forKey: .type)
        try container.encode(state, forKey: .state)
        try container.encode(conflict, forKey: .conflict)
        try container.encode(detached, forKey: .detached)
    }
}
