import TripSyncCore
import TripSyncHome

/// The items of the itinerary page: cards, times in their own zone and in every zone of the switch, conflicts.
extension ItineraryPage {
    /// The number of each conflict's box on the page (items and deleted items), in page order,
    /// so the header can link to the first.
    /// The trip's name and zone, when they hold a conflict, are numbers 1 and 2 (their boxes are
    /// in the header); an item whose fields or attachment captions conflict has one number for
    /// its card.
    static func numberConflicts(_ layout: ItineraryPageLayout, _ conflicts: ConflictList) -> [ItemID: Int] {
        var numbers: [ItemID: Int] = [:]
        let first = 1 + conflicts.registers.filter { $0.subject == .tripName || $0.subject == .tripZone }.count
        var captioned = Set<ItemID>()
        for conflict in conflicts.registers {
            if case .caption(_, let item) = conflict.subject { captioned.insert(item) }
        }
        func add(_ id: ItemID) { if numbers[id] == nil { numbers[id] = numbers.count + first } }
        for day in layout.days {
            for entry in day.entries where !entry.conflictedFields.isEmpty || captioned.contains(entry.id) { add(entry.id) }
            for ghost in day.ghosts { add(ghost.entry.item) }
        }
        for entry in layout.unscheduled where !entry.conflictedFields.isEmpty || captioned.contains(entry.id) { add(entry.id) }
        for ghost in layout.unscheduledGhosts { add(ghost.entry.item) }
        return numbers
    }

    // MARK: times

    /// A time as the page shows it: in its own zone, always visible, then, for each zone of the
    /// switch that reads it differently, that zone's reading ("· 05:00 EDT yours"), visible
    /// beside the local time only while that zone is chosen. Each reading is marked `+1` when it
    /// falls on another date than `day`. A date is a date; a zone unknown here is shown as stored
    /// with its id, and nothing beside it.
    func clockHTML(_ shown: ShownTime, day: LocalDate?) -> HTML {
        switch shown.time {
        case .date(let date):
            return PageText.dateTag(date, PageText.shortDate(date))
        case .local(let local, let zoneID):
            let clock = LocalTimeFormat.hhmm(shown.time)
            let base: HTML = day.map { " data-day=\"\($0)\"" } ?? ""
            guard let instant = shown.instant, !shown.zoneUnknown else {
                return "<time class=\"clock unknown-zone\" datetime=\"\(local)\"\(base)><span class=\"hm\">\(clock)\(PageText.dayShift(from: day, to: local.date))"
                    + "</span> <span class=\"zid\">\(zoneID)</span></time>"
            }
            var out: HTML = "<time class=\"clock\" datetime=\"\(UTCTimestamp(secondsSinceEpoch: instant.secondsSinceEpoch).description)\"\(base)>"
            out += "<span class=\"v v0\"><span class=\"hm\">\(clock)\(PageText.dayShift(from: day, to: local.date))</span> <abbr"
                + "\(HTML.attribute("title", zoneID))>\(shown.abbreviation ?? zoneID)</abbr></span>"
            let own = ViewerZone(zoneID, rules: zones)?.read(instant.secondsSinceEpoch)
            for (index, zone) in viewerZones.enumerated() {
                // A zone that reads the time as its own zone does (the same clock, abbreviation and date) adds nothing.
                guard let reading = zone.read(instant.secondsSinceEpoch),
                    reading.clock != own?.clock || reading.abbreviation != own?.abbreviation || reading.date != own?.date
                else { continue }
                out += "<span class=\"v v\(index + 1)\"><span class=\"yours\"><span class=\"sep\"> ·&nbsp;</span><span class=\"hm\">\(reading.clock)"
                    + "\(PageText.dayShift(from: day, to: reading.date))</span> <abbr\(HTML.attribute("title", zone.id))>"
                    + "\(reading.abbreviation)</abbr> <span class=\"yl\">yours</span></span></span>"
            }
            return out + "</time>"
        }
    }

    /// A field's value as a person reads it in a conflict.
    func valueText(_ value: FieldValue) -> HTML {
        switch value {
        case .text(let text?): return "\u{201C}\(text)\u{201D}"
        case .text(nil), .time(nil): return "<i>(empty)</i>"
        case .time(.date(let date)?): return "\(PageText.shortDate(date, withYear: true)), all day"
        case .time(let time?):
            let shown = Itinerary.show(time, zones)
            return "\(PageText.shortDate(time.localDate, withYear: true)) \(LocalTimeFormat.hhmm(time)) \(shown.abbreviation ?? time.zone ?? "")"
        }
    }

    static func fieldName(_ field: ItemField) -> String {
        switch field {
        case .title: return "Title"
        case .start: return "Start"
        case .end: return "End"
        case .place: return "Place"
        case .note: return "Note"
        case .sortKey: return "Order"
        }
    }

