import TripSyncPlatform
import TripSyncCore
import TripSyncHome

/// What a round's scan of one trip folder found (`TripRound.scan`, stage 1), handed as a value
/// to the stages that use it: admission (which may read again the files membership skipped),
/// the merge, the owner's join requests, the keyring and publishing (docs/DESIGN.md, "The sync
/// round as a pipeline of values").
struct FolderScan {
    /// The readable trip files, each read once, candidates for admission.
    var candidates: [FolderSync.Candidate] = []
    /// The join requests read (owner laptops only).
    var joinRequests: [(path: String, request: JoinRequest)] = []
    /// Join requests not read again (settled here, their files unchanged), for the summary.
    var quietRequests = 0
    /// What the folder's keyrings held (`TripRound.openKeyrings`, read before the trip files).
    var keyrings = KeyringScan()
    /// The members' box announcements listed (`BoxAnnouncement`, read by an owner laptop's
    /// `settleKeyring`).
    var boxFiles: [EntryName] = []
    /// Our files under an earlier id from a clock far ahead: removed once their content is published.
    var ownFromTheFuture: [(name: EntryName, digest: [UInt8])] = []
    /// Our own temporaries left by an interrupted write: removed after publishing.
    var ownStaleTemps: [EntryName] = []
    /// The least lead over this clock of the files skipped as from the future (nil: none).
    var aheadOfUs: UInt64?
    /// The file we published under the id we wrote as when this trip's sync began, when the
    /// scan passed it over as unchanged (the merge records it when it reads it).
    var formerOwn: (name: EntryName, digest: [UInt8], id: DeviceID)?
    /// Paths of the trip files listed.
    var listed: Set<String> = []
    /// The digest of the replica's membership when the scan began: a skip decided by membership
    /// is reused only while it is unchanged (`SyncState.Skip`).
    var skipContext = ""
    /// Files skipped by membership at an earlier sync and not read again: read after all when
    /// this sync's membership turns out to differ (`TripRound.admit`).
    var skippedByMembership: [(name: EntryName, kind: FolderSync.FileKind, stamp: FileStamp)] = []
    /// Sealed trip files whose epoch key this laptop does not hold (read again next time).
    var sealedUnread = 0
    /// Our published file as the scan read it: publishing compares against its digest.
    var ownFile: (name: EntryName, digest: [UInt8], stamp: FileStamp)?
}
