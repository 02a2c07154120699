import Foundation

extension Itinerary {
    /// The days from `from` through `to` (either may be nil: open on that side), each item under
    /// its own start date as always. Unscheduled items have no day, so a narrowed itinerary has
    /// none.
    package func narrowed(from: LocalDate?, to: LocalDate?) -> Itinerary {
        guard from != nil || to != nil else { return self }
        var result = self
        result.days = days.filter { day in (from.map { day.date >= $0 } ?? true) && (to.map { day.date <= $0 } ?? true) }
        result.unscheduled = []
        return result
    }

    /// Only the items whose title, place or note contain `text`, compared as people expect:
    /// case, accents and width ignored ("sintra" finds "Sintra", "jeronimos" finds
    /// "Jerónimos"). Days left without items are dropped.
    package func matching(_ text: String) -> Itinerary {
        let needle = Itinerary.folded(text)
        func matches(_ entry: ItineraryEntry) -> Bool {
            guard !needle.isEmpty else { return true }
            let fields = [entry.fields.title?.value, entry.fields.place?.value ?? nil, entry.fields.note?.value ?? nil]
            return fields.contains { $0.map { Itinerary.folded($0).contains(needle) } ?? false }
        }
        var result = self
        result.days = days.compactMap { day in
            let entries = day.entries.filter(matches)
            return entries.isEmpty ? nil : ItineraryDay(date: day.date, entries: entries)
        }
        result.unscheduled = unscheduled.filter(matches)
        return result
    }

    /// Whether the itinerary shows no item.
    package var isEmpty: Bool { days.isEmpty && unscheduled.isEmpty }

    /// Text folded for search: no case, diacritics or width differences, the same locale-free
    /// result on every machine.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
