import TripSyncCore

/// One VEVENT made from a live item, before it is placed in the calendar.
///
/// The rules (also in `ICalendarExporter`'s documentation):
/// - Timed start in a known zone: `DTSTART;TZID=zone:local`. A timed end gets its own TZID (a
///   Lisbon → New York flight ends in New York); an end that is a day means "until that day is
///   over": midnight after it, in the start's zone. No usable end: `DURATION` of
///   `defaultDuration` (a dinner is not a zero-length event), with a notice. A time in a DST gap
///   is written moved forward by the gap, with a notice.
/// - A day: `DTSTART;VALUE=DATE:day`; a later day as the end is a stay counted in nights, so
///   `DTEND;VALUE=DATE:` is that day (checkout, exclusive); a timed end's day is included (the
///   day after it); no end, or the start's own day: the day after the start.
/// - A conflicted start, end, title or place: SUMMARY begins with `conflictMark`, `STATUS:TENTATIVE`,
///   and DESCRIPTION lists every value with the device that wrote it (the event uses the shown one).
/// - A zone this machine does not know: DTSTART and DTEND become floating local times (RFC 5545
///   needs both in the same form and a VTIMEZONE for every TZID) and DESCRIPTION says so.
/// - An end that is not after the start is left out (RFC 5545 requires DTEND to be later) and
///   DESCRIPTION says so.
/// - DTSTAMP is the item's newest rev counter read as hybrid-logical-clock milliseconds (when the
///   item was last changed), so the same document always gives the same bytes.
struct ICalendarEvent {
    /// The item's id.
    var id: ItemID
    /// Seconds used to order events: the start instant, or the wall clock read as UTC for a
    /// day or a floating time.
    var sortSeconds: Int64
    /// The content lines, BEGIN:VEVENT to END:VEVENT, unfolded.
    var lines: [String]
    /// Every TZID the event refers to, with the instant it refers to.
    var zoneUses: [(zone: String, instant: Int64)]

    /// The length given to a timed item with no usable end: one hour.
    static let defaultDurationSeconds = 3600
    /// What SUMMARY begins with when the start, end, title or place holds conflicting values.
    static let conflictMark = "⚠ conflict: "
    /// The fields whose conflicts make an event tentative: those a calendar shows.
    static let markedFields: [ItemField] = [.start, .end, .title, .place]

    /// The event of a live item; nil when the item has no start (unscheduled). `deviceName`
    /// names the writer of each value of a conflict.
    init?(id: ItemID, fields: ItemFields, zones: ZoneRules, deviceName: (DeviceID) -> String = { "device \($0.description.prefix(8))" }) {
        guard let startRegister = fields.start, let start = startRegister.value else { return nil }
        let end = fields.end?.value ?? nil
        self.id = id
        var times = Times()
        switch start {
        case .local(let startLocal, let startZone): times = Self.timed(startLocal, zone: startZone, end: end, zones: zones)
        case .date(let startDay): times = Self.allDay(startDay, end: end)
        }
        zoneUses = times.zoneUses
        sortSeconds = times.sortSeconds
        lines = Self.lines(id: id, fields: fields, times: times, deviceName: deviceName)
    }

    /// What the event's times come to: the DTSTART/DTEND lines, the notices for the
    /// description, the zones used and the instant the event sorts by.
    private struct Times {
        var lines: [String] = []
        var notices: [String] = []
        var zoneUses: [(zone: String, instant: Int64)] = []
        var sortSeconds: Int64 = 0
    }

