/// The epoch keys a reader may open sealed files with (docs/DESIGN.md, "Sealed files"): a
/// lookup by trip and epoch id, so one reader serves files of any trip a home is a member of.
/// A reader without keys still checks a sealed file's envelope and signature.
package struct OpeningKeys: Sendable {
    private let lookup: @Sendable (TripID, String) -> EpochKey?

    /// Keys found by `lookup` (the trip, the epoch key's id).
    package init(_ lookup: @escaping @Sendable (TripID, String) -> EpochKey?) {
        self.lookup = lookup
    }

    /// The keys `keys` of one trip.
    package init(trip: TripID, keys: [EpochKey]) {
        let byID = Dictionary(keys.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        lookup = { asked, id in asked == trip ? byID[id] : nil }
    }

    /// The key of `trip` whose id is `id`, when held.
    package func key(trip: TripID, id: String) -> EpochKey? { lookup(trip, id) }
}
