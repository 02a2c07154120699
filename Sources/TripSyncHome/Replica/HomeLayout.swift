import TripSyncCore

/// Every path inside a home, in one place: what each file and folder of `~/.tripsync` is
/// called. Everything that reads or writes in a home asks this type for the path
/// (docs/DESIGN.md, "One home layout").
///
/// ```
/// device.json            this installation's identity      device.key   its signing key (0600)
/// device.issued          counters issued since device.json was written (IssuedLedger)
/// lock                   the home's lock                   sync-state.json  what sync last saw
/// trips/<tripId>.trip.json.gz   a replica                  trips/<tripId>.settings.json  local settings
/// trips/<tripId>.journal  its edit journal
/// trips/backups/         replicas replaced by an import    access/<tripId>.json  invites, keys, requests
/// staged/<tripId>.json   attachments not yet shared        blobs/ (partial/, quarantine/, sealed/)  attachment bytes
/// ```
package struct HomeLayout: Hashable, Sendable {
    /// The home's folder.
    package var root: String

    /// The layout of the home at `root`.
    package init(root: String) {
        self.root = root
    }

    /// `device.json`: the device id and name.
    package var identity: String { root + "/device.json" }
    /// `device.issued`: the counters issued since `device.json` was written (`IssuedLedger`).
    package var issuedLedger: String { root + "/device.issued" }
    /// `device.key`: this installation's signing key (mode 0600).
    package var deviceKey: String { root + "/device.key" }
    /// `lock`: the home's lock file.
    package var lock: String { root + "/lock" }
    /// `sync-state.json`: what the last sync saw of each folder.
    package var syncState: String { root + "/sync-state.json" }

    /// `open/`: what `tripsync open` keeps (mode 0700): the home's host name, the running
    /// server's control socket and its one-time sign-in pages.
    package var open: String { root + "/open" }
    /// `open/host`: the random label of this home's host name under `.localhost` (mode 0600).
    package var openHost: String { open + "/host" }
    /// `open/control.sock`: the running server's socket, which hands a second `open` a sign-in.
    package var openControl: String { open + "/control.sock" }

    /// `trips/`: the replicas and their local settings.
    package var trips: String { root + "/trips" }
    /// A trip's replica: `trips/<tripId>.trip.json.gz`.
    package func replica(_ trip: TripID) -> String { trips + "/\(trip)" + Home.tripFileSuffix }
    /// A trip's edit journal beside its replica: `trips/<tripId>.journal`.
    package func journal(_ trip: TripID) -> String { trips + "/\(trip)" + HomeLayout.journalSuffix }
    /// The suffix of an edit journal (beside a replica of the same name): the journal's own.
    package static let journalSuffix = EditJournal.fileSuffix
    /// A trip's replica view beside its replica (a cache, `ReplicaView`): `trips/<tripId>.view`.
    package func view(_ trip: TripID) -> String { trips + "/\(trip)" + HomeLayout.viewSuffix }
    /// The suffix of a replica view.
    package static let viewSuffix = ".view"
    /// A file of the trips folder by its name.
    package func tripsFile(_ name: String) -> String { trips + "/" + name }
    /// A trip's local settings (never replicated): `trips/<tripId>.settings.json`.
    package func settings(_ trip: TripID) -> String { trips + "/\(trip)" + HomeLayout.settingsSuffix }
    /// The suffix of a settings file.
    package static let settingsSuffix = ".settings.json"
    /// `trips/backups/`: replicas replaced by an import.
    package var backups: String { trips + "/backups" }
    /// A backup of `trip` taken at `stamp` (`-attempt` from the second of one second on).
    package func backup(_ trip: TripID, stamp: String, attempt: Int) -> String {
        backups + "/\(trip)-\(stamp)" + (attempt > 1 ? "-\(attempt)" : "") + Home.tripFileSuffix
    }

    /// `access/`: each trip's invites, owner key, requests and join record.
    package var access: String { root + "/access" }
    /// A trip's access record: `access/<tripId>.json`.
    package func access(_ trip: TripID) -> String { access + "/\(trip).json" }

    /// `staged/`: attachments added here and not yet shared.
    package var staged: String { root + "/staged" }
    /// A trip's staged attachments: `staged/<tripId>.json`.
    package func staged(_ trip: TripID) -> String { staged + "/\(trip).json" }

    /// `blobs/`: attachment bytes by SHA-256 (`partial/` while arriving, `quarantine/` when they
    /// did not match).
    package var blobs: String { root + "/blobs" }
    /// `blobs/quarantine`.
    package var quarantine: String { blobs + "/" + HomeLayout.quarantineName }
    /// The folder of `blobs/` holding bytes still arriving.
    package static let partialName = "partial"
    /// The folder of `blobs/` holding bytes that did not match their SHA-256.
    package static let quarantineName = "quarantine"
    /// The folder of `blobs/` holding the sealed copies of owned trips' blobs, by the SHA-256
    /// of the sealed bytes (kept apart from the plain ones, so a sealed name never finds plain
    /// bytes).
    package static let sealedName = "sealed"

    /// The folders `FileIO.writeAtomically` writes into, whose crash leftovers the lock's
    /// holder removes.
    package var writtenFolders: [String] { [root, trips, backups, access, staged] }

    /// Names at the top of the home a folder watcher ignores (they change on every command).
    package static let unwatchedNames: Set<String> = ["sync-state.json", "lock"]
}

extension Home {
    /// The paths of this home.
    package var layout: HomeLayout { HomeLayout(root: path) }
}
