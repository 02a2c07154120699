import TripSyncCore

/// The CLI's words for what would fix a membership situation a sync reports: the library says
/// what happened and what would fix it (`MembershipRemedy`, with its facts); this names the
/// command that does it ("the owner can admit it: tripsync members approve 1a2b3c4d").
enum RemedyText {
    /// `what` happened, then `remedy` as the command that does it (nothing more without one).
    static func line(_ what: String, _ remedy: MembershipRemedy?) -> String {
        remedy.map { what + "; " + words($0) } ?? what
    }

    /// The command that does `remedy`, in a clause.
    static func words(_ remedy: MembershipRemedy) -> String {
        switch remedy {
        case .ownerApproves(let device):
            return "once the owner's sync has read this laptop's file, the owner can admit it: tripsync members approve \(device.description.prefix(8))"
        case .approveOrDecline(let device):
            let short = device.description.prefix(8)
            return "tripsync members approve \(short) admits it, tripsync members decline \(short) refuses it"
        case .joinWithInvite(let folder):
            return "ask the owner for an invite (tripsync invite) and run tripsync join CODE \(shown(folder))"
        case .claimOrJoin(let folder):
            return "if the trip is yours, run tripsync members claim on your own laptop; if you trust the claimant, ask them for an invite and run tripsync join CODE \(shown(folder))"
        }
    }

    /// A folder as a shell word, or `FOLDER` when the remedy does not know it.
    private static func shown(_ folder: String?) -> String {
        folder.map(CommandHint.shellWord) ?? "FOLDER"
    }
}