    // MARK: items

    /// One live item: its start in the left column, its card on the right.
    func itemHTML(_ entry: ItineraryEntry, day: LocalDate?) -> HTML {
        let kind = ItineraryPageLayout.kind(entry)
        let kindName: String
        switch kind {
        case .allDay: kindName = entry.start == nil ? "unscheduled" : "allday"
        case .travel: kindName = "travel"
        case .stay: kindName = "stay"
        case .timed: kindName = "timed"
        }
        let id = entry.id.description
        let days = ItineraryPageLayout.dayCount(entry)
        let classes = kindName + (days > 1 ? " multi" : "") + (conflictNumbers[entry.id] == nil ? "" : " has-conflict")
        var out: HTML = "<li class=\"item \(classes)\" id=\"item-\(id)\" data-item=\"\(id)\" data-kind=\"\(kindName)\""
        if let duration = entry.durationSeconds, duration >= 0 { out += " data-duration-minutes=\"\(duration / 60)\"" }
        out += ">\n<div class=\"when\">"
        switch (kind, entry.start) {
        case (_, nil): out += "<span class=\"tag\">Any day</span>"
        case (.allDay, let start?):
            let nights = entry.end.flatMap { StayNights.count(start: start.time, end: $0.time) }
            out += "<span class=\"tag\">\(days > 1 ? nights.map(StayNights.text) ?? PageText.count(days, "day", "days") : "All day")</span>"
        case (_, let start?): out += clockHTML(start, day: day)
        }
        out += "</div>\n<div class=\"card\">\n"
        let title = entry.fields.title?.value ?? ""
        if let live {
            out += "<h3 class=\"title\" dir=\"auto\"><a\(HTML.attribute("href", live.item(entry.id)))>\(title)</a></h3>\n"
        } else {
            out += "<h3 class=\"title\" dir=\"auto\">\(title)</h3>\n"
        }
        out += spanHTML(entry, kind: kind, days: days, day: day)
        if let place = entry.fields.place?.value ?? nil, !place.isEmpty {
            out += "<p class=\"place\" dir=\"auto\">\(placeHTML(place))</p>\n"
        }
        if let note = entry.fields.note?.value ?? nil, !note.isEmpty {
            out += "<p class=\"note\" dir=\"auto\">\(note)</p>\n"
        }
        let (attachments, numbered) = attachmentsHTML(entry.id)
        out += attachments
        for remark in remarks(entry) { out += "<p class=\"remark\">\(remark)</p>\n" }
        if !entry.conflictedFields.isEmpty { out += conflictsHTML(entry, numbered: !numbered) }
        return out + "</div>\n</li>\n"
    }

    /// A place as text linked to its map (`MapLink`: an OpenStreetMap search, percent-encoded, so
    /// the place cannot leave the attribute or name another scheme).
    func placeHTML(_ place: String) -> HTML {
        guard let url = MapLink.url(for: place) else { return "\(place)" }
        return "<a class=\"map\"\(HTML.attribute("href", url)) rel=\"noopener noreferrer\" title=\"Map (OpenStreetMap)\">\(place)</a>"
    }

    /// The item's shown attachments, by name: what each is, its size and caption, how to get it
    /// out (the page links to no file: the bytes stay in the homes). A caption written on two
    /// devices at once shows every value with who wrote it. Also says whether a caption's
    /// conflict box took the card's conflict number.
    func attachmentsHTML(_ item: ItemID) -> (html: HTML, numbered: Bool) {
        // The live page shows attachments on the item's own page (view, download), not here.
        guard live == nil, let shown = attachmentsByItem[item], !shown.isEmpty else { return ("", false) }
        var numbered = false
        var out: HTML = "<ul class=\"attachments\" aria-label=\"Attachments\">\n"
        for (id, name, blob, attachment) in shown {
            out += "<li class=\"attachment\" data-attachment=\"\(id)\"><span class=\"a-name\" dir=\"auto\">\(name)</span> "
                + "<span class=\"a-meta\">\(Self.kindName(blob.type)) · \(ByteCount.text(blob.size))</span>"
            if let conflict = captionConflicts[id] {
                let anchor = numbered ? nil : conflictNumbers[item]
                numbered = true
                out += registerConflictHTML(
                    conflict, head: "Caption changed on more than one device", anchor: anchor,
                    fix: "tripsync resolve " + String(id.description.prefix(8)) + " caption --keep current|mine|N")
            } else if let caption = attachment.caption?.value ?? nil, !caption.isEmpty {
                out += "<span class=\"a-caption\" dir=\"auto\">\(caption)</span>"
            }
            out += "<code class=\"a-get\">tripsync extract \(String(id.description.prefix(8))) -o FILE</code></li>\n"
        }
        return (out + "</ul>\n", numbered)
    }

