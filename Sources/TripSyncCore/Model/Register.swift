/// One value of a register together with the rev (dot) of the write that made it.
package struct Versioned<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The written value.
    package var value: Value
    /// The dot of the write.
    package var rev: Rev

    /// Creates a versioned value (the engine's; an app reads them).
    package init(value: Value, rev: Rev) {
        self.value = value
        self.rev = rev
    }
}

/// A multi-value register: the editable unit of a trip document.
///
/// `value` is the survivor with the greatest rev; `conflicts` are the concurrent values that
/// lost, newest first, kept visible until a write that has seen them replaces them.
package struct Register<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The current (winning) value.
    package var value: Value
    /// The rev of the current value.
    package var rev: Rev
    /// The concurrent values that lost, in descending rev order; empty when there is no conflict.
    package var conflicts: [Versioned<Value>]

    /// A register holding one value (the engine's; an app reads registers, an edit writes them).
    package init(value: Value, rev: Rev) {
        self.value = value
        self.rev = rev
        self.conflicts = []
    }

    /// A register holding the given survivors; nil when there are none.
    ///
    /// The greatest rev becomes the winner, the others conflicts in descending rev order.
    package init?(versions: [Versioned<Value>]) {
        guard !versions.isEmpty else { return nil }
        var sorted = versions
        if sorted.count > 1 { sorted.sort(by: Self.greater) }
        value = sorted[0].value
        rev = sorted[0].rev
        conflicts = Array(sorted.dropFirst())
    }

    /// The order of a register's versions, greatest first: by rev, and two values under one rev
    /// (a forked device) by their canonical bytes, as every reader expects them (a register
    /// built any other way was written in an order readers refuse, and a replica holding one
    /// could not be opened again: issue 40).
    static func greater(_ x: Versioned<Value>, _ y: Versioned<Value>) -> Bool {
        if x.rev != y.rev { return x.rev > y.rev }
        guard let ordered = Value.self as? any CanonicallyOrdered.Type, let a = ordered.canonicalBytes(of: x.value), let b = ordered.canonicalBytes(of: y.value)
        else { return false }
        return b.lexicographicallyPrecedes(a)
    }

    /// Every surviving version, winner first.
    package var versions: [Versioned<Value>] {
        [Versioned(value: value, rev: rev)] + conflicts
    }

    /// The winning value with its rev.
    package var current: Versioned<Value> { Versioned(value: value, rev: rev) }

    /// Conflicts a person should see: those whose value differs from the winner's
    /// (two people typing the same thing is not a conflict).
    package var visibleConflicts: [Versioned<Value>] {
        conflicts.filter { $0.value != value }
    }

    /// Whether there is a conflict a person should see.
    package var hasVisibleConflict: Bool {
        conflicts.contains { $0.value != value }
    }

    /// A local write: it has seen every survivor, so it replaces them all with one value.
    package mutating func write(_ newValue: Value, rev newRev: Rev) {
        value = newValue
        rev = newRev
        conflicts = []
    }
}
