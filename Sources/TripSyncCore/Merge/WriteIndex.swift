/// The writes (dot and exact value bytes) of a register's versions, hashed, for registers with
/// many values: "does the other side hold this write / this dot" in one lookup, so merging two
/// registers of a thousand values each costs thousands of steps, not a million (issue 26).
struct WriteIndex<Value: ExactValue & Hashable & Sendable> {
    /// One write: its dot and its canonical value bytes (equal bytes exactly when
    /// `isSameWrite`, which compares `hasSameBytes`, never Unicode equivalence).
    struct Write: Hashable {
        var rev: Rev
        var bytes: [UInt8]
    }

    /// Below this many pairs a plain scan is cheaper than hashing (every ordinary register).
    static var scanLimit: Int { 64 }

    /// Every write.
    let writes: Set<Write>
    /// Every dot.
    let revs: Set<Rev>

    /// The index of `versions`.
    init(_ versions: [Versioned<Value>]) {
        writes = Set(versions.map { Write(rev: $0.rev, bytes: $0.value.canonicalBytes()) })
        revs = Set(versions.map(\.rev))
    }

    /// Whether `version` (its dot and its bytes) is one of the indexed writes.
    func holds(_ version: Versioned<Value>) -> Bool {
        revs.contains(version.rev) && writes.contains(Write(rev: version.rev, bytes: version.value.canonicalBytes()))
    }

    /// The versions of `a`, then those of `b` that are not the same write as one of `a`:
    /// linear whatever the counts.
    static func union(_ a: [Versioned<Value>], _ b: [Versioned<Value>]) -> [Versioned<Value>] {
        var versions = a
        if a.count * b.count <= scanLimit {
            for version in b where !versions.contains(where: { $0.isSameWrite(as: version) }) { versions.append(version) }
            return versions
        }
        var index = Set(a.map { Write(rev: $0.rev, bytes: $0.value.canonicalBytes()) })
        for version in b where index.insert(Write(rev: version.rev, bytes: version.value.canonicalBytes())).inserted {
            versions.append(version)
        }
        return versions
    }
}
