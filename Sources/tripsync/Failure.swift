import TripSync
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// The one place a failure becomes what a person reads and an exit status: a `CLIError` as it
/// is, a library error (`TripSyncError`) worded from its kind and facts, with the command that
/// does the fix where the library only says what would fix it, anything else through
/// `ErrorText`. `runTool` calls it for whatever a command throws; a command that adds its own
/// context (the path it was saving) runs that step in `during(_:_:)`, which words it here too.
enum Failure {
    /// `error` as an exit: usage (2) or refused (1), with its lines.
    static func cliError(_ error: any Error, home: Home? = nil) -> CLIError {
        // A public call throws a `TripError`; the CLI words the library error it was made from.
        switch TripError.cause(of: error) {
        case let error as CLIError: return error
        case let error as TripFileError: return .file(error)
        case let error as TripStoreError: return tripStore(error, home: home)
        case let error as any TripSyncError where error.facts.thing == "last folder": return lastFolder(error)
        case let error as EditError where error.kind == .shortItemPrefix: return .usage(error.description, command: nil)
        // A file system error names a path from outside, which may hold a newline: one line,
        // escaped. The library's other messages may hold hint lines, printed as such.
        case let error as FileSystemError: return .refused(PrintableText.line(ErrorText.describe(error)))
        case let error as any TripSyncError: return .refused(text(error))
        default: return .refused(PrintableText.line(ErrorText.describe(error)))
        }
    }

    /// The CLI's words for a library error: the library's message with the command that does
    /// what its remedy says, where there is one; else the library's own description.
    static func text(_ error: any TripSyncError) -> String {
        let facts = error.facts
        let named = facts.item ?? ""
        switch error.errorKind {
        case .notFound where facts.thing == "item": return "no item matches '\(named)'; 'tripsync show' lists the items with their ids"
        case .notFound where facts.thing == "attachment": return "no attachment '\(named)' (tripsync attachments lists them)"
        case .notFound where facts.thing == "member" || facts.thing == "pending device":
            return "no \(facts.thing ?? "member") matches '\(named)' (tripsync members lists them)"
        case .itemDeleted: return "item '\(named)' is deleted; 'tripsync restore \(named)' brings it back"
        case .orderNeedsTime: return error.message + "; to move it, change its time (tripsync edit ITEM --day DAY --at HH:MM); nothing was changed"
        case .notAllowed: return error.message + " (the owner can change roles: tripsync members set DEVICE --role editor)"
        case .openTrip: return error.message + ": run tripsync members claim first"
        case .notOwner:
            return error.message + ". To bring the key to this laptop: tripsync owner import FILE (which the owner's laptop writes with tripsync owner export)"
        case .lastOwner: return error.message + "; give another laptop of yours the owner key first (tripsync owner export / owner import)"
        case .expiredInvite: return error.message + "; ask the owner for a new one (tripsync invite)"
        case .badInvite: return error.message + " (ask the owner to run tripsync invite)"
        case .badKeyFile: return error.message + " (made by tripsync owner export)"
        case .unreadableReplica where error is InviteError: return error.message + " (tripsync trips names the problem)"
        default: return error.description
        }
    }

    /// The lines of an unreadable replica's refusal: the file's errors, then how to recover.
    static func unreadable(_ file: HomeTrips.Unreadable) -> CLIError {
        .refused(
            file.lines + [
                "\(file.path): this trip's replica cannot be read, so nothing was changed; "
                    + "move the file out of the home, then bring the trip back from a backup ('tripsync import FILE') or a shared folder ('tripsync sync FOLDER')"
            ])
    }

