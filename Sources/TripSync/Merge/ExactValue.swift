/// Equality by exact bytes, for deciding whether two writes under one dot carry the same value.
///
/// Swift's `String ==` is Unicode canonical equivalence: "Graça" precomposed and decomposed
/// compare equal although their bytes (and so the canonical file, the fingerprint) differ. The
/// merge must never treat two different byte strings as one value, or its result would depend
/// on which input came first.
protocol ExactValue {
    /// Whether `self` and `other` are the same value, byte for byte.
    func hasSameBytes(as other: Self) -> Bool
}

extension String: ExactValue {
    func hasSameBytes(as other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Optional: ExactValue where Wrapped: ExactValue {
    func hasSameBytes(as other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): return true
        case (let a?, let b?): return a.hasSameBytes(as: b)
        default: return false
        }
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
}

extension Deletion: ExactValue {
    func hasSameBytes(as other: Deletion) -> Bool { self == other }
}

extension Register: ExactValue where Value: ExactValue {
    func hasSameBytes(as other: Register<Value>) -> Bool {
        rev == other.rev && value.hasSameBytes(as: other.value) && conflicts.count == other.conflicts.count
            && zip(conflicts, other.conflicts).allSatisfy { $0.rev == $1.rev && $0.value.hasSameBytes(as: $1.value) }
    }
}

extension ItemFields {
    /// Whether both hold exactly the same registers, byte for byte.
    func hasSameBytes(as other: ItemFields) -> Bool {
        title.hasSameBytes(as: other.title) && sortKey.hasSameBytes(as: other.sortKey) && start.hasSameBytes(as: other.start)
            && end.hasSameBytes(as: other.end) && place.hasSameBytes(as: other.place) && note.hasSameBytes(as: other.note)
    }
}

extension TripDocument {
    /// Whether two documents have the same canonical bytes (unlike `==`, which compares text by
    /// Unicode canonical equivalence).
    public func hasSameBytes(as other: TripDocument) -> Bool {
        canonicalJSON() == other.canonicalJSON()
    }
}