    /// The box of a register's conflict (the trip's name, a caption): each value once, with
    /// who wrote it, and the command that keeps one.
    func registerConflictHTML(_ conflict: RegisterConflict, head: String, anchor: Int?, fix: String, extraClass: String = "") -> HTML {
        let id: HTML = anchor.map { " id=\"conflict-\($0)\"" } ?? ""
        var out: HTML = "<div class=\"conflicts\(extraClass)\"\(id) role=\"note\">\n<p class=\"c-head\">\(head)</p>\n<ul>\n"
        var seen: [FieldValue] = []
        for version in [conflict.current] + conflict.alternatives where !seen.contains(version.value) {
            out += conflictValueHTML(version, shown: seen.isEmpty)
            seen.append(version.value)
        }
        return out + "</ul>\n<p class=\"c-fix\">Keep one: <code>\(fix)</code></p>\n</div>\n"
    }

    /// One value of a conflict's box: the value, who wrote it, and whether it is the one shown.
    func conflictValueHTML(_ version: FieldConflict.Version, shown: Bool) -> HTML {
        let current: HTML = shown ? " class=\"c-current\"" : ""
        let badge: HTML = shown ? " <span class=\"c-badge\">shown</span>" : ""
        return "<li\(current)><span class=\"c-val\" dir=\"auto\">\(valueText(version.value))</span> <span class=\"c-by\">by <bdi>"
            + "\(document.deviceName(version.device))</bdi></span>\(badge)</li>\n"
    }

    /// A media type as a person names it.
    static func kindName(_ type: String) -> String {
        switch BlobType(rawValue: type) {
        case .jpeg?: return "JPEG photo"
        case .png?: return "PNG image"
        case .gif?: return "GIF image"
        case .webp?: return "WebP image"
        case .heic?: return "HEIC photo"
        case .pdf?: return "PDF"
        case .octetStream?, nil: return "file"
        }
    }

    /// What the card says about the item's end: the route of a flight, until when a stay or a
    /// timed item runs, the dates of a multi-day band.
    func spanHTML(_ entry: ItineraryEntry, kind: ItineraryPageLayout.Kind, days: Int, day: LocalDate?) -> HTML {
        guard let start = entry.start, let end = entry.end else { return "" }
        let duration = entry.durationSeconds.flatMap { $0 >= 0 ? LocalTimeFormat.duration(seconds: $0) : nil }
        switch kind {
        case .travel:
            let from = ViewerZone.label(start.time.zone ?? "")
            let to = ViewerZone.label(end.time.zone ?? "")
            var out: HTML = "<div class=\"route\">\n"
            out += "<div class=\"leg dep\"><span class=\"lbl\">Departs</span>\(clockHTML(start, day: day))<span class=\"city\">\(from)</span></div>\n"
            out += "<div class=\"path\"><span class=\"dur duration\">\(duration ?? "duration unknown")</span></div>\n"
            out += "<div class=\"leg arr\"><span class=\"lbl\">Arrives</span>\(clockHTML(end, day: day))<span class=\"city\">\(to)</span></div>\n"
            return out + "</div>\n"
        case .stay:
            // The end's date is written out, so its time is marked only when a zone moves it off that date.
            let nights = StayNights.count(start: start.time, end: end.time).map(StayNights.text) ?? PageText.count(days, "day", "days")
            return "<p class=\"span\">until \(PageText.dateTag(end.time.localDate, PageText.shortDate(end.time.localDate))) "
                + "\(clockHTML(end, day: end.time.localDate)) · \(nights)</p>\n"
        case .timed:
            if case .date(let date) = end.time {
                return "<p class=\"span\">until \(PageText.dateTag(date, PageText.shortDate(date)))</p>\n"
            }
            let lasting: HTML = duration.map { " · <span class=\"duration\">\($0)</span>" } ?? ""
            return "<p class=\"span\">until \(clockHTML(end, day: day))\(lasting)</p>\n"
        case .allDay:
            guard days > 1 else { return "" }
            return "<p class=\"span\">\(PageText.dateTag(start.time.localDate, PageText.shortDate(start.time.localDate))) – "
                + "\(PageText.dateTag(end.time.localDate, PageText.shortDate(end.time.localDate)))</p>\n"
        }
    }

    /// Notes on the item's times: gaps and overlaps, zones unknown here, an end before the start.
    func remarks(_ entry: ItineraryEntry) -> [HTML] {
        var result: [HTML] = []
        for (name, shown) in [("Start", entry.start), ("End", entry.end)] {
            guard let shown else { continue }
            if let note = shown.note { result.append("\(name): \(note).") }
            if shown.zoneUnknown, let zone = shown.time.zone {
                result.append("\(name): the zone \(zone) is unknown to this machine's time zone data, so the time is shown as stored.")
            }
        }
        if let duration = entry.durationSeconds, duration < 0 { result.append("The end comes before the start.") }
        return result
    }

