/// Equality by exact bytes, for deciding whether two writes under one dot carry the same value.
///
/// Swift's `String ==` is Unicode canonical equivalence: "Graça" precomposed and decomposed
/// compare equal although their bytes (and so the canonical file, the fingerprint) differ. The
/// merge must never treat two different byte strings as one value, or its result would depend
/// on which input came first.
protocol ExactValue: CanonicallyOrdered {
    /// Whether `self` and `other` are the same value, byte for byte.
    func hasSameBytes(as other: Self) -> Bool
}

/// A value with canonical bytes: the order of two values under one dot (a forked device) is
/// the order of these bytes (docs/DESIGN.md, "Forks"), wherever a register is built.
protocol CanonicallyOrdered {
    /// The value as the canonical writer writes it.
    func canonicalBytes() -> [UInt8]
}

extension CanonicallyOrdered {
    /// The canonical bytes of `value` when it is of this type (a value of a generic register,
    /// checked by type, not by casting the value: an optional is never unwrapped on the way).
    static func canonicalBytes(of value: Any) -> [UInt8]? {
        (value as? Self)?.canonicalBytes()
    }
}

extension ExactValue {
    /// The value's canonical bytes, written by `write`.
    func canonicalBytes(_ write: (inout CanonicalWriter, Self) -> Void) -> [UInt8] {
        var writer = CanonicalWriter(capacity: 64)
        write(&writer, self)
        return writer.out.take().toArray()
    }
}

extension Versioned where Value: ExactValue {
    /// The order of versions in a register: by rev, and for two values under one rev (only a
    /// forked device writes those) by their canonical bytes. The greatest is the winner.
    static func precedes(_ x: Versioned, _ y: Versioned) -> Bool {
        if x.rev != y.rev { return x.rev < y.rev }
        return x.value.canonicalBytes().lexicographicallyPrecedes(y.value.canonicalBytes())
    }

    /// Whether both are the same write: the same dot and the same bytes.
    func isSameWrite(as other: Versioned) -> Bool {
        rev == other.rev && value.hasSameBytes(as: other.value)
    }
}

extension Register where Value: ExactValue {
    /// A register of the given survivors in the full version order (winner the greatest by
    /// rev, then by value bytes); nil when there are none.
    init?(ordered versions: [Versioned<Value>]) {
        guard !versions.isEmpty else { return nil }
        var sorted = versions
        if sorted.count > 8 {
            // Many values: each value's bytes once, not twice per comparison.
            let keyed = sorted.map { (version: $0, bytes: $0.value.canonicalBytes()) }.sorted { x, y in
                x.version.rev != y.version.rev ? x.version.rev > y.version.rev : y.bytes.lexicographicallyPrecedes(x.bytes)
            }
            sorted = keyed.map(\.version)
        } else if sorted.count > 1 {
            sorted.sort { Versioned.precedes($1, $0) }
        }
        self.init(value: sorted[0].value, rev: sorted[0].rev)
        conflicts = Array(sorted.dropFirst())
    }
}

extension String: ExactValue {
    /// Compared as contiguous bytes (`FastEquality.text`), never by Unicode equivalence.
    func hasSameBytes(as other: String) -> Bool { FastEquality.text(self, other) }
    func canonicalBytes() -> [UInt8] { canonicalBytes(CanonicalWriter.writeText) }
}

extension Optional: CanonicallyOrdered where Wrapped: ExactValue {}

extension Optional: ExactValue where Wrapped: ExactValue {
    func hasSameBytes(as other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): return true
        case (let a?, let b?): return a.hasSameBytes(as: b)
        default: return false
        }
    }
    func canonicalBytes() -> [UInt8] {
        map { $0.canonicalBytes() } ?? Array("null".utf8)
    }
}

extension TripTime: ExactValue {
    func hasSameBytes(as other: TripTime) -> Bool {
        switch (self, other) {
        case (.date(let a), .date(let b)): return a == b
        case (.local(let a, let za), .local(let b, let zb)): return a == b && za.hasSameBytes(as: zb)
        default: return false
        }
    }
    func canonicalBytes() -> [UInt8] { Optional(self).canonicalBytes(CanonicalWriter.writeTime) }
}

extension Deletion: ExactValue {
    func hasSameBytes(as other: Deletion) -> Bool { self == other }
    func canonicalBytes() -> [UInt8] { canonicalBytes(CanonicalWriter.writeDeletion) }
}

extension Register where Value: ExactValue {
    func hasSameBytes(as other: Register<Value>) -> Bool {
        rev == other.rev && value.hasSameBytes(as: other.value) && conflicts.count == other.conflicts.count
            && zip(conflicts, other.conflicts).allSatisfy { $0.rev == $1.rev && $0.value.hasSameBytes(as: $1.value) }
    }
}

extension ItemFields {
    /// Whether both hold exactly the same registers, byte for byte.
    func hasSameBytes(as other: ItemFields) -> Bool {
        func same<V: ExactValue>(_ a: Register<V>?, _ b: Register<V>?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case (let a?, let b?): return a.hasSameBytes(as: b)
            default: return false
            }
        }
        return same(title, other.title) && same(sortKey, other.sortKey) && same(start, other.start)
            && same(end, other.end) && same(place, other.place) && same(note, other.note)
    }
}

extension TripDocument {
    /// Whether two documents have the same canonical bytes (unlike `==`, which compares text by
    /// Unicode canonical equivalence).
    package func hasSameBytes(as other: TripDocument) -> Bool {
        canonicalJSON() == other.canonicalJSON()
    }
}

extension Identifier: ExactValue {
    func hasSameBytes(as other: Identifier) -> Bool { self == other }
    func canonicalBytes() -> [UInt8] { canonicalBytes(CanonicalWriter.writeIdentifier) }
}

extension BlobReference: ExactValue {
    func hasSameBytes(as other: BlobReference) -> Bool {
        sha256.utf8.elementsEqual(other.sha256.utf8) && size == other.size && type.utf8.elementsEqual(other.type.utf8) && sealed == other.sealed
    }
    func canonicalBytes() -> [UInt8] { canonicalBytes(CanonicalWriter.writeBlob) }
}

extension Attachment {
    /// Whether both hold exactly the same registers, byte for byte.
    func hasSameBytes(as other: Attachment) -> Bool {
        func same<V: ExactValue>(_ a: Register<V>?, _ b: Register<V>?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case (let a?, let b?): return a.hasSameBytes(as: b)
            default: return false
            }
        }
        return same(item, other.item) && same(blob, other.blob) && same(name, other.name) && same(caption, other.caption)
            && same(deleted, other.deleted)
    }
}
