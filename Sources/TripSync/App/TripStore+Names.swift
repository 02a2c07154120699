import Foundation
import TripSyncCore
import TripSyncHome

extension TripStore {
    /// Renames the trip (`TripEditor.rename`: one register write, merged like any field) and
    /// returns whether anything was written. Trip names are unique in a home: a name another
    /// trip of this home has is refused with a `TripError` (`.refused`), naming that trip.
    @discardableResult
    public func rename(to name: String) throws -> Bool {
        try TripError.door {
            try TripStore.checkNameIsFree(name, in: home, except: tripID)
            return try edit { try $0.rename(to: name) }
        }
    }

    /// Refuses `name` when a readable trip of `home` other than `except` is named so (a trip
    /// name picks a trip in `--trip`, so two trips of one home never share one by our doing).
    static func checkNameIsFree(_ name: String, in home: Home, except: TripID?) throws {
        let listing = try home.listTrips()
        if let other = listing.trips.first(where: { $0.document.tripID != except && $0.document.trip.name.value == name }) {
            throw EditError(
                .itemExists,
                "name: another trip of this home is named \"\(name)\" (\(other.document.tripID.description.prefix(8))); trip names are unique in a home, choose another")
        }
    }
}