    /// Every conflicting field of a live item: each value once, with the device that wrote it.
    func conflictsHTML(_ entry: ItineraryEntry, numbered: Bool = true) -> HTML {
        let anchor: HTML = numbered ? conflictNumbers[entry.id].map { " id=\"conflict-\($0)\"" } ?? "" : ""
        var out: HTML = "<div class=\"conflicts\"\(anchor) role=\"note\">\n"
        out += "<p class=\"c-head\">Changed on more than one device</p>\n"
        if let live {
            // Each value with who wrote it and when, and Keep this, is under the page's Conflicts.
            let names = entry.conflictedFields.map { Self.fieldName($0).lowercased() }.joined(separator: ", ")
            return out + "<p class=\"c-fix\">\(names): keep one with Keep this under <a\(HTML.attribute("href", live.conflicts))>Conflicts</a>.</p>\n</div>\n"
        }
        let short = String(entry.id.description.prefix(8))
        for field in entry.conflictedFields {
            guard let conflict = FieldConflict(item: entry.id, field: field, in: entry.fields) else { continue }
            out += "<div class=\"c-field\" data-field=\"\(field.rawValue)\"><p class=\"c-name\">\(Self.fieldName(field))</p>\n<ul>\n"
            for (index, version) in conflict.distinctVersions.enumerated() {
                out += conflictValueHTML(version, shown: index == 0)
            }
            out += "</ul>\n<p class=\"c-fix\">Keep one: <code>tripsync resolve \(short) \(field.rawValue) --keep current|mine|N</code></p>\n</div>\n"
        }
        return out + "</div>\n"
    }

    /// A deleted item edited while deleted: flagged, with the edits, who made them and who deleted it.
    func ghostHTML(_ ghost: ItineraryPageLayout.Ghost, day: LocalDate?) -> HTML {
        let id = ghost.entry.item.description
        var out: HTML = "<li class=\"item ghost\" id=\"deleted-\(id)\" data-deleted-item=\"\(id)\">\n<div class=\"when\">"
        switch ghost.start?.time {
        case nil: out += "<span class=\"tag\">Any day</span>"
        case .date?: out += "<span class=\"tag\">All day</span>"
        case .local?: out += ghost.start.map { clockHTML($0, day: day) } ?? ""
        }
        let anchor: HTML = conflictNumbers[ghost.entry.item].map { " id=\"conflict-\($0)\"" } ?? ""
        out += "</div>\n<div class=\"card\">\n<div class=\"conflicts\"\(anchor) role=\"note\">\n<p class=\"c-head\">Deleted, then edited</p>\n"
        out += "<h3 class=\"title\" dir=\"auto\"><del>\(ghost.entry.title ?? "(deleted item)")</del></h3>\n"
        let deleters: [HTML] = ghost.entry.deletedBy.map { "<bdi>\(document.deviceName($0))</bdi>" }
        let by: HTML = deleters.isEmpty ? "another device" : HTML.joined(deleters, separator: " and ")
        out += "<p>Deleted by \(by); changed while it was deleted:</p>\n<ul>\n"
        for (field, edit) in zip(ghost.entry.fields, ghost.entry.edits) {
            out += "<li><span class=\"c-name\">\(Self.fieldName(field))</span> <span class=\"c-val\" dir=\"auto\">\(valueText(edit.value))"
                + "</span> <span class=\"c-by\">by <bdi>\(document.deviceName(edit.device))</bdi></span></li>\n"
        }
        if let live {
            out += "</ul>\n<p class=\"c-fix\">Bring it back with everything: Restore under <a\(HTML.attribute("href", live.deleted))>Deleted</a>.</p>\n"
        } else {
            out += "</ul>\n<p class=\"c-fix\">Bring it back with everything: <code>tripsync restore \(String(id.prefix(8)))</code></p>\n"
        }
        return out + "</div>\n</div>\n</li>\n"
    }

    /// A multi-day item on a later day: a thin band linking to the item.
    func continuationHTML(_ continuation: ItineraryPageLayout.Continuation, on date: LocalDate) -> HTML {
        let entry = continuation.entry
        let id = entry.id.description
        let last = continuation.dayNumber == continuation.dayCount
        var when: HTML = "day \(continuation.dayNumber) of \(continuation.dayCount)"
        if last, let end = entry.end, case .local = end.time {
            when = "\(ItineraryPageLayout.kind(entry) == .travel ? "arrives " : "until ")\(clockHTML(end, day: date))"
        }
        return "<li class=\"cont\" data-continues=\"\(id)\"><a href=\"#item-\(id)\"><span class=\"cont-title\" dir=\"auto\">"
            + "\(entry.fields.title?.value ?? "")</span> <span class=\"cont-when\">\(when)</span></a></li>\n"
    }
}
