/// What every error of the TripSync library shares: a code a caller can switch on, the facts a
/// face needs to word it (the file, JSON Pointer, item, device, what was expected), and a
/// message that says what happened and what would fix it, in words. The library never names a
/// command of a face (the CLI, the browser app): a face adds its own way to do the fix, from the
/// code and the facts.
///
/// The protocol is `package`: a public call throws every one of them as the one `TripError`
/// (`TripError(wrapping:)`), which keeps the kind, facts and message.
package protocol TripSyncError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, shared across the library's error types.
    var errorKind: TripSyncErrorKind { get }
    /// The facts a face words the error with.
    var facts: ErrorFacts { get }
    /// What happened, in words (`description` adds what would fix it, and the path where the
    /// message leaves it out).
    var message: String { get }
    /// Each problem of a refused file, as `TripError.problems` lists them (none by default).
    var problems: [TripError] { get }
}

/// A kind of failure, for a caller to switch on (`case .notOwner:`). New codes may be added, so
/// a switch needs a `default`.
public struct TripSyncErrorKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's name.
    public var rawValue: String
    /// A code named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// A file or folder could not be read or written.
    public static let fileSystem = Self(rawValue: "fileSystem")
    /// A trip file was refused (unreadable, corrupt, invalid, newer schema); `facts.file`.
    public static let invalidFile = Self(rawValue: "invalidFile")
    /// A value was refused (a blank title, an unknown zone, an end before its start).
    public static let invalidValue = Self(rawValue: "invalidValue")
    /// The home holds no trip yet.
    public static let noTrips = Self(rawValue: "noTrips")
    /// No trip, item, attachment or member has that name or id; `facts` says which.
    public static let notFound = Self(rawValue: "notFound")
    /// Several trips, items, attachments or members fit; more of the id picks one.
    public static let ambiguous = Self(rawValue: "ambiguous")
    /// Two trips of the home share the name given; `facts.expected` is "an id".
    public static let sameName = Self(rawValue: "sameName")
    /// The trip's replica in this home cannot be read; `facts.file`.
    public static let unreadableReplica = Self(rawValue: "unreadableReplica")
    /// The item is deleted; restoring it first would help (`facts.item`).
    public static let itemDeleted = Self(rawValue: "itemDeleted")
    /// The order only settles items of the same time: change the time instead (`facts.item`).
    public static let orderNeedsTime = Self(rawValue: "orderNeedsTime")
    /// This device may not write to the trip (a viewer, removed, not yet admitted).
    public static let notAllowed = Self(rawValue: "notAllowed")
    /// The trip is open (no owner yet): claiming it comes first.
    public static let openTrip = Self(rawValue: "openTrip")
    /// This laptop does not hold the trip's owner key: importing it (from the owner's export)
    /// would help.
    public static let notOwner = Self(rawValue: "notOwner")
    /// This laptop is the only owner: exporting the owner key to another laptop comes first.
    public static let lastOwner = Self(rawValue: "lastOwner")
    /// The text is not an invite code; the owner makes one.
    public static let badInvite = Self(rawValue: "badInvite")
    /// The invite code expired; a new one from the owner would help.
    public static let expiredInvite = Self(rawValue: "expiredInvite")
    /// The key file is not an exported owner key.
    public static let badKeyFile = Self(rawValue: "badKeyFile")
    /// Another process holds the home's lock.
    public static let busy = Self(rawValue: "busy")
    /// A sync ran, but some trips could not be synced (each named in its report).
    public static let syncFailed = Self(rawValue: "syncFailed")
    /// A trip file is sealed for the trip's members (an owned trip's file, end-to-end
    /// encrypted) and this home holds no key that opens it; `facts.file`.
    public static let sealedFile = Self(rawValue: "sealedFile")
    /// The operation was refused for another reason the message gives.
    public static let refused = Self(rawValue: "refused")
}

/// The facts of an error, each nil when it does not apply.
public struct ErrorFacts: Hashable, Sendable {
    /// The file involved (a trip file, a replica, a key file).
    public var file: String?
    /// Where in the file (a JSON Pointer).
    public var pointer: String?
    /// The item, attachment or member as it was named (an id, id prefix or name).
    public var item: String?
    /// What kind of thing `item` names: "item", "attachment", "member", "pending device", "trip".
    public var thing: String?
    /// The device involved.
    public var device: String?
    /// The trip involved.
    public var trip: String?
    /// What was expected instead.
    public var expected: String?

    /// Facts with the given values.
    public init(
        file: String? = nil, pointer: String? = nil, item: String? = nil, thing: String? = nil, device: String? = nil, trip: String? = nil,
        expected: String? = nil
    ) {
        self.file = file
        self.pointer = pointer
        self.item = item
        self.thing = thing
        self.device = device
        self.trip = trip
        self.expected = expected
    }
}

extension TripSyncError {
    /// No facts beyond the message.
    package var facts: ErrorFacts { ErrorFacts() }
    /// The description.
    package var message: String { description }
    /// No problems listed.
    package var problems: [TripError] { [] }
}
