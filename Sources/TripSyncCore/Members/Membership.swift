/// Who may change a trip, as one sync sees it (docs/DESIGN.md, "Signed files"): the owner this
/// home holds (or trusts from an invite) and the grants merged from the replica and from every
/// readable file, and the decision per file that follows. Deciding per file, after the
/// membership of every input is merged, keeps the merge itself the pure function it is.
package struct Membership: Sendable {
    /// The owner; nil for an open trip.
    package var owner: TripOwner?
    /// Each device's winning grant.
    package var grants: [DeviceID: MemberGrant]
    /// Owner claims the inputs carry for a trip this replica holds as open, one per key: shown
    /// to the person and never adopted (docs/DESIGN.md, "An open trip takes an owner only by
    /// its own person's act").
    package var pendingClaims: [TripOwner] = []
    /// Hand-overs to new device ids merged from the same documents as the grants
    /// (`Membership+Succession.swift`).
    var successions: [DeviceID: Succession] = [:]
    /// The trip (what succession signatures cover); nil with no document at all.
    var trip: TripID?

    /// What a sync takes from one file.
    package enum Verdict: Equatable {
        /// The file is merged whole (an owner's or editor's, or any file of an open trip).
        case whole
        /// Only the writer's own `acks` entry (a viewer's file).
        case acksOnly
        /// Nothing; the reason names the device, and the remedy (when there is one) says what
        /// would let the file in.
        case skipped(String, remedy: MembershipRemedy?)
    }

    /// The membership of a sync: the owner is the replica's when it has one, else the one the
    /// invite this home answered names (`trusted`). An open replica never takes an owner from
    /// its inputs by itself: a claim that arrives in a file (the folder's host can write one)
    /// is listed in `pendingClaims` and its files are skipped, until this laptop's person runs
    /// `members claim` or answers an invite. Grants are merged from every document whose owner
    /// is that owner (each was verified against it when read).
    package init(local: TripDocument?, trusted: PublicKey?, inputs: [TripDocument]) {
        var owner = local?.owner
        var pending: [TripOwner] = []
        if owner == nil, let trusted {
            owner = inputs.lazy.compactMap(\.owner).first { $0.key == trusted }
        }
        if owner == nil {
            // The first claim of each key, in one pass (not a scan of every claim per claim).
            var listed: Set<PublicKey> = []
            pending = inputs.compactMap(\.owner).filter { listed.insert($0.key).inserted }
            pending.sort { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }
        }
        var grants: [DeviceID: MemberGrant] = [:]
        var successions: [DeviceID: Succession] = [:]
        if let owner {
            for document in [local].compactMap({ $0 }) + inputs where document.owner?.key == owner.key {
                grants.merge(document.members, uniquingKeysWith: MemberGrant.winner)
                successions.merge(document.successions, uniquingKeysWith: Succession.winner)
            }
        }
        self.owner = owner
        self.grants = grants
        self.pendingClaims = pending
        self.successions = successions
        self.trip = local?.tripID ?? inputs.first?.tripID
    }

    /// The role of `device`, or nil when it holds no grant (or the trip is open).
    func role(of device: DeviceID) -> MemberRole? { effectiveGrant(of: device)?.role }

    /// What to take from `input`, signed by `signer` (nil when unsigned), named `name` for
    /// messages.
    package func verdict(for input: TripDocument, signedBy signer: PublicKey?, name: String) -> Verdict {
        guard let owner else {
            if let claimed = input.owner {
                return .skipped(
                    "claims an owner (key \(claimed.key.fingerprint)) for a trip this laptop holds as open, so it is not taken", remedy: .claimOrJoin(folder: nil))
            }
            return .whole
        }
        let device = input.deviceID
        guard let claimed = input.owner, claimed.key == owner.key else {
            let what = input.owner.map { "another owner (key \($0.key.fingerprint))" } ?? "no owner (written before the trip was claimed)"
            return .skipped("device \(name) wrote it for \(what); this trip's owner key is \(owner.key.fingerprint)", remedy: nil)
        }
        guard let grant = effectiveGrant(of: device) else {
            return .skipped("device \(name) is not a member of this trip\(signer.map { " (key \($0.fingerprint))" } ?? "")", remedy: .ownerApproves(device))
        }
        guard let signer else { return .skipped("device \(name)'s file is not signed; members' files must be", remedy: nil) }
        guard signer == grant.key else {
            return .skipped("device \(name)'s file is signed with key \(signer.fingerprint), not with its member key \(grant.key.fingerprint)", remedy: nil)
        }
        switch grant.role {
        case .removed: return .skipped("device \(name) was removed from the trip; its files are no longer taken", remedy: nil)
        case .viewer: return .acksOnly
        case .owner, .editor: return .whole
        }
    }

    /// Content of removed devices newer than their removal that `input` (taken whole) carries:
    /// (device, its counter in the input, what the removal had seen).
    package func removedContent(in input: TripDocument) -> [(device: DeviceID, counter: UInt64, seen: UInt64)] {
        grants.compactMap { device, grant in
            guard grant.role == .removed, device != input.deviceID else { return nil }
            let seen = grant.seen?[device] ?? 0
            let counter = input.clock[device]
            return counter > seen ? (device, counter, seen) : nil
        }.sorted { $0.device < $1.device }
    }
}

