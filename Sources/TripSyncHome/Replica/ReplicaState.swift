import Foundation
import TripSyncPlatform
import TripSyncCore

/// One trip as this installation keeps it: the document, the home it lives in, and this
/// device's identity and clock; `save()` makes it durable (identity first, then the trip: temp
/// file, fsync, rename, fsync the folder). Internal: apps use `TripStore`, which owns one and
/// so the only clock that stamps this device's writes (docs/DESIGN.md, "The app API").
package struct ReplicaState: Sendable {
    /// The home.
    package let home: Home
    /// This installation.
    package private(set) var identity: DeviceIdentity
    /// The identity as `device.json` and the counter ledger hold it: what `saveEdit` records
    /// counters beyond.
    private var durableIdentity: DeviceIdentity
    /// The trip.
    package var document: TripDocument
    /// The clock that stamps this device's writes.
    package var clock: HybridLogicalClock
    /// Problems noticed when opening (a copied or restored home), for the person to read.
    package private(set) var notices: [String] = []
    /// Where the trip's edit journal ends (nil: there is none): set by the opener, moved by
    /// `saveEdit`, cleared by `save` (docs/DESIGN.md, "The edit journal").
    package var journal: EditJournal.Position?

    /// The file of this replica.
    package var path: String { home.replicaPath(for: document.tripID) }

    /// Wraps a document read from the home (or just created) for editing by this installation.
    /// A replica holding writes of ours the identity never issued makes the home take a new id
    /// (`ForkCheck`); values typed while this laptop's clock ran ahead are re-stamped at the
    /// present counter (`ClockRecovery`); a home that wrote the trip under an earlier id of its
    /// own hands that id's seat to the current one (`keepSeat`).
    package init(home: Home, identity: DeviceIdentity, document: TripDocument, now: UInt64 = FileMerger.wallClockMilliseconds()) {
        self.home = home
        durableIdentity = identity
        var identity = identity
        var document = document
        var notices: [String] = []
        if let reason = ForkCheck.replica(document, identity: identity) {
            // Writing on under this id could reuse counters another copy also uses.
            let old = identity.deviceID
            identity = identity.successor(binding: identity.binding)
            notices.append(
                "\(reason): it looks copied or restored, so this installation now writes as a new device \(identity.deviceID) (device \(old) is never written as here again)")
        }
        document.deviceID = identity.deviceID
        // What this laptop's wall clock says against the trip (docs/DESIGN.md, "Clocks you
        // cannot trust"): counters never go backwards on a device, so unless this home's own
        // counters ran far ahead (then it takes a new id and re-stamps), the clock goes on from
        // every counter the trip and the identity hold.
        let ours = Set([identity.deviceID] + identity.formerIDs)
        let bound = now + ClockGuard.maxSkewMilliseconds
        var clock = HybridLogicalClock(highWater: max(identity.highWater, document.clock.maxCounter))
        switch ClockGuard.reading(of: document, ours: ours, highWater: identity.highWater, now: now) {
        case .right:
            break
        case .behind(let device, let lag):
            let who = document.deviceName(device)
            notices.append(
                "this laptop's clock is about \(ClockGuard.span(lag)) behind: \(who) has written \"\(document.trip.name.value)\" at a time this laptop's clock has not reached. Set this laptop's date and time right (automatic date and time); until then what this laptop writes still sorts after everything it has seen, but it takes no newer file from the others")
        case .ranAhead(let lead):
            let wait = lead > ClockGuard.maxSkewMilliseconds ? lead - ClockGuard.maxSkewMilliseconds : 0
            notices.append(
                "this laptop's clock ran \(ClockGuard.span(lead)) ahead when it last wrote \"\(document.trip.name.value)\"; its counters go on from there, so what it writes now still replaces what it wrote then. The other laptops take its changes once their clocks pass those counters less 24 hours, in about \(ClockGuard.span(wait))")
        case .ranFarAhead:
            if document.clock[identity.deviceID] > bound || identity.highWater > bound {
                // Nothing more may be written under this id at the present time without going
                // backwards: a new id (the identity's open does this first for the whole home).
                let old = identity.deviceID
                identity = identity.successor(binding: identity.binding, clockRanAhead: true)
                document.deviceID = identity.deviceID
                notices.append("this laptop's clock ran far ahead under device \(old): it now writes as a new device \(identity.deviceID)")
            }
            let sane = document.clock.entries.values.filter { $0 <= bound }.max() ?? 0
            clock = HybridLogicalClock(highWater: max(identity.highWater <= bound ? identity.highWater : 0, sane))
            var ownerKey: SigningKey?
            do {
                ownerKey = try TripAccess.load(home, document.tripID).ownerKey
            } catch {
                notices.append("\(error) (the trip's values from a clock that ran ahead may stay stuck)")
            }
            let outcome = ClockRecovery.recover(&document, ours: Set([identity.deviceID] + identity.formerIDs), to: identity.deviceID, clock: &clock, ownerKey: ownerKey, now: now)
            if outcome.moved > 0 || outcome.regranted > 0 || outcome.kept > 0 {
                var line =
                    "\(outcome.moved == 1 ? "1 value" : "\(outcome.moved) values") of \"\(document.trip.name.value)\" typed while this laptop's clock ran ahead reached nobody until now (every other laptop refuses writes from the future): re-stamped at the right time under device \(identity.deviceID), they reach the others with the next sync"
                if outcome.regranted > 0 { line += "; \(outcome.regranted) role change(s) signed again" }
                if outcome.kept > 0 { line += "; \(outcome.kept) role change(s) stamped in the future kept as the owner signed them" }
                notices.append(line)
            }
        }
        // A home that took a new id keeps the seat its earlier id had (a succession signed by
        // that id's key), like any copy, the owner's too: its role is its predecessor's, so a
        // removal of either reaches both (docs/DESIGN.md, "The owner key decides owner acts").
        // Only a home holding the owner key whose earlier ids had no seat grants itself owner.
        if document.owner != nil, !identity.formerIDs.isEmpty, document.members[identity.deviceID] == nil {
            do {
                let key = try home.signingKey(for: identity.deviceID)
                var keys: [DeviceID: SigningKey] = [:]
                for (id, earlier) in try home.previousSigningKeys() { keys[id] = earlier }
                if let old = document.keepSeat(of: identity.deviceID, key: key.publicKey, former: identity.formerIDs, keys: keys) {
                    notices.append(
                        "this laptop, now device \(identity.deviceID), keeps the seat of device \(old) in \"\(document.trip.name.value)\" (\(document.role(of: identity.deviceID)?.rawValue ?? "no role")): a succession signed by that device's key, so nobody has to approve it")
                } else if document.role(of: identity.deviceID) == nil, let ownerKey = try TripAccess.load(home, document.tripID).ownerKey, ownerKey.publicKey == document.owner?.key {
                    try document.grant(
                        identity.deviceID, key: key.publicKey, role: .owner, name: identity.name,
                        box: try home.encryptionKey(for: identity.deviceID).publicKey, ownerKey: ownerKey, hlc: &clock, now: now)
                    notices.append("this laptop holds the owner key of \"\(document.trip.name.value)\", so device \(identity.deviceID) is its owner again")
                }
            } catch {
                notices.append("\(error) (this laptop may not keep its seat in \"\(document.trip.name.value)\" until that is fixed)")
            }
        }
        self.identity = identity
        self.document = document
        self.notices = notices
        self.clock = clock
    }

    /// Makes sure the trip names this device (a device-name register write when missing or
    /// different); a name readers would refuse (`TextRule.name`) is refused.
    package mutating func registerDevice(now: UInt64) throws {
        try document.nameDevice(identity.name, hlc: &clock, now: now)
    }

    /// Writes the identity (raising its high-water mark) and then the trip, whole and durably;
    /// the trip's edit journal, now folded in, is removed.
    package mutating func save() throws {
        try saveIdentity()
        try writeWhole()
    }

    /// Saves an edit made to `previous` (the trip as it was saved): the counters it issued (as
    /// records of the counter ledger, `Home.recordIssued`), then one record of the edit's
    /// effect appended to the trip's edit journal and fsynced, instead of the whole replica
    /// (docs/DESIGN.md, "The edit journal", "The counter ledger"). The replica is rewritten
    /// whole (`save`) instead when there is none yet or the edit removed something a record
    /// cannot say, and after the append once the journal is past `EditJournal.foldBytes` or
    /// `foldRecords`; the ledger is folded into `device.json` once it holds
    /// `IssuedLedger.foldRecords` records. Returns a notice when only a fold failed (the edit
    /// is saved).
    package mutating func saveEdit(from previous: TripDocument) throws -> String? {
        guard FileManager.default.fileExists(atPath: path), let delta = JournalDelta(from: previous, to: document) else {
            try saveIdentity()
            try writeWhole()
            return nil
        }
        // The counters first, as a record of the counter ledger (docs/DESIGN.md, "The counter
        // ledger"): a crash between the two leaves an identity that has seen every counter.
        raiseIdentity()
        let foldLedger = try home.recordIssued(identity, beyond: durableIdentity)
        durableIdentity = identity
        document.deviceID = identity.deviceID
        let file = EditJournal(path: home.journalPath(for: document.tripID))
        // A replica replaced since the journal was known (a whole save that failed only to
        // remove it) has a stale journal beside it: a new one starts.
        var known = journal
        if let position = known, position.replica != EditJournal.stamp(of: path) { known = nil }
        var stamp = known?.replica ?? []
        var base = known?.base ?? []
        if known == nil {
            stamp = EditJournal.stamp(of: path)
            base = try EditJournal.digest(ofFile: path)
            guard EditJournal.stamp(of: path) == stamp else {
                throw FileSystemError(path: path, message: "the replica changed while its digest was taken (nothing was saved)")
            }
        }
        var position = try file.append(delta.payload, at: known, base: base)
        position.replica = stamp
        journal = position
        var notices: [String] = []
        if foldLedger {
            do {
                try home.save(identity)
            } catch {
                notices.append("the edit was saved, but folding the counter ledger into \(home.identityPath) failed (\(error)); the next edit tries again")
            }
        }
        if position.length >= EditJournal.foldBytes || position.records >= EditJournal.foldRecords {
            do {
                try writeWhole()
            } catch {
                notices.append("the edit was saved in \(file.path), but folding that journal into \(path) failed (\(error)); the next edit or sync tries again")
            }
        }
        return notices.isEmpty ? nil : notices.joined(separator: "; ")
    }

    /// Raises the identity's high-water mark to every counter issued (in memory).
    private mutating func raiseIdentity() {
        identity.highWater = max(identity.highWater, clock.highWater, document.clock[identity.deviceID])
        identity.issued.formUnion(clock.issued)
    }

    /// Raises the identity's high-water mark to every counter issued, durably (`device.json`
    /// written whole, the counter ledger folded in).
    private mutating func saveIdentity() throws {
        raiseIdentity()
        try home.save(identity)
        durableIdentity = identity
    }

    /// The trip written whole (the journal's records are in it), then the journal removed.
    private mutating func writeWhole() throws {
        try FileIO.makeFolder(home.tripsPath)
        document.deviceID = identity.deviceID
        try document.write(to: path)
        journal = nil
        do {
            try EditJournal(path: home.journalPath(for: document.tripID)).remove()
        } catch {
            // A journal left behind is stale (its base is not the new replica) and is ignored.
            throw FileSystemError(
                path: error.path, message: "the trip was saved whole in \(path), but its edit journal could not be removed (\(error.message)); it is stale and ignored",
                code: error.code, inPlace: true)
        }
    }
}

