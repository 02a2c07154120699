/// The limits every reader enforces on a trip file (`DocumentDecoder`), stated once so a merged
/// state can be held to them too (docs/DESIGN.md, "Limits hold for the merged state"): a
/// replica, and the file it publishes, never hold what no reader would take.
package enum TripLimits {
    /// The most entries of a clock, `acks`, `devices`, `members` or `successions`.
    package static let maxEntries = DocumentDecoder.maxClockEntries
    /// The most live items, and separately the most tombstones.
    package static let maxItems = DocumentDecoder.maxItems
    /// The most conflicts one register may hold.
    package static let maxConflicts = DocumentDecoder.maxConflicts
    /// The most attachments.
    package static let maxAttachments = DocumentDecoder.maxAttachments
}

extension TripDocument {
    /// The first reader's limit this document exceeds, as "JSON pointer: what it holds,
    /// expected at most N"; nil when it is within every one. One pass over the registers for
    /// the conflicts, counts for the rest.
    package var limitProblem: String? {
        func over(_ pointer: String, _ count: Int, _ what: String, _ limit: Int) -> String? {
            count > limit ? "\(pointer): \(count) \(what), expected at most \(limit)" : nil
        }
        if let problem = over("/clock", clock.entries.count, "clock entries", TripLimits.maxEntries)
            ?? over("/devices", devices.count, "devices", TripLimits.maxEntries)
            ?? over("/acks", acks.count, "acks entries", TripLimits.maxEntries)
            ?? over("/members", members.count, "members", TripLimits.maxEntries)
            ?? over("/successions", successions.count, "successions", TripLimits.maxEntries)
            ?? over("/items", items.count, "items", TripLimits.maxItems)
            ?? over("/tombstones", tombstones.count, "tombstones", TripLimits.maxItems)
            ?? over("/attachments", attachments.count, "attachments", TripLimits.maxAttachments)
        {
            return problem
        }
        for (device, vector) in acks where vector.entries.count > TripLimits.maxEntries {
            return "/acks/\(device): \(vector.entries.count) entries, expected at most \(TripLimits.maxEntries)"
        }
        struct Conflicts: RegisterVisitor {
            var found: String?
            mutating func visit<Value>(_ register: Register<Value>, at path: RegisterPath) {
                if found == nil, register.conflicts.count > TripLimits.maxConflicts {
                    found = "\(path.pointer): \(register.conflicts.count) conflicts, expected at most \(TripLimits.maxConflicts)"
                }
            }
        }
        var conflicts = Conflicts()
        walkRegisters(&conflicts)
        return conflicts.found
    }
}
