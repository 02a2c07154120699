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
            let (identity, notice) = try home.openIdentity()
            if let notice { Console.warning(notice) }
            return identity
        } catch let error as TripFileError {
            throw CLIError.file(error)
        } catch {
            throw CLIError.refused("\(home.path): cannot open this installation's home: \(error)")
        }
    }

    /// The home's trips: the readable replicas and the files that are not (each told by
    /// `warn` or refused by `refusal`, never dropped in silence).
    static func listing(_ home: Home) throws -> HomeTrips {
        do {
            return try home.listTrips()
        } catch {
            throw CLIError.refused("\(error)")
        }
    }

    /// Tells that a trip file of the home is skipped: its first problem, how many more.
    static func warn(_ unreadable: HomeTrips.Unreadable) {
        let lines = unreadable.lines
        let first = lines.first ?? "\(unreadable.path): refused"
        let more = lines.count > 1 ? " (and \(plural(lines.count - 1, "more problem")): tripsync validate \(unreadable.path))" : ""
        Console.warning(first + more + " (this trip is skipped; the others are not affected)")
    }

    /// Warns about every unreadable file of the listing except `except`.
    static func warnAll(_ listing: HomeTrips, except: HomeTrips.Unreadable? = nil) {
        for unreadable in listing.unreadable where unreadable.path != except?.path { warn(unreadable) }
    }

    /// Refuses a command meant for the trip of an unreadable file: the file's error, then how
    /// to recover. Nothing was changed.
    static func refusal(_ unreadable: HomeTrips.Unreadable) -> CLIError {
        .refused(
            unreadable.lines + [
                "\(unreadable.path): this trip's replica cannot be read, so nothing was changed; "
                    + "move the file out of the home, then bring the trip back from a backup ('tripsync import FILE') or a shared folder ('tripsync sync FOLDER')"
            ])
    }

    /// The trip chosen by `--trip` (id, id prefix or exact name), or the only one. A trip file
    /// that cannot be read counts as a trip of the home: naming it (by id or id prefix), or
    /// leaving `--trip` out when it could be the one meant, is refused with its error; every
    /// other unreadable file is warned about and skipped.
    static func trip(_ global: GlobalOptions, selector: String?) throws -> LoadedTrip {
        let home = home(global)
        let listing = try listing(home)
        let trips = listing.trips
        func chosen(_ trip: LoadedTrip) -> LoadedTrip {
            warnAll(listing)
            return trip
        }
        func refuse(_ unreadable: HomeTrips.Unreadable) -> CLIError {
            warnAll(listing, except: unreadable)
            return refusal(unreadable)
        }
        guard let selector else {
            let count = trips.count + listing.unreadable.count
            if count == 1, let trip = trips.first { return chosen(trip) }
            if count == 1, let broken = listing.unreadable.first { throw refuse(broken) }
            warnAll(listing)
            if count == 0 { throw CLIError.refused("\(home.path): this home holds no trip yet; create one with 'tripsync new NAME'") }
            let broken = listing.unreadable.isEmpty ? "" : " (\(listing.unreadable.count) of them unreadable)"
            throw CLIError.usage("this home holds \(count) trips\(broken); pick one with --trip", command: nil)
        }
        func names(_ id: TripID) -> Bool {
            id.description == selector || (selector.count >= 4 && id.description.hasPrefix(selector))
        }
        if let exact = trips.first(where: { $0.document.tripID.description == selector }) { return chosen(exact) }
        if let exact = listing.unreadable.first(where: { $0.tripID?.description == selector }) { throw refuse(exact) }
        let readable = trips.filter { names($0.document.tripID) || $0.document.trip.name.value == selector }
        let broken = listing.unreadable.filter { $0.tripID.map(names) ?? false }
        if readable.count + broken.count == 1 {
            if let trip = readable.first { return chosen(trip) }
            if let file = broken.first { throw refuse(file) }
        }
        warnAll(listing)
        if trips.isEmpty && listing.unreadable.isEmpty {
            throw CLIError.refused("\(home.path): this home holds no trip yet; create one with 'tripsync new NAME'")
        }
        if readable.isEmpty && broken.isEmpty { throw CLIError.usage("no trip matches '\(selector)'", command: nil) }
        throw CLIError.usage("'\(selector)' matches \(readable.count + broken.count) trips; give more of the id", command: nil)
    }

    /// The trip's default zone (`new --zone`): nil when none is set; a settings file that cannot
    /// be read or is broken is warned about and taken as no setting.
    static func defaultZone(_ home: Home, for trip: TripID) -> String? {
        do {
            return try home.defaultZone(for: trip)
        } catch {
            Console.warning("\(error) (the trip's default zone is not used)")
            return nil
        }
    }
}
