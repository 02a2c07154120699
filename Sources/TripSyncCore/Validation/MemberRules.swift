/// The schema 3 rules of owner and members that need the whole document (docs/FORMAT.md,
/// "Schema 3"): the owner's claim, each grant's owner signature, grant dots and `seen`
/// against the clock, no members in an open trip.
enum MemberRules {
    /// Every error of `document`'s owner and members, with its pointer.
    static func issues(in document: TripDocument) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        // A trip id derived from an owner key names its owner: a file naming another owner is
        // not that trip's. (A copy naming none, an older or stripped one, is a valid open file;
        // no entrance merges it into the owned trip: `Membership.verdict`.)
        let derived = TripOwner.isDerivedKind(document.tripID)
        guard let owner = document.owner else {
            if !document.members.isEmpty {
                issues.append(
                    ValidationIssue(.error, pointer: "/members", message: "an open trip (owner null) has members, expected none until the trip is claimed"))
            }
            return issues
        }
        if !owner.isValid(for: document.tripID) {
            issues.append(ValidationIssue(.error, pointer: "/owner/claim", message: "the owner's claim does not verify with the owner key for this trip id"))
        }
        if derived, !owner.derives(document.tripID) {
            issues.append(
                ValidationIssue(
                    .error, pointer: "/owner/key",
                    message:
                        "the trip id \(document.tripID) is derived from an owner key (UUID version 8) and owner key \(owner.key.fingerprint) does not derive it: the file names another owner than the trip's, expected the key the id was made from"
                ))
        }
        let clock = document.clock
        for (device, grant) in document.members {
            let pointer = "/members/\(device)"
            if !clock.sees(grant.rev) {
                issues.append(DocumentIssues.dotAboveClock(grant.rev, clockValue: clock[grant.rev.device], pointer: pointer + "/rev"))
            }
            for (entry, counter) in grant.seen?.entries ?? [:] where counter > clock[entry] {
                issues.append(DocumentIssues.entryAboveClock("a grant's seen", counter: counter, clockValue: clock[entry], pointer: pointer + "/seen/\(entry)"))
            }
            if !grant.isSigned(by: owner.key, trip: document.tripID, device: device) {
                issues.append(
                    ValidationIssue(
                        .error, pointer: pointer + "/sig",
                        message: "the grant (\(grant.role.rawValue)) is not signed by the trip's owner key, expected a grant only the owner can make"))
            }
        }
        return issues
    }
}
