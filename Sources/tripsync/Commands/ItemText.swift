import Foundation
import TripSync
import TripSyncCore

/// One item whole (`show ITEM`) and the deleted items (`show --deleted`) as text. Times of
/// writes are shown in this machine's zone (`TZ`), UTC when it has none.
enum ItemText {
    static let machine: ViewerZone? = ViewerZone.machine()

    static func when(_ time: UTCTimestamp) -> String {
        machine?.moment(time) ?? time.description
    }

    static func writer(_ value: ItemDetail.Value, marked: Bool = true) -> String {
        "by \(value.deviceName), \(when(value.writtenAt))" + (marked && value.editedWhileDeleted ? " (edited while deleted)" : "")
    }

    static func label(_ field: ItemField) -> String {
        field == .sortKey ? "order" : field.rawValue
    }

    /// A value as a person reads it: a time with its weekday and zone (and the viewer's reading
    /// where it differs), text as typed.
    static func text(_ value: FieldValue, zones: ZoneRules, viewer: ViewerZone? = machine) -> [String] {
        switch value {
        case .text(nil), .time(nil): return ["(empty)"]
        case .text(let text?): return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case .time(.date(let date)?): return [ItineraryText.shortDay(date) + " (all day)"]
        case .time(let time?):
            guard case .local(let local, let zone) = time else { return [] }
            let shown = Itinerary.shownTime(time, zones)
            let day = ItineraryText.shortDay(local.date) + " " + LocalTimeFormat.hhmm(time)
            if shown.zoneUnknown { return [day + " (\(zone), unknown here)"] }
            let yours = ItineraryText.yours(shown, viewer: viewer, zones: zones).map { " " + $0 } ?? ""
            return [day + " " + (shown.abbreviation ?? "") + " (\(zone))" + yours] + (shown.note.map { ["time: " + $0] } ?? [])
        }
    }

    static func lines(_ detail: ItemDetail, _ document: TripDocument, zones: ZoneRules, viewer: ViewerZone? = machine) -> [String] {
        let short = detail.id.description.prefix(8)
        let title: String
        if case .text(let text?)? = detail.fields.first(where: { $0.field == .title })?.current.value { title = text } else { title = "(untitled)" }
        var lines = [title, "  id       \(detail.id)"]
        if detail.isDeleted {
            let by = detail.deletes.map { "\($0.deviceName), \(when($0.at))" }.joined(separator: " and by ")
            lines.append("  deleted  by \(by); restorable: tripsync restore \(short)")
            if detail.isCompacted { lines.append("           (its fields were compacted away after the retention; a restore gives them defaults)") }
        }
        let indent = "           "
        for field in detail.fields {
            let name = label(field.field)
            let values = text(field.current.value, zones: zones, viewer: viewer)
            lines.append("  " + name + String(repeating: " ", count: max(1, 9 - name.count)) + (values.first ?? ""))
            for more in values.dropFirst() { lines.append(indent + more) }
            if field.field == .place, case .text(let place?) = field.current.value, let url = MapLink.url(for: place) {
                lines.append(indent + "map: " + url)
            }
            lines.append(indent + writer(field.current))
            for (number, alternative) in field.alternatives.enumerated() {
                let shown = text(alternative.value, zones: zones, viewer: viewer)
                lines.append(indent + "⚠ conflict, alternative \(number + 1): " + (shown.first ?? ""))
                for more in shown.dropFirst() { lines.append(indent + "  " + more) }
                lines.append(indent + "  " + writer(alternative))
            }
            if !field.alternatives.isEmpty {
                lines.append(indent + "settle it: tripsync resolve \(short) \(field.field.rawValue) --keep current|mine|N")
            }
        }
        let edits = detail.editsWhileDeleted
        if !edits.isEmpty {
            lines.append("  ⚠ edited while deleted: \(plural(edits.count, "value was", "values were")) written after the delete; tripsync restore \(short) keeps them")
            for edit in edits {
                lines.append(indent + label(edit.field) + ": " + (text(edit.value.value, zones: zones).first ?? "") + " (" + writer(edit.value, marked: false) + ")")
            }
        }
        return lines
    }

    /// An item's attachments under its fields: id, state, name, type and size, caption.
    static func attachments(_ list: [AttachmentEntry]) -> [String] {
        guard !list.isEmpty else { return [] }
        var lines = ["  attachments"]
        for entry in list {
            var line = "    \(entry.id.description.prefix(8))  \(entry.state.rawValue)  \(entry.name) (\(entry.blob.type), \(ByteCount.text(entry.blob.size)))"
            if let caption = entry.caption { line += " — " + (caption.split(whereSeparator: \.isNewline).first.map(String.init) ?? "") }
            if entry.hasConflict { line += "  ⚠ conflict" }
            lines.append(line)
        }
        return lines
    }

    static func deleted(_ list: DeletedItemList) -> [String] {
        guard !list.entries.isEmpty else { return ["no deleted items"] }
        var lines = ["\(plural(list.entries.count, "deleted item")), newest first (tripsync restore ID brings one back whole):"]
        for entry in list.entries {
            let short = entry.detail.id.description.prefix(8)
            let by = entry.detail.deletes.map { "\($0.deviceName), \(when($0.at))" }.joined(separator: " and by ")
            lines.append("  \(short)  \(entry.title ?? "(compacted: no title kept)")  deleted by \(by)")
            let edits = entry.detail.editsWhileDeleted.count
            if edits > 0 { lines.append("      ⚠ edited while deleted (\(plural(edits, "value"))): tripsync show \(short)") }
        }
        return lines
    }
}
