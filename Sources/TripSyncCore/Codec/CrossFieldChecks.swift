/// The cross-field rules of one value (`DocumentIssues`), checked by the decoder while each
/// value is in hand (no second pass over 100,000 items): dots and `seen` entries against the
/// clock, unknown zones, an end before its start. They need the clock first, as canonical files
/// have it (`clock` precedes `devices`, `items`, `tombstones` and `trip`); when a dot comes
/// before the clock the checks are abandoned (`complete` is false) and the reader checks the
/// decoded document as a whole instead.
struct CrossFieldChecks {
    /// The zone rules; nil when the decoder is not to check anything (schema 1, tests).
    var zones: ZoneRules?
    /// The document's clock, once decoded.
    private(set) var clock: VersionVector?
    /// Whether `clock` is set (a plain flag: testing the optional would retain its storage).
    private(set) var hasClock = false
    /// The clock as a short list, when it is short (a linear scan beats hashing every dot).
    private var entries: [(device: DeviceID, counter: UInt64)] = []
    private var useEntries = false
    /// Whether every value was checked (the clock came before every dot and `seen`).
    private(set) var complete = true
    /// What was found (errors and warnings), unordered.
    var issues: [ValidationIssue] = []
    /// Zones already looked up, with the answer.
    private var knownZones: [(zone: String, known: Bool)] = []

    init(zones: ZoneRules?) {
        self.zones = zones
        isActive = zones != nil
        complete = isActive
    }

    /// Whether the checks are running.
    private(set) var isActive: Bool

    /// Pauses (false) or resumes the checks: paused for values the reader checks at the end
    /// anyway (attachments, which precede the clock: `DocumentValidator.finalIssues`).
    mutating func setActive(_ active: Bool) {
        isActive = active && zones != nil
    }

    /// Records the decoded clock.
    mutating func setClock(_ clock: VersionVector) {
        self.clock = clock
        hasClock = true
        if clock.entries.count <= 16 {
            entries = clock.sortedEntries
            useEntries = true
        }
    }

    /// The clock's counter for `device` (0 when absent); nil when the clock is not known yet.
    @inline(__always)
    func clockValue(_ device: DeviceID) -> UInt64 {
        if useEntries {
            for index in entries.indices where entries[index].device == device { return entries[index].counter }
            return 0
        }
        return clock?[device] ?? 0
    }

    /// A dot or `seen` arrived before the clock: give up, the validator will run instead.
    mutating func abandon() {
        complete = false
        issues = []
    }

    /// Whether this machine knows `zone` (remembered per decode: a trip uses a few zones).
    mutating func isKnown(_ zone: String) -> Bool {
        for index in knownZones.indices where knownZones[index].zone == zone { return knownZones[index].known }
        let known = zones?.isKnown(zone) ?? true
        if knownZones.count < 32 { knownZones.append((zone, known)) }
        return known
    }
}

extension DecodeContext {
    /// Checks a decoded register's dots (winner and conflicts) against the clock; the current
    /// path is the register's.
    @inline(__always)
    mutating func checkDots<V>(_ register: Register<V>) {
        guard cross.isActive, cross.complete else { return }
        guard cross.hasClock else { return cross.abandon() }
        if register.rev.counter > cross.clockValue(register.rev.device) {
            dotAboveClock(register.rev, suffix: "/rev")
        }
        if !register.conflicts.isEmpty {
            for (index, conflict) in register.conflicts.enumerated() where conflict.rev.counter > cross.clockValue(conflict.rev.device) {
                dotAboveClock(conflict.rev, suffix: "/conflicts/\(index)/rev")
            }
        }
    }

    private mutating func dotAboveClock(_ rev: Rev, suffix: String) {
        cross.issues.append(DocumentIssues.dotAboveClock(rev, clockValue: cross.clockValue(rev.device), pointer: pointer + suffix))
    }

    /// Checks every `seen` of a tombstone's delete register; the current path is the tombstone's.
    mutating func checkSeen(_ deleted: Register<Deletion>) {
        guard cross.isActive, cross.complete else { return }
        guard cross.hasClock else { return cross.abandon() }
        for (index, deletion) in deleted.versions.enumerated() {
            for (device, counter) in deletion.value.seen.entries where counter > cross.clockValue(device) {
                let base = index == 0 ? "/deleted/value/seen" : "/deleted/conflicts/\(index - 1)/value/seen"
                cross.issues.append(
                    DocumentIssues.entryAboveClock(
                        "a delete's seen", counter: counter, clockValue: cross.clockValue(device), pointer: pointer + base + "/\(device)"))
            }
        }
    }

    /// Zones and the end-before-start warning of an item body; the current path is the body's.
    mutating func checkTimes(start: Register<TripTime?>?, end: Register<TripTime?>?) {
        guard cross.isActive, cross.complete else { return }
        checkZones(start, "/start")
        checkZones(end, "/end")
        if let start = start?.value, let end = end?.value, let zones = cross.zones, zones.isBefore(end, start) {
            cross.issues.append(DocumentIssues.endBeforeStart(pointer: pointer + "/end/value"))
        }
    }

    /// `checkTimes` for two registers with no conflicts (the quick item decoder's), given their
    /// values: the same issues in the same order, without copying the registers.
    mutating func checkTimes(startValue: TripTime?, endValue: TripTime?) {
        guard cross.isActive, cross.complete else { return }
        checkZone(startValue, "/start")
        checkZone(endValue, "/end")
        if let start = startValue, let end = endValue, let zones = cross.zones, zones.isBefore(end, start) {
            cross.issues.append(DocumentIssues.endBeforeStart(pointer: pointer + "/end/value"))
        }
    }

    /// The unknown-zone warning of a register's winning value.
    private mutating func checkZone(_ value: TripTime?, _ field: String) {
        if case .local(_, let zone)? = value, !cross.isKnown(zone) {
            cross.issues.append(DocumentIssues.unknownZone(zone, pointer: pointer + field + "/value/zone"))
        }
    }

    private mutating func checkZones(_ register: Register<TripTime?>?, _ field: String) {
        guard let register else { return }
        checkZone(register.value, field)
        for (index, conflict) in register.conflicts.enumerated() {
            if case .local(_, let zone)? = conflict.value, !cross.isKnown(zone) {
                cross.issues.append(DocumentIssues.unknownZone(zone, pointer: pointer + field + "/conflicts/\(index)/value/zone"))
            }
        }
    }
}