    /// The times of an item that starts at a local time in `zone`.
    private static func timed(_ startLocal: LocalDateTime, zone startZone: String, end: TripTime?, zones: ZoneRules) -> Times {
        var times = Times()
        var endLocal: LocalDateTime?
        var endZone = startZone
        switch end {
        case .local(let local, let zone)?:
            endLocal = local
            endZone = zone
        case .date(let day)?:
            endLocal = LocalDate(daysSinceEpoch: day.daysSinceEpoch + 1)
                .flatMap { LocalDateTime(date: $0, hour: 0, minute: 0) }
        case nil:
            break
        }
        let startInstant = zones.resolve(startLocal, zone: startZone)
        let endInstant = endLocal.flatMap { zones.resolve($0, zone: endZone) }
        if let startInstant, endLocal == nil || endInstant != nil {
            let writtenStart = Self.existing(startLocal, zone: startZone, startInstant, notices: &times.notices)
            times.lines.append("DTSTART;TZID=\(startZone):" + ICalendarValue.dateTime(writtenStart))
            times.zoneUses.append((startZone, startInstant.secondsSinceEpoch))
            if let endLocal, let endInstant, endInstant.secondsSinceEpoch > startInstant.secondsSinceEpoch {
                let writtenEnd = Self.existing(endLocal, zone: endZone, endInstant, notices: &times.notices)
                times.lines.append("DTEND;TZID=\(endZone):" + ICalendarValue.dateTime(writtenEnd))
                times.zoneUses.append((endZone, endInstant.secondsSinceEpoch))
            } else {
                if endLocal != nil { times.notices.append(Self.droppedEndNotice(end)) }
                times.lines.append(Self.defaultDurationLine)
                times.notices.append(Self.defaultDurationNotice)
            }
            times.sortSeconds = startInstant.secondsSinceEpoch
        } else {
            times.lines.append("DTSTART:" + ICalendarValue.dateTime(startLocal))
            if let endLocal, endLocal > startLocal {
                times.lines.append("DTEND:" + ICalendarValue.dateTime(endLocal))
            } else {
                if endLocal != nil { times.notices.append(Self.droppedEndNotice(end)) }
                times.lines.append(Self.defaultDurationLine)
                times.notices.append(Self.defaultDurationNotice)
            }
            let unknown = [startZone, endZone].filter { !zones.isKnown($0) }
            var seen = Set<String>()
            let names = unknown.filter { seen.insert($0).inserted }.joined(separator: " and ")
            var notice = "[TripSync] Time zone \(names) is unknown to the machine that exported this calendar,"
            notice += " so the times are written as local clock times: starts \(startLocal) \(startZone)"
            if let end { notice += ", ends " + Self.describe(end) }
            times.notices.insert(notice + ".", at: 0)
            times.sortSeconds = startInstant?.secondsSinceEpoch ?? startLocal.secondsSinceEpochAsUTC
        }
        return times
    }

    /// The times of an item that starts on a day (no time).
    private static func allDay(_ startDay: LocalDate, end: TripTime?) -> Times {
        var times = Times()
        times.lines.append("DTSTART;VALUE=DATE:" + ICalendarValue.date(startDay))
        // The first day after the event (DTEND is exclusive): the day after the start, the
        // checkout day of a stay (a later day as the end), the day after a timed end's day.
        var endDay = startDay.daysSinceEpoch + 1
        switch end {
        case .date(let day)? where day > startDay:
            endDay = day.daysSinceEpoch
            let nights = StayNights.text(day.daysSinceEpoch - startDay.daysSinceEpoch)
            times.notices.append("[TripSync] \(nights): \(startDay) to \(day).")
        case .date(let day)? where day == startDay:
            break
        case .local(let local, let zone)? where local.date >= startDay:
            endDay = local.date.daysSinceEpoch + 1
            times.notices.append("[TripSync] Ends " + Self.describe(.local(local, zone: zone)) + ".")
        case let end?:
            times.notices.append(Self.droppedEndNotice(end))
        case nil:
            break
        }
        if let dayAfter = LocalDate(daysSinceEpoch: endDay) {
            times.lines.append("DTEND;VALUE=DATE:" + ICalendarValue.date(dayAfter))
        }
        times.sortSeconds = Int64(startDay.daysSinceEpoch) * 86_400
        return times
    }

