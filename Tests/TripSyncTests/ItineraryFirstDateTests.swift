import Testing
import TripSync
import TripSyncCore
import TripSyncFixtures

/// `Itinerary.firstDate(of:)` (the web form's "10 Jun" reference, read on every Add) is the
/// itinerary's first day, found without building the itinerary.
@Suite struct ItineraryFirstDateTests {
    @Test func theFirstDateIsTheItinerarysFirstDayForSeededTrips() {
        for seed in 0..<60 as Range<UInt64> {
            var generator = TripGenerator(seed: seed, deviceCount: 2)
            var document = generator.document(itemCount: 40)
            // Keep a seeded part of the items, so the first day, whole-day and unscheduled items
            // and the empty trip all come up.
            var random = SeededGenerator(seed: seed)
            let keep = Int.random(in: 0...40, using: &random)
            for id in document.items.keys.shuffled(using: &random).dropFirst(keep) { document.items[id] = nil }
            #expect(Itinerary.firstDate(of: document) == Itinerary(document).days.first?.date, "seed \(seed), \(keep) items")
        }
    }

    @Test func aTripWithNoStartHasNoFirstDate() {
        var generator = TripGenerator(seed: 1, deviceCount: 1)
        var document = generator.document(itemCount: 5)
        for id in Array(document.items.keys) { document.items[id]?.start = nil }
        #expect(Itinerary.firstDate(of: document) == nil)
        #expect(Itinerary(document).days.isEmpty)
    }
}