    /// A trip that cannot be opened: naming the trip wrongly is a usage error (exit 2); the
    /// candidates of an ambiguous name are listed, as git lists those of a short sha.
    static func tripStore(_ error: TripStoreError, home: Home?) -> CLIError {
        switch error {
        case .noMatch: return .usage(error.description, command: nil)
        case .sameName(let name, let trips):
            // The full ids: two trips of one name may share any prefix.
            let lines = trips.map { "hint:   \($0.id)  \(name)  (\($0.items) item\($0.items == 1 ? "" : "s"))" }
            return .usage(
                (["\(trips.count) trips of this home are named '\(name)'; pick one with --trip ID (and 'tripsync rename' one of them)", "hint: the candidates are:"] + lines)
                    .joined(separator: "\n"), command: nil)
        case .ambiguous(let selector, let count, let unreadable):
            let message =
                selector.map { "'\($0)' matches \(count) trips; give more of the id or the name" }
                ?? "this home holds \(count) trips\(unreadable == 0 ? "" : " (\(unreadable) of them unreadable)"); pick one with --trip"
            let candidates: [HomeTrips.Candidate]
            do {
                guard let home else { return .usage(message, command: nil) }
                candidates = try home.listTrips().candidates(selector)
            } catch {
                return .usage(message, command: nil)
            }
            let lines = candidates.map { "hint:   \($0.id)  \($0.name ?? "(unreadable replica)")" }
            return .usage(([message, "hint: the candidates are:"] + lines).joined(separator: "\n"), command: nil)
        case .unreadable(let file): return unreadable(file)
        case .noTrips(let path):
            let none = "\(path): this home holds no trip yet; create one with 'tripsync new NAME'"
            // A laptop that asked to join has no trip until the owner admits it: say that instead.
            guard let home else { return .refused(none) }
            let joins: [(trip: TripID, role: MemberRole, folder: String)]
            do {
                joins = try home.pendingJoins()
            } catch let unreadable {
                return .refused([none, "\(home.layout.access): cannot read this home's join records (\(unreadable))"])
            }
            guard !joins.isEmpty else { return .refused(none) }
            return .refused(
                joins.map {
                    "\(home.path): no trip here yet: this laptop asked to join trip \($0.trip) as \($0.role.rawValue) and waits for the owner to admit it; then run tripsync sync \($0.folder)"
                })
        case .busy: return .refused(error.description)
        }
    }

    /// No folder given to `sync` and none recorded, or several (usage, exit 2), or the records
    /// unreadable (the door's `syncFolder`, by kind).
    static func lastFolder(_ error: any TripSyncError) -> CLIError {
        switch error.errorKind {
        case .notFound: return .usage("sync needs a FOLDER: this home has not synced with one yet (after that, 'tripsync sync' uses the last one)", command: "sync")
        case .ambiguous: return .usage("sync needs a FOLDER: \(error.message)", command: "sync")
        default: return .refused("\(error.message) (give the FOLDER to sync with)")
        }
    }

    /// Why a sync could not run, naming the folder first.
    static func syncCouldNotRun(_ text: String, folder: String) -> String {
        text.hasPrefix(folder + ":") ? text : "\(folder): \(text)"
    }

    /// A sync that ran with some trips not synced (named in the report printed before): exit 1.
    static func tripsNotSynced(_ report: SyncReport) -> CLIError {
        .refused(tripsNotSyncedText(report))
    }

    /// How many trips of `report` could not be synced, in words.
    private static func tripsNotSyncedText(_ report: SyncReport) -> String {
        "\(plural(report.failed.count, "trip")) of \(report.trips.count) could not be synced (named above); the others were"
    }

    /// A failed round of `sync --watch`, by its kind: some trips not synced (counted from the
    /// round's report), or why the sync could not run, naming the folder first.
    static func watchRound(_ failure: TripError, folder: String, report: SyncReport?) -> String {
        if failure.errorKind == .syncFailed, let report, !report.failed.isEmpty { return tripsNotSyncedText(report) }
        return syncCouldNotRun(failure.message, folder: folder)
    }

