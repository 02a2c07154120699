import TripSyncCore

extension HomeTrips {
    /// One trip a selector could mean: its id and, when its replica reads, its name.
    package struct Candidate: Sendable, Hashable {
        /// The trip's id.
        package var id: TripID
        /// The trip's name; nil for a replica that cannot be read.
        package var name: String?
    }

    /// Whether `selector` names `id`: the whole id, or a prefix of at least 4 characters.
    package static func names(_ id: TripID, _ selector: String) -> Bool {
        id.description == selector || (selector.count >= 4 && id.description.hasPrefix(selector))
    }

    /// Whether `selector` is the start of `name`, in any case (a trip named by the start of its name).
    package static func startsName(_ name: String, _ selector: String) -> Bool {
        !selector.isEmpty && name.lowercased().hasPrefix(selector.lowercased())
    }

    /// The trips `selector` could mean, by id: those it names by id, id prefix or exact name,
    /// else those whose name it starts (nil: every trip of the home). What `choose` answers `.ambiguous` with, for a person to pick.
    package func candidates(_ selector: String?) -> [Candidate] {
        let readable = trips.filter { trip in
            selector.map { HomeTrips.names(trip.document.tripID, $0) || trip.document.trip.name.value == $0 } ?? true
        }
        let broken = unreadable.filter { file in file.tripID.map { id in selector.map { HomeTrips.names(id, $0) } ?? true } ?? (selector == nil) }
        if let selector, readable.isEmpty, broken.isEmpty {
            let started = trips.filter { HomeTrips.startsName($0.document.trip.name.value, selector) }
            return started.map { Candidate(id: $0.document.tripID, name: $0.document.trip.name.value) }.sorted { $0.id < $1.id }
        }
        let found = readable.map { Candidate(id: $0.document.tripID, name: $0.document.trip.name.value) } + broken.compactMap { file in file.tripID.map { Candidate(id: $0, name: nil) } }
        return found.sorted { $0.id < $1.id }
    }
}
