/// What would settle a membership situation a sync reports (a device not admitted, a trip not
/// joined, a competing claim), with the facts a face needs to name its own command for it: the
/// library says what happened and what would fix it, in words; the CLI says which command does
/// that (`tripsync members approve 1a2b3c4d`), the browser app which button.
public enum MembershipRemedy: Hashable, Sendable, CustomStringConvertible {
    /// The trip's owner admits `device` (on the owner's laptop, which may not be this one).
    case ownerApproves(DeviceID)
    /// This laptop, the trip's owner, admits `device`'s join request or refuses it.
    case approveOrDecline(DeviceID)
    /// This laptop joins with an invite from the owner, syncing with `folder` (nil when the
    /// folder is not known where this was said).
    case joinWithInvite(folder: String?)
    /// The trip is claimed by someone else: its person claims it on their own laptop if it is
    /// theirs, or joins with the claimant's invite through `folder` (nil when not known there).
    case claimOrJoin(folder: String?)

    /// The device the remedy concerns, for `ownerApproves` and `approveOrDecline`.
    public var device: DeviceID? {
        switch self {
        case .ownerApproves(let device), .approveOrDecline(let device): return device
        case .joinWithInvite, .claimOrJoin: return nil
        }
    }

    /// The shared folder the remedy names, for `joinWithInvite` and `claimOrJoin` (when known).
    public var folder: String? {
        switch self {
        case .ownerApproves, .approveOrDecline: return nil
        case .joinWithInvite(let folder), .claimOrJoin(let folder): return folder
        }
    }

    /// A name for the remedy's kind, stable for reports (`ownerApproves`, `approveOrDecline`,
    /// `joinWithInvite`, `claimOrJoin`).
    public var kind: String {
        switch self {
        case .ownerApproves: return "ownerApproves"
        case .approveOrDecline: return "approveOrDecline"
        case .joinWithInvite: return "joinWithInvite"
        case .claimOrJoin: return "claimOrJoin"
        }
    }

    /// What would fix it, in words that name no command.
    public var description: String {
        switch self {
        case .ownerApproves: return "once the owner's sync has read this laptop's file, the owner can admit it"
        case .approveOrDecline(let device): return "this laptop, the owner, can approve device \(device.description.prefix(8)) or decline it"
        case .joinWithInvite: return "ask the owner for an invite and join the trip with it"
        case .claimOrJoin: return "if the trip is yours, claim it on your own laptop; if you trust the claimant, ask them for an invite and join with it"
        }
    }
}

extension MembershipRemedy {
    /// `what` happened, then what would fix it in words (`remedy`, when there is one): the
    /// library's whole message, for places that keep only text.
    package static func message(_ what: String, _ remedy: MembershipRemedy?) -> String {
        remedy.map { what + "; " + $0.description } ?? what
    }
}