extension TripDocument {
    /// The viewer `device`'s own acks entry from `input`, within this document's clock (an
    /// ack never claims more than the document holds).
    package mutating func takeAcks(of device: DeviceID, from input: TripDocument) {
        guard let ack = input.acks[device] else { return }
        var bounded = VersionVector()
        for (entry, counter) in ack.entries {
            let held = min(counter, clock[entry])
            if held > 0 { bounded[entry] = held }
        }
        acks[device] = (acks[device] ?? VersionVector()).union(bounded)
    }
}

extension Membership {
    /// One sync's acceptance without a folder, the pure core of `FolderSync` (which adds fork
    /// detection, files and reports): `inputs` (each with the key that signed it, nil when
    /// unsigned) merged into `local` as their verdicts allow, viewers' acks taken, and every
    /// owner-signed grant merged. Returns the result and each input's verdict, in order.
    static func accept(
        _ inputs: [(document: TripDocument, signer: PublicKey?)], into local: TripDocument
    ) throws(MergeError) -> (document: TripDocument, verdicts: [Verdict]) {
        let membership = Membership(local: local, trusted: nil, inputs: inputs.map(\.document))
        var document = local
        var verdicts: [Verdict] = []
        var viewers: [TripDocument] = []
        for input in inputs {
            let verdict = membership.verdict(for: input.document, signedBy: input.signer, name: input.document.deviceID.description)
            verdicts.append(verdict)
            switch verdict {
            case .whole: document = try DocumentMerger.merge(document, input.document, writer: local.deviceID)
            case .acksOnly: viewers.append(input.document)
            case .skipped: break
            }
        }
        for viewer in viewers { document.takeAcks(of: viewer.deviceID, from: viewer) }
        document.adopt(membership)
        return (document, verdicts)
    }
}

extension TripDocument {
    /// Takes the owner and every grant of `membership` that this document's clock accounts for
    /// (the grants are owner-signed, whichever file carried them). A grant carried only by a
    /// file not merged whole (a viewer's, a skipped one) can be newer than anything merged
    /// here: stored, its rev or `seen` would be above the clock, the document invalid
    /// (`MemberRules`), and every reader would refuse the file this replica publishes. Such a
    /// grant still decides this sync's verdicts; it is stored once a file merged whole brings it.
    package mutating func adopt(_ membership: Membership) {
        guard let owner = membership.owner else { return }
        if self.owner == nil { self.owner = owner }
        if self.owner?.key == owner.key {
            let accounted = membership.grants.filter { clock.sees($0.value.rev) && ($0.value.seen.map(clock.covers) ?? true) }
            members.merge(accounted, uniquingKeysWith: MemberGrant.winner)
            successions.merge(membership.holdingSuccessions, uniquingKeysWith: Succession.winner)
        }
    }
}

extension TripDocument {
    /// Whether the trip holds a content write (`RegisterPath.isContent`: the trip's name and
    /// zone, an item's field, a delete, an attachment) of `device` with a counter above
    /// `counter`: a viewer's own edits, which no other laptop takes.
    package func hasContent(of device: DeviceID, above counter: UInt64) -> Bool {
        var found = false
        forEachVersionRev { path, rev in
            if !found && rev.device == device && rev.counter > counter && path.isContent { found = true }
        }
        return found
    }
}
