import Foundation
import TripSync

/// Opens this installation's home for commands.
enum HomeAccess {
    static func home(_ global: GlobalOptions) -> Home {
        Home.resolve(option: global.home)
    }

    static func identity(_ global: GlobalOptions) throws -> DeviceIdentity {
        let home = home(global)
        do {
            return try home.identity()
        } catch let error as TripFileError {
            throw CLIError.file(error)
        } catch {
            throw CLIError.refused("\(home.path): cannot open this installation's home: \(error)")
        }
    }

    /// The trip chosen by `--trip` (id, id prefix or exact name), or the only one.
    static func trip(_ global: GlobalOptions, selector: String?) throws -> LoadedTrip {
        let home = home(global)
        let trips: [LoadedTrip]
        do {
            trips = try home.trips()
        } catch let error as TripFileError {
            throw CLIError.file(error)
        }
        let chosen: [LoadedTrip]
        if let selector {
            chosen = trips.filter {
                $0.document.tripID.description == selector || $0.document.trip.name.value == selector
                    || (selector.count >= 4 && $0.document.tripID.description.hasPrefix(selector))
            }
        } else {
            chosen = trips
        }
        guard chosen.count == 1, let trip = chosen.first else {
            if trips.isEmpty { throw CLIError.refused("\(home.path): this home holds no trip yet; create one with 'tripsync new NAME'") }
            if chosen.isEmpty { throw CLIError.usage("no trip matches '\(selector ?? "")'", command: nil) }
            throw CLIError.usage("this home holds \(chosen.count) trips; pick one with --trip", command: nil)
        }
        return trip
    }
}