    /// The VEVENT's lines: its times, then the summary (marked when a field a calendar shows is
    /// in conflict), the place, and the description (the note, the conflict, the notices).
    private static func lines(id: ItemID, fields: ItemFields, times: Times, deviceName: (DeviceID) -> String) -> [String] {
        let conflicts = Self.markedFields.compactMap { FieldConflict(item: id, field: $0, in: fields) }
        var lines = ["BEGIN:VEVENT", "UID:\(id)@tripsync", "DTSTAMP:" + Self.stamp(fields)]
        lines += times.lines
        let mark = conflicts.isEmpty ? "" : Self.conflictMark
        if let title = fields.title?.value {
            lines.append("SUMMARY:" + ICalendarText.escape(mark + title))
        } else if !mark.isEmpty {
            lines.append("SUMMARY:" + ICalendarText.escape(mark))
        }
        if !conflicts.isEmpty { lines.append("STATUS:TENTATIVE") }
        if let place = fields.place?.value ?? nil, !place.isEmpty {
            lines.append("LOCATION:" + ICalendarText.escape(place))
        }
        var description: [String] = []
        if let note = fields.note?.value ?? nil, !note.isEmpty { description.append(note) }
        if !conflicts.isEmpty { description.append(Self.conflictNotice(conflicts, item: id, deviceName: deviceName)) }
        description += times.notices
        if !description.isEmpty {
            lines.append("DESCRIPTION:" + ICalendarText.escape(description.joined(separator: "\n\n")))
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// The local time to write for a resolved time: itself, or for a time in a DST gap the
    /// existing local time of its instant (moved forward by the gap), with a notice. Every
    /// reader then lands on the same instant, even one that does not apply RFC 5545's gap rule.
    static func existing(
        _ local: LocalDateTime, zone: String, _ resolved: ResolvedInstant, notices: inout [String]
    ) -> LocalDateTime {
        guard case .gap = resolved.resolution,
            let moved = ICalendarValue.localDateTime(wallSeconds: resolved.secondsSinceEpoch + Int64(resolved.offsetSeconds))
        else { return local }
        notices.append("[TripSync] \(local) does not exist in \(zone) (the clocks skip it); written as \(moved).")
        return moved
    }

    /// DTSTAMP: the newest rev counter of the item's registers (winners and conflicts) as
    /// milliseconds since 1970, in UTC, whole seconds.
    static func stamp(_ fields: ItemFields) -> String {
        let newest = fields.dots.map(\.rev.counter).max() ?? 0
        return ICalendarValue.utc(secondsSinceEpoch: Int64(newest / 1000))
    }

    /// A time as a person wrote it: `2027-06-10T13:00 America/New_York` or `2027-06-10 (whole day)`.
    static func describe(_ time: TripTime) -> String {
        switch time {
        case .local(let local, let zone): return "\(local) \(zone)"
        case .date(let day): return "\(day) (whole day)"
        }
    }

    /// `DURATION` of the default length, for a timed item with no usable end.
    static let defaultDurationLine = "DURATION:PT\(defaultDurationSeconds / 3600)H"

    /// The DESCRIPTION remark for a default length.
    static let defaultDurationNotice = "[TripSync] No end is planned; shown as 1 hour."

    /// The DESCRIPTION part for conflicting values: every value of each conflicted field, who
    /// wrote it, which one the event shows, and the command that keeps one.
    static func conflictNotice(_ conflicts: [FieldConflict], item: ItemID, deviceName: (DeviceID) -> String) -> String {
        var lines = ["[TripSync] ⚠ Not settled: changed on more than one device."]
        for conflict in conflicts {
            let values = conflict.distinctVersions.enumerated().map { index, version in
                "\(version.text) (by \(deviceName(version.device))" + (index == 0 ? ", shown here)" : ")")
            }
            lines.append("\(conflict.field.rawValue): " + values.joined(separator: "; "))
        }
        let short = item.description.prefix(8)
        lines.append("Keep one: tripsync resolve \(short) FIELD --keep current|mine|N")
        return lines.joined(separator: "\n")
    }

    /// The DESCRIPTION line for an end that could not be written as DTEND.
    static func droppedEndNotice(_ end: TripTime?) -> String {
        "[TripSync] The end (" + (end.map(describe) ?? "none") + ") is not after the start, so it is left out."
    }
}
