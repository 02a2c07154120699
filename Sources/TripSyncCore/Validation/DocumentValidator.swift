/// Cross-field rules of a decoded document that a per-value decoder cannot see: clock
/// accounting, ids in both maps, zones this machine does not know, an end before its start.
package struct DocumentValidator {
    /// Zone rules used for the end-before-start check and the unknown-zone warning.
    package var zones: ZoneRules

    /// Creates a validator.
    package init(zones: ZoneRules = ZoneRules()) {
        self.zones = zones
    }

    /// Every error and warning of `document`, each with its JSON Pointer.
    package func issues(in document: TripDocument) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let clock = document.clock
        // Most documents have a handful of devices: a linear scan beats hashing every dot.
        let smallClock = clock.entries.count <= 16 ? clock.sortedEntries : nil
        @inline(__always)
        func sees(_ rev: Rev) -> Bool {
            guard let smallClock else { return clock.sees(rev) }
            for entry in smallClock where entry.device == rev.device { return entry.counter >= rev.counter }
            return false
        }

        // Pointers are built only when something is wrong: validating 100,000 items must not
        // allocate a string per register.
        func checkDot(_ rev: Rev, _ pointer: () -> String) {
            if !sees(rev) {
                issues.append(DocumentIssues.dotAboveClock(rev, clockValue: clock[rev.device], pointer: pointer()))
            }
        }
        func checkRegister<V>(_ register: Register<V>?, _ pointer: () -> String) {
            guard let register else { return }
            checkDot(register.rev) { pointer() + "/rev" }
            for (index, conflict) in register.conflicts.enumerated() {
                checkDot(conflict.rev) { pointer() + "/conflicts/\(index)/rev" }
            }
        }
        func checkVector(_ vector: VersionVector, _ pointer: () -> String, _ what: String) {
            for (device, counter) in vector.entries where counter > clock[device] {
                issues.append(DocumentIssues.entryAboveClock(what, counter: counter, clockValue: clock[device], pointer: pointer() + "/\(device)"))
            }
        }
        func checkZones(_ register: Register<TripTime?>?, _ pointer: () -> String) {
            guard let register else { return }
            if let zone = register.value?.zone, !zones.isKnown(zone) {
                unknownZone(zone, pointer() + "/value/zone")
            }
            for (index, conflict) in register.conflicts.enumerated() {
                if let zone = conflict.value?.zone, !zones.isKnown(zone) {
                    unknownZone(zone, pointer() + "/conflicts/\(index)/value/zone")
                }
            }
        }
        func unknownZone(_ zone: String, _ pointer: String) {
            issues.append(DocumentIssues.unknownZone(zone, pointer: pointer))
        }
        func checkItem(_ item: ItemFields, _ pointer: () -> String) {
            checkRegister(item.end) { pointer() + "/end" }
            checkRegister(item.note) { pointer() + "/note" }
            checkRegister(item.place) { pointer() + "/place" }
            checkRegister(item.sortKey) { pointer() + "/sortKey" }
            checkRegister(item.start) { pointer() + "/start" }
            checkRegister(item.title) { pointer() + "/title" }
            checkZones(item.start) { pointer() + "/start" }
            checkZones(item.end) { pointer() + "/end" }
            if let start = item.start?.value, let end = item.end?.value, zones.isBefore(end, start) {
                issues.append(DocumentIssues.endBeforeStart(pointer: pointer() + "/end/value"))
            }
        }

        checkRegister(document.trip.name) { "/trip/name" }
        checkRegister(document.trip.zone) { "/trip/zone" }
        issues += DocumentValidator.tripZoneWarnings(in: document, zones: zones)
        for (device, info) in document.devices {
            checkRegister(info.name) { "/devices/\(device)/name" }
        }
        for (id, item) in document.items {
            if document.tombstones[id] != nil {
                issues.append(DocumentIssues.inBothMaps(id))
            }
            checkItem(item) { "/items/\(id)" }
        }
        for (id, tombstone) in document.tombstones {
            checkRegister(tombstone.deleted) { "/tombstones/\(id)/deleted" }
            for (index, deletion) in tombstone.deleted.versions.enumerated() {
                checkVector(deletion.value.seen, {
                    index == 0 ? "/tombstones/\(id)/deleted/value/seen" : "/tombstones/\(id)/deleted/conflicts/\(index - 1)/value/seen"
                }, "a delete's seen")
            }
            checkItem(tombstone.item) { "/tombstones/\(id)/item" }
        }
        for (device, vector) in document.acks {
            checkVector(vector, { "/acks/\(device)" }, "an acks")
        }
        issues += MemberRules.issues(in: document)
        issues += AttachmentRules.issues(in: document)
        // Dictionary order is random: report in pointer order so output is stable.
        return DocumentValidator.ordered(issues)
    }

    /// Errors first, then by pointer: the order every report uses.
    static func ordered(_ issues: [ValidationIssue]) -> [ValidationIssue] {
        issues.sorted { ($0.severity == .error ? 0 : 1, $0.pointer) < ($1.severity == .error ? 0 : 1, $1.pointer) }
    }

    /// The rules the decoder leaves for the end (they need two maps, or `acks`, which precedes
    /// `clock` in canonical order): ids in both maps, acks above the clock, the members' and
    /// attachments' rules, the trip zone's warnings.
    static func finalIssues(in document: TripDocument, zones: ZoneRules = ZoneRules()) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        // Tombstones are few: look each one up among the items.
        for id in document.tombstones.keys where document.items.index(forKey: id) != nil {
            issues.append(DocumentIssues.inBothMaps(id))
        }
        let clock = document.clock
        for (device, vector) in document.acks {
            for (entry, counter) in vector.entries where counter > clock[entry] {
                issues.append(DocumentIssues.entryAboveClock("an acks", counter: counter, clockValue: clock[entry], pointer: "/acks/\(device)/\(entry)"))
            }
        }
        return issues + MemberRules.issues(in: document) + AttachmentRules.issues(in: document)
            + tripZoneWarnings(in: document, zones: zones)
    }

    /// A warning for each zone of the trip's zone register (winner and conflicts) this
    /// machine's zone database does not know (the file is still valid).
    static func tripZoneWarnings(in document: TripDocument, zones: ZoneRules) -> [ValidationIssue] {
        guard let register = document.trip.zone else { return [] }
        var issues: [ValidationIssue] = []
        if let zone = register.value, !zones.isKnown(zone) {
            issues.append(DocumentIssues.unknownZone(zone, pointer: "/trip/zone/value"))
        }
        for (index, conflict) in register.conflicts.enumerated() {
            if let zone = conflict.value, !zones.isKnown(zone) {
                issues.append(DocumentIssues.unknownZone(zone, pointer: "/trip/zone/conflicts/\(index)/value"))
            }
        }
        return issues
    }
}