    /// What a command was doing when an error stopped it: the context its message names.
    enum Doing {
        /// Saving to `path`: a file system error says so and what became of the change; the
        /// library's other errors are worded as themselves.
        case saving(String)
        /// Writing the file at `path`.
        case writing(String)
        /// Writing the secret file at `path`, of which nothing is left behind.
        case exporting(String)
        /// Reading `path`, which holds `what` (nil: a file given on the command line).
        case reading(String, what: String?)
        /// Creating the folder `path`, which is `what`.
        case creating(String, what: String)
        /// Forgetting the trip whose replica is `path`.
        case forgetting(String)
        /// Opening this installation's home at `path` (its identity).
        case openingHome(String)
        /// Syncing with `folder`.
        case syncing(folder: String)
        /// Importing `file` into the trip whose replica is `replica`.
        case importing(file: String, replica: String)
        /// Merging trip files into `output`.
        case merging(output: String)
        /// Changing attachments: what a failure left unchanged is `nothing`.
        case changingAttachments(nothing: String)
        /// Checking a command's input: a refusal is a usage error of `command`, with `hint`.
        case checkingInput(hint: String, command: String)
    }

    /// Runs `body`; an error it throws becomes the exit `doing` words (`cliError(_:doing:home:)`).
    static func during<T>(_ doing: Doing, home: Home? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw cliError(error, doing: doing, home: home)
        }
    }

    /// `error`, met while `doing`, as an exit: a `CLIError` as it is, else a line naming what
    /// was being done.
    static func cliError(_ error: any Error, doing: Doing, home: Home? = nil) -> CLIError {
        let error = TripError.cause(of: error)
        if let error = error as? CLIError { return error }
        let said = PrintableText.line(ErrorText.describe(error))
        switch doing {
        case .saving(let path):
            if let error = error as? FileSystemError { return .refused("\(path): cannot save: \(said); \(error.outcome)") }
            if error is any TripSyncError { return cliError(error, home: home) }
            return .refused("\(path): cannot save: \(said); nothing was changed")
        case .writing(let path):
            return .refused("\(path): cannot write: \(said)")
        case .exporting(let path):
            return .refused("\(path): cannot write (\(said)); nothing was written")
        case .reading(let path, let what):
            return .refused("\(path): cannot read\(what.map { " " + $0 } ?? "") (\(said))")
        case .creating(let path, let what):
            return .refused("\(path): cannot create \(what) (\(said))")
        case .forgetting(let path):
            return .refused("\(path): cannot forget the trip: \(said); the trip is still in this home")
        case .openingHome(let path):
            if let error = error as? TripFileError { return .file(error) }
            return .refused("\(path): cannot open this installation's home: \(said)")
        case .syncing(let folder):
            return .refused(syncCouldNotRun(said, folder: folder))
        case .importing(let file, let replica):
            switch error {
            case is EditError, is TripStoreError, is TripImport.Refusal: return cliError(error, home: home)
            case let error as TripError where error.errorKind == .refused: return .refused("\(file): \(error)")
            default: return cliError(error, doing: .saving(replica), home: home)
            }
        case .merging(let output):
            if let error = error as? TripError, error.errorKind == .invalidFile { return .refused(error.message.split(separator: "\n").map(String.init)) }
            return cliError(error, doing: .writing(output))
        case .changingAttachments(let nothing):
            switch error {
            case is EditError, is AttachmentError: return cliError(error, home: home)
            // An attachment's bytes that could not be stored or read (the door's `TripError`; a
            // file system failure comes as the `FileSystemError` below).
            case let error as TripError where error.errorKind == .fileSystem: return .refused("\(error); \(nothing)")
            case let error as FileSystemError: return .refused("\(error); \(error.inPlace ? error.outcome : nothing)")
            default: return cliError(error, home: home)
            }
        case .checkingInput(let hint, let command):
            guard let error = error as? any TripSyncError else { return cliError(error, home: home) }
            return .usage(error.message + " (\(hint))", command: command)
        }
    }
}
