/// What a member may do (docs/DESIGN.md, "Members and roles").
public enum MemberRole: String, Hashable, Sendable, CaseIterable, Comparable {
    /// Holds the trip's owner key on some laptop: may change roles, and edit.
    case owner
    /// May edit: its files are merged whole.
    case editor
    /// May read: its files give only its own acks.
    case viewer
    /// No longer a member: its files are skipped.
    case removed

    /// Whether this role's files are merged whole.
    public var mayEdit: Bool { self == .owner || self == .editor }

    /// Whether a grant of this role records what the owner had seen of the device.
    var carriesSeen: Bool { self == .viewer || self == .removed }

    private var rank: Int {
        switch self {
        case .owner: return 0
        case .editor: return 1
        case .viewer: return 2
        case .removed: return 3
        }
    }

    /// Owner first, removed last (the order `members` lists them).
    public static func < (a: MemberRole, b: MemberRole) -> Bool { a.rank < b.rank }
}
