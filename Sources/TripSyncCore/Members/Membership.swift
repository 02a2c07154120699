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
    /// Candidate hand-overs to new device ids, by new id: the replica's, those of every file
    /// accepted whole, and a member's file's own chain (the hand-overs to its writer, for the
    /// key that signed it); never any other of a viewer's, removed or unknown device's or
    /// unsigned file's (docs/DESIGN.md, "Successions are judged by who may sign them").
    var successions: [DeviceID: [Succession]] = [:]
    /// The seats held through `successions`, resolved once for the whole sync (`Seat.Resolver`).
    var seats: [DeviceID: Seat.Held] = [:]
    /// Writers whose files would take the merged state past a limit, with what they would
    /// exceed: refused whole (docs/DESIGN.md, "Limits hold for the merged state").
    package var overLimit: [DeviceID: String] = [:]
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
    /// is that owner (each was verified against it when read). Successions count from the
    /// replica and from each input that `signers` (the key that signed each input, in order;
    /// nil or missing for an unsigned one) shows is an owner's or an editor's, decided in
    /// rounds: a file of a successor is taken when the succession it carries for its own writer
    /// verifies, and what it carries then counts for the next files.
    package init(local: TripDocument?, trusted: PublicKey?, inputs: [TripDocument], signers: [PublicKey?] = []) {
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
        if let owner {
            for document in [local].compactMap({ $0 }) + inputs where document.owner?.key == owner.key {
                grants.merge(document.members, uniquingKeysWith: MemberGrant.winner)
            }
        }
        self.owner = owner
        self.grants = grants
        self.pendingClaims = pending
        self.trip = local?.tripID ?? inputs.first?.tripID
        guard let owner, let trip else { return }
        if let local, local.owner?.key == owner.key { Self.add(local.successions, to: &successions) }
        seats = Seat.resolveAll(successions, grants: grants, trip: trip)
        // Rounds: each takes the successions of the files now known to be taken whole.
        var waiting = inputs.indices.filter { inputs[$0].owner?.key == owner.key && $0 < signers.count && signers[$0] != nil }
        while true {
            var added = false
            var still: [Int] = []
            for index in waiting {
                let input = inputs[index]
                guard let signer = signers[index], let grant = seat(of: input.deviceID, provisionally: input.successions, trip: trip), grant.key == signer
                else {
                    still.append(index)
                    continue
                }
                // The writer's own hand-over (the chain from its id, signed by each old key, for
                // the key that signed this file) counts whatever its role: it concerns nobody
                // else. Every other succession counts only from a file taken whole.
                let counted = grant.role.mayEdit ? input.successions : Self.ownChain(of: input.deviceID, in: input.successions)
                if counted.isEmpty { continue }
                let fresh = counted.keys.reduce(0) { $0 + (successions[$1] == nil ? 1 : 0) }
                if successions.count + fresh > TripLimits.maxEntries {
                    overLimit[input.deviceID] =
                        "taking it would hold \(successions.count + fresh) successions, more than the \(TripLimits.maxEntries) a trip file may hold"
                    continue
                }
                for (device, succession) in counted where successions[device]?.contains(succession) != true {
                    successions[device, default: []].append(succession)
                    added = true
                }
            }
            waiting = still
            guard added, !waiting.isEmpty else {
                if added { seats = Seat.resolveAll(successions, grants: grants, trip: trip) }
                break
            }
            seats = Seat.resolveAll(successions, grants: grants, trip: trip)
        }
    }

    /// Adds each of `new` to the candidates (once each).
    private static func add(_ new: [DeviceID: Succession], to candidates: inout [DeviceID: [Succession]]) {
        for (device, succession) in new {
            if candidates[device]?.contains(succession) == true { continue }
            candidates[device, default: []].append(succession)
        }
    }

    /// `device`'s grant, with the chain from `device` that `extra` (the successions of the
    /// file being decided) carries weighed with the successions already counted (the valid one
    /// with the highest role wins, `Seat.prefers`).
    private func seat(of device: DeviceID, provisionally extra: [DeviceID: Succession], trip: TripID) -> MemberGrant? {
        if let grant = grants[device] { return grant }
        let chain = Self.ownChain(of: device, in: extra)
        if chain.isEmpty { return seats[device]?.grant }
        var resolver = Seat.Resolver(grants: grants, candidates: successions, trip: trip, held: seats)
        resolver.overlay = chain
        return resolver.seat(device)?.grant
    }

    /// The links of `successions` from `device` back along the ids it hands over from (at
    /// most `Seat.maximumChain`).
    static func ownChain(of device: DeviceID, in successions: [DeviceID: Succession]) -> [DeviceID: Succession] {
        var chain: [DeviceID: Succession] = [:]
        var current = device
        while let link = successions[current], chain.count < Seat.maximumChain, chain[current] == nil {
            chain[current] = link
            current = link.from
        }
        return chain
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
        // A successor's file whose hand-over did not count yet (a viewer's: its file is not taken
        // whole) is judged by the succession it carries for its own writer, for itself only.
        guard let grant = effectiveGrant(of: device) ?? trip.flatMap({ seat(of: device, provisionally: input.successions, trip: $0) }) else {
            return .skipped("device \(name) is not a member of this trip\(signer.map { " (key \($0.fingerprint))" } ?? "")", remedy: .ownerApproves(device))
        }
        guard let signer else { return .skipped("device \(name)'s file is not signed; members' files must be", remedy: nil) }
        guard signer == grant.key else {
            return .skipped("device \(name)'s file is signed with key \(signer.fingerprint), not with its member key \(grant.key.fingerprint)", remedy: nil)
        }
        if let over = overLimit[device] {
            return .skipped("device \(name)'s file is refused whole: \(over)", remedy: nil)
        }
        switch grant.role {
        case .removed: return .skipped("device \(name) was removed from the trip; its files are no longer taken", remedy: nil)
        case .viewer: return .acksOnly
        case .owner, .editor: return .whole
        }
    }

    /// Each removed device (by its own grant, or as the successor of a removed one) and the
    /// removal's `seen` of it: what `TripDocument.dropLateWrites` drops above.
    package var lateWriteBounds: [DeviceID: UInt64] {
        var bounds: [DeviceID: UInt64] = [:]
        for (device, grant) in grants where grant.role == .removed { bounds[device] = grant.seen?[device] ?? 0 }
        for (device, held) in seats where grants[device] == nil && held.grant.role == .removed { bounds[device] = held.grant.seen?[device] ?? 0 }
        return bounds
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
        let membership = Membership(local: local, trusted: nil, inputs: inputs.map(\.document), signers: inputs.map(\.signer))
        var document = local
        var verdicts: [Verdict] = []
        var viewers: [TripDocument] = []
        for input in inputs {
            let verdict = membership.verdict(for: input.document, signedBy: input.signer, name: input.document.deviceID.description)
            verdicts.append(verdict)
            switch verdict {
            case .whole:
                // Limits hold for the merged state: a file that would take it past one is refused whole.
                let merged = try DocumentMerger.merge(document, input.document, writer: local.deviceID)
                if let problem = merged.limitProblem {
                    verdicts[verdicts.count - 1] = .skipped(
                        "device \(input.document.deviceID)'s file is refused whole: taking it would put the trip past a limit every reader holds (\(problem))", remedy: nil)
                } else {
                    document = merged
                }
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
            // The valid succession chosen for each new id replaces whatever the merge kept there.
            for (device, succession) in membership.holdingSuccessions { successions[device] = succession }
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
