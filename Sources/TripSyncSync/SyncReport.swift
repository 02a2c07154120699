import TripSyncPlatform
import TripSyncCore

/// What one sync did, trip by trip.
public struct SyncReport: Sendable {
    /// A file that was not merged, and why.
    public struct Skipped: Hashable, Sendable {
        /// The file, as printed (control characters and invalid bytes escaped).
        public var file: String
        /// Why (temporary, invalid, newer schema, another trip, clock from the future, …),
        /// without the remedy.
        public var reason: String
        /// What would let the file in, when something would (the owner admitting its device):
        /// a face names its own command for it.
        public var remedy: MembershipRemedy? = nil

        /// The reason and then the remedy, in words that name no command.
        public var message: String { MembershipRemedy.message(reason, remedy) }
    }

    /// Something a person should know about a trip's sync (a device admitted, a join request
    /// waiting, this laptop not yet a member): what happened, and what would fix it when
    /// something would (`remedy`, with the facts a face needs to name its command).
    public struct Notice: Hashable, Sendable, CustomStringConvertible {
        /// What happened, in words that name no command.
        public var text: String
        /// What would fix it, when something would.
        public var remedy: MembershipRemedy?

        /// A notice saying `text`, fixed by `remedy` (nil: nothing to do).
        package init(_ text: String, remedy: MembershipRemedy? = nil) {
            self.text = text
            self.remedy = remedy
        }

        /// The text and then the remedy, in words that name no command.
        public var description: String { MembershipRemedy.message(text, remedy) }
    }

    /// Two states that disagree under one dot: a device wrote two values with one counter.
    package struct Fork: Hashable, Sendable {
        /// The forked device.
        package var device: DeviceID
        /// The file whose merge found it.
        package var file: String
        /// The JSON Pointers of the registers now holding both values.
        package var pointers: [String]
    }

    /// A fork of this installation that made it take a new device id.
    package struct Rekey: Hashable, Sendable {
        /// The id no longer written.
        package var old: DeviceID
        /// The id written from now on.
        package var new: DeviceID
        /// The evidence.
        package var reason: String
    }

    /// What happened to one trip.
    public struct Trip: Sendable {
        /// The trip.
        public var tripID: TripID
        /// Its name, when known.
        public var name: String?
        /// Why the trip could not be synced (read, merged or published), as an error value (its
        /// kind to switch on, its facts and message); nil when it was.
        public var failure: TripError?
        /// Our file for the trip, when it was published (written, or already up to date).
        public var published: String?
        /// Whether the published file's bytes changed in this sync.
        public var wrote = false
        /// Files merged into the replica.
        public var merged: [String] = []
        /// Files already merged earlier and unchanged since: not parsed again.
        public var unchanged: [String] = []
        /// Files skipped, with the reason.
        public var skipped: [Skipped] = []
        /// Whether this home joined the trip from the folder.
        public var joined = false
        /// Our own conflicted copies removed after their content was merged and ours published.
        public var removed: [String] = []
        /// Conflicts (`ConflictList` entries) that the merged files brought.
        public var newConflicts = 0
        /// What other devices changed in this home's replica, device by device
        /// (`SyncReport.changes(before:after:me:)`).
        public var changes: [DeviceChanges] = []
        /// What this device changed that no published file held before and ours now does: each
        /// item (or the trip's or a device's name) counted once, however many of its fields.
        public var sharedChanges = 0
        /// Forks of other devices found while merging (both values kept, so an app sees them as
        /// conflicts; the CLI and `--json` name the device and pointers).
        package var forks: [Fork] = []
        /// What membership decided that a person should know: devices admitted, join requests
        /// waiting for the owner, content of removed devices carried by another file, two
        /// competing claims, this laptop still waiting to be admitted, attachments staying
        /// staged.
        public var notices: [Notice] = []
        /// Whether this home's replica was saved in this sync (what was merged is kept here),
        /// even when publishing our file failed afterwards (then `failure` says so).
        public var savedLocally = false
        /// Set while this laptop has asked to join the trip and the owner has not admitted it:
        /// nothing of the trip is kept or published yet.
        public var waitingToJoin = false
    }

    /// Every trip looked at, in id order.
    public var trips: [Trip] = []
    /// Set when a fork of this installation was found and it took a new device id (an app
    /// meets it as the store's new `deviceID` and its `notices`).
    package var rekeyed: Rekey?
    /// Warnings that concern no single trip (the sync state could not be saved, say).
    public var warnings: [String] = []
    /// Trips whose last folder (`Home.lastFolder(for:)`, what a sync without a folder uses)
    /// could not be recorded after the sync, one message each; the sync itself stands. Not in
    /// the JSON report.
    public var lastFolderProblems: [String] = []

    /// An empty report.
    package init() {}

    /// Files published (ours, one per trip that was published).
    public var published: [String] { trips.compactMap(\.published) }
    /// Files merged into the local replicas.
    public var merged: [String] { trips.flatMap(\.merged) }
    /// Files already merged earlier and unchanged since.
    public var unchanged: [String] { trips.flatMap(\.unchanged) }
    /// Files skipped, with the reason.
    public var skipped: [Skipped] { trips.flatMap(\.skipped) }
    /// Trips that this home joined from the folder.
    public var joined: [TripID] { trips.filter(\.joined).map(\.tripID) }
    /// Our own conflicted copies removed.
    public var removed: [String] { trips.flatMap(\.removed) }
    /// Trips that could not be synced.
    public var failed: [Trip] { trips.filter { $0.failure != nil } }
    /// Whether the sync changed anything here or in the folder, or failed somewhere.
    public var didSomething: Bool {
        rekeyed != nil || trips.contains { $0.wrote || !$0.merged.isEmpty || $0.joined || !$0.removed.isEmpty || $0.failure != nil }
    }
}
