import Foundation
import TripSyncCore

/// The itinerary as one self-contained HTML page (`tripsync export --html`): a day-by-day
/// timeline a person would rather look at than read.
///
/// - Each item sits under its own local date at its own local time, with its zone's
///   abbreviation; an item whose start and end are in different zones (a flight) is drawn from
///   departure to arrival with its duration by instants (Lisbon 10:00 → New York 13:00 is 8 h);
///   whole-day and multi-day items are bands, and a multi-day item shows on each later day it
///   runs (up to 31 days); items without a start are listed apart.
/// - A viewer-zone switch (every zone the times use, then UTC) adds that zone's reading beside
///   each local time it reads differently ("10:00 WEST · 05:00 EDT yours"), marking a reading
///   that falls on another date (`+1`), while each item stays under its own date and its own
///   time. It is made of radio buttons and CSS alone: the page holds no script and no zone of
///   the machine that made it; with the default choice (or no CSS) each time is in its own zone.
/// - Every field with conflicting values shows each value with the device that wrote it, where
///   the item is; a deleted item edited while deleted is shown under its date, flagged, with the
///   edits and who made them.
/// - Semantic HTML: a heading per day, `<time datetime>` with the instant (a date for whole-day
///   items, a local date-time when the zone is unknown here); responsive CSS for a phone and a
///   print stylesheet.
/// - Safe to open whatever the trip holds: the page is built as `HTML`, so every text of the
///   trip interpolated into it is escaped in one place (only the page's own style sheet joins
///   by `HTML.trusted`), and a Content-Security-Policy allows no network load, no script, no
///   plugin, no form and no style but the page's own (by its SHA-256).
///
/// The output is deterministic: the same document, time and tz data give the same bytes,
/// whatever the machine's `TZ`, locale or clock.
package struct ItineraryPage: Sendable {
    /// The trip.
    package let document: TripDocument
    /// When the page was made (shown in its header and footer).
    package let generatedAt: UTCTimestamp
    /// The itinerary the page shows.
    package let itinerary: Itinerary
    /// The conflicts the page shows.
    package let conflicts: ConflictList

    let layout: ItineraryPageLayout
    let viewerZones: [ViewerZone]
    let zones: ZoneRules
    let conflictNumbers: [ItemID: Int]
    /// Each live item's shown attachments, by name, and the captions' conflicts by attachment:
    /// computed once, so a page of many items and attachments stays linear.
    let attachmentsByItem: [ItemID: [(id: AttachmentID, name: String, blob: BlobReference, attachment: Attachment)]]
    let captionConflicts: [AttachmentID: RegisterConflict]
    /// Where the page is shown live (the browser app), nil for the exported file.
    let live: Live?

    /// The live page's links (`tripsync open`): the one renderer serves the exported page and
    /// the live one, which links each title to its item's page and words each fix as a click
    /// ("Keep this under Conflicts") rather than a command.
    package struct Live: Sendable {
        /// An item's page.
        package var item: @Sendable (ItemID) -> String
        /// The page's conflicts, with Keep this.
        package var conflicts: String
        /// The page's deleted items, with Restore.
        package var deleted: String

        package init(item: @escaping @Sendable (ItemID) -> String, conflicts: String, deleted: String) {
            self.item = item
            self.conflicts = conflicts
            self.deleted = deleted
        }
    }

    /// Lays out the page of `document` made at `generatedAt`, with this machine's tz data by
    /// default; `live` for the browser app's page (no zone switch: each time in its own zone).
    package init(_ document: TripDocument, generatedAt: UTCTimestamp, zones: ZoneRules = ZoneRules(), live: Live? = nil) {
        self.live = live
        self.document = document
        self.generatedAt = generatedAt
        self.zones = zones
        itinerary = Itinerary(document, zones: zones)
        conflicts = ConflictList(document)
        layout = ItineraryPageLayout(itinerary, conflicts: conflicts, document: document, zones: zones)
        var times: [ShownTime] = []
        for day in itinerary.days {
            for entry in day.entries {
                if let start = entry.start { times.append(start) }
                if let end = entry.end { times.append(end) }
            }
        }
        viewerZones = live == nil ? ViewerZone.zones(for: times, rules: zones) : []
        conflictNumbers = Self.numberConflicts(layout, conflicts)
        var byItem: [ItemID: [(id: AttachmentID, name: String, blob: BlobReference, attachment: Attachment)]] = [:]
        for (id, attachment) in document.attachments where document.isShown(id) {
            guard let item = attachment.item?.value, let name = attachment.name?.value, let blob = attachment.blob?.value else { continue }
            byItem[item, default: []].append((id, name, blob, attachment))
        }
        attachmentsByItem = byItem.mapValues { $0.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }
        var captions: [AttachmentID: RegisterConflict] = [:]
        for conflict in conflicts.registers {
            if let id = conflict.subject.attachment { captions[id] = conflict }
        }
        captionConflicts = captions
    }

    /// How many dates have a heading on the page.
    package var dayCount: Int { layout.days.count }

    /// How many live items the page shows (scheduled and not).
    package var itemCount: Int { itinerary.days.reduce(0) { $0 + $1.entries.count } + itinerary.unscheduled.count }

    /// The page: UTF-8 HTML text, ending in a newline.
    package var html: String {
        let style = ItineraryPageStyle.css(zoneCount: viewerZones.count)
        var out: HTML = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(ItineraryPageStyle.contentSecurityPolicy(style: style))\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"color-scheme\" content=\"light\">\n"
        out += "<meta name=\"generator\" content=\"TripSync\">\n"
        out += "<title>\(document.trip.name.value) · itinerary</title>\n"
        // The style sheet is this program's own (`ItineraryPageStyle`), no value of the trip.
        out += "<style>\(HTML.trusted(style))</style>\n</head>\n<body>\n"
        out += zoneRadios()
        out += header()
        out += "<main>\n\(days)</main>\n"
        out += footer()
        out += "</body>\n</html>\n"
        return out.description
    }

    /// The days (each with its items, a stay on each of its days, the map links), then the
    /// items not scheduled yet: the part the exported page and the live page share.
    package var days: HTML {
        var out: HTML = ""
        for day in layout.days { out += dayHTML(day) }
        if !layout.unscheduled.isEmpty || !layout.unscheduledGhosts.isEmpty { out += unscheduledHTML() }
        if layout.days.isEmpty && layout.unscheduled.isEmpty && layout.unscheduledGhosts.isEmpty {
            out += "<p class=\"empty\">Nothing planned yet.</p>\n"
        }
        return out
    }

    // MARK: the parts of the page

    /// The switch's radio buttons: first in the body, so the CSS can follow the checked one.
    func zoneRadios() -> HTML {
        var out: HTML = ""
        for index in 0...viewerZones.count {
            out += "<input type=\"radio\" class=\"vz\" name=\"viewer-zone\" id=\"vz-\(index)\"\(index == 0 ? " checked" as HTML : "")>\n"
        }
        return out
    }

    func header() -> HTML {
        var out: HTML = "<header class=\"top\">\n<div class=\"wrap\">\n<p class=\"eyebrow\">Trip itinerary</p>\n"
        out += "<h1 dir=\"auto\">\(document.trip.name.value)</h1>\n"
        if let conflict = conflicts.registers.first(where: { $0.subject == .tripName }) {
            out += registerConflictHTML(conflict, head: "Renamed on more than one device", anchor: 1, fix: "tripsync resolve trip name --keep current|mine|N", extraClass: " name-conflict")
        }
        if let conflict = conflicts.registers.first(where: { $0.subject == .tripZone }) {
            let anchor = conflicts.registers.contains { $0.subject == .tripName } ? 2 : 1
            out += registerConflictHTML(
                conflict, head: "Trip zone set on more than one device", anchor: anchor, fix: "tripsync resolve trip zone --keep current|mine|N",
                extraClass: " name-conflict")
        }
        if let first = layout.days.first?.date, let last = layout.days.last?.date {
            let span = last.daysSinceEpoch - first.daysSinceEpoch + 1
            out += "<p class=\"range\">\(PageText.dateTag(first, PageText.shortDate(first, withYear: first.year != last.year)))"
            if last != first { out += " – \(PageText.dateTag(last, PageText.shortDate(last, withYear: true)))" } else { out += " \(first.year)" }
            out += " · \(PageText.count(span, "day", "days"))</p>\n"
        }
        out += "<ul class=\"stats\">"
        out += "<li><b>\(itemCount)</b> \(itemCount == 1 ? "plan" : "plans")</li>"
        let travel = itinerary.days.flatMap(\.entries).filter { ItineraryPageLayout.kind($0) == .travel }.count
        if travel > 0 { out += "<li><b>\(travel)</b> across zones</li>" }
        if !itinerary.unscheduled.isEmpty { out += "<li><a href=\"#unscheduled\"><b>\(itinerary.unscheduled.count)</b> not scheduled</a></li>" }
        let summary = conflicts.summary
        if summary.total > 0 {
            out += "<li class=\"warn\"><a href=\"#conflict-1\"><b>\(summary.total)</b> \(summary.total == 1 ? "conflict" : "conflicts") to settle</a></li>"
        }
        out += "</ul>\n"
        out += zoneSwitch()
        out += "<p class=\"made\">Made \(PageText.madeTag(generatedAt))</p>\n"
        out += "</div>\n</header>\n"
        if layout.days.count > 1 { out += daysNav() }
        return out
    }

    /// The switch: "Local only" (each time in its own zone), or a zone whose readings are shown
    /// beside the local times ("yours"); the paragraph under it says which (printed, not on screen).
    func zoneSwitch() -> HTML {
        var out: HTML = "<div class=\"switch\" role=\"group\" aria-label=\"Your zone, shown beside each local time\">\n<span class=\"switch-label\">Your zone</span>\n"
        out += "<label for=\"vz-0\" title=\"Each time in the zone it was planned in, and nothing beside it\">Local only</label>\n"
        for (index, zone) in viewerZones.enumerated() {
            out += "<label for=\"vz-\(index + 1)\"\(HTML.attribute("title", zone.id))>\(zone.label)</label>\n"
        }
        out += "</div>\n<p class=\"shown-zone\">Times in each item's own zone"
        for (index, zone) in viewerZones.enumerated() {
            out += "<span class=\"zn zn-\(index + 1)\">; yours: \(zone.id)</span>"
        }
        return out + "</p>\n"
    }

    func daysNav() -> HTML {
        var out: HTML = "<nav class=\"days-nav\" aria-label=\"Days\"><ol>"
        for day in layout.days {
            out += "<li><a href=\"#day-\(day.date)\"><span>\(PageText.weekdayShort(day.date))</span> \(day.date.day) \(PageText.monthShort(day.date))</a></li>"
        }
        return out + "</ol></nav>\n"
    }

    func dayHTML(_ day: ItineraryPageLayout.Day) -> HTML {
        var out: HTML = "<section class=\"day\" id=\"day-\(day.date)\" data-date=\"\(day.date)\" aria-labelledby=\"h-\(day.date)\">\n"
        out += "<h2 id=\"h-\(day.date)\"><span class=\"dow\">\(LocalTimeFormat.weekday(day.date))</span> \(PageText.dateTag(day.date, PageText.longDate(day.date)))</h2>\n"
        if !day.continuing.isEmpty {
            out += "<ul class=\"continuing\">\n"
            for continuation in day.continuing { out += continuationHTML(continuation, on: day.date) }
            out += "</ul>\n"
        }
        if !day.entries.isEmpty {
            out += "<ol class=\"items\">\n"
            for entry in day.entries { out += itemHTML(entry, day: day.date) }
            out += "</ol>\n"
        }
        if !day.ghosts.isEmpty {
            out += "<ul class=\"items ghosts\">\n"
            for ghost in day.ghosts { out += ghostHTML(ghost, day: day.date) }
            out += "</ul>\n"
        }
        return out + "</section>\n"
    }

    func unscheduledHTML() -> HTML {
        var out: HTML = "<section class=\"day unscheduled\" id=\"unscheduled\" aria-labelledby=\"h-unscheduled\">\n"
        out += "<h2 id=\"h-unscheduled\">Not scheduled yet</h2>\n"
        if !layout.unscheduled.isEmpty {
            out += "<ol class=\"items\">\n"
            for entry in layout.unscheduled { out += itemHTML(entry, day: nil) }
            out += "</ol>\n"
        }
        if !layout.unscheduledGhosts.isEmpty {
            out += "<ul class=\"items ghosts\">\n"
            for ghost in layout.unscheduledGhosts { out += ghostHTML(ghost, day: nil) }
            out += "</ul>\n"
        }
        return out + "</section>\n"
    }

    func footer() -> HTML {
        var out: HTML = "<footer class=\"bottom\"><div class=\"wrap\">\n"
        out += "<p>Made \(PageText.madeTag(generatedAt)) by TripSync from trip <code>\(String(document.tripID.description.prefix(8)))</code>.</p>\n"
        out += "<p>Each item is listed under its own local date, at its own local time; a zone chosen above "
            + "adds its time beside each one it reads differently (\u{201C}yours\u{201D}). Durations are exact, from instant to instant.</p>\n"
        return out + "</div></footer>\n"
    }
}
