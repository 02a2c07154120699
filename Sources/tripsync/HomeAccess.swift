import Foundation
import TripSync
import TripSyncCore
import TripSyncHome

/// Opens this installation's home for commands.
enum HomeAccess {
    static func home(_ global: GlobalOptions) -> Home {
        Home.resolve(option: global.home)
    }

    /// The identity of a home that must exist already (read-only commands): a missing home
    /// is refused, naming it, and nothing is created (a mistyped `--home` makes no new laptop).
    static func existingIdentity(_ global: GlobalOptions) throws -> DeviceIdentity {
        try requireExisting(global)
        return try identity(global)
    }

    /// Refuses a home that has not been made (no `device.json`), saying how to make one.
    static func requireExisting(_ global: GlobalOptions) throws {
        let home = home(global)
        if try home.checkExists() { return }
        throw CLIError.refused(
            "\(home.path): no TripSync home here (no device.json), and this command creates none; "
                + "check --home or $TRIPSYNC_HOME, or make one with 'tripsync init --home \(home.path)'")
    }

    /// The identity, made on first use (commands that write).
    static func identity(_ global: GlobalOptions) throws -> DeviceIdentity {
        let home = home(global)
        let (identity, notice) = try Failure.during(.openingHome(home.path)) { try home.openIdentity() }
        if let notice { Console.warning(notice) }
        return identity
    }

    /// The home's trips: the readable replicas and the files that are not (each told by
    /// `warn` or refused by `refusal`, never dropped in silence).
    static func listing(_ home: Home) throws -> HomeTrips {
        try home.listTrips()
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
        Failure.unreadable(unreadable)
    }
}
