import TripSyncCore
import TripSyncHome

/// The attachment part of a trip's sync (docs/DESIGN.md, "Attachments"), run after the merge
/// and before publishing: staged attachments whose bytes reach the trip folder enter the trip;
/// bytes of live attachments this home holds go into the folder; bytes the folder holds and
/// this home lacks are fetched, each checked against its hash. In an owned trip the folder gets
/// only sealed copies (schema 7, docs/DESIGN.md "Sealed attachments"): a staged attachment is
/// sealed under a fresh key before it is shared, and a sealed copy fetched is opened and checked
/// before its plain bytes enter the home.
struct AttachmentDelivery {
    /// The home's blobs.
    let store: BlobStore
    /// The trip folder's blobs.
    let folder: FolderBlobStore
    /// Told while bytes are copied: (name, done, total, fetching).
    var progress: (@Sendable (String, Int64, Int64, Bool) -> Void)?
    /// The plain digests this home's sealed trips hold: bytes another device's attachment names
    /// go into an open trip's folder only when they are none of these.
    let sealedElsewhere: PlainBlobsOfSealedTrips

    /// The callback for one copy of `name`'s bytes.
    private func reporter(_ name: String, fetching: Bool) -> BlobProgress? {
        guard let progress else { return nil }
        return { done, total in progress(name, done, total, fetching) }
    }

    /// What one delivery did.
    struct Outcome {
        /// The staged attachments still waiting (their bytes could not be shared, or this
        /// laptop may not change the trip): saved after the replica.
        var staged: StagedAttachments
        /// Whether the replica gained attachments.
        var attached = 0
        /// Attachments of this laptop whose plain bytes were sealed (written again).
        var resealed = 0
        /// Whether our file may be published: false when an attachment we wrote names bytes we
        /// hold but could not deliver to this folder.
        var mayPublish = true
        /// Live attachments whose bytes are still not in this home (arriving or quarantined).
        var waiting = 0
        /// What a person should hear.
        var notices: [String] = []
    }

    /// Runs the three steps on `replica`; its clock issues the attachment writes.
    func run(_ replica: inout ReplicaState, staged: StagedAttachments, now: UInt64) -> Outcome {
        var outcome = Outcome(staged: StagedAttachments())
        let me = replica.identity.deviceID
        let tripID = replica.document.tripID
        let sealing = replica.document.owner != nil
        // 1. Staged attachments: bytes into the folder first, then the attachment into the trip.
        let mayEdit = replica.document.mayEdit(me)
        for entry in staged.entries { attachStaged(entry, mayEdit: mayEdit, sealing: sealing, to: &replica, now: now, into: &outcome) }
        // 2 and 3. Every live attachment's bytes: shared when held here, fetched when not.
        for (id, attachment) in replica.document.attachments.sorted(by: { $0.key < $1.key }) where !attachment.isDetached {
            guard let register = attachment.blob, let blob = BlobID(register.value.sha256) else { continue }
            let reference = register.value
            let name = attachment.name?.value ?? reference.sha256
            let mine = register.rev.device == me
            if let sealed = reference.sealed {
                guard let sealedID = BlobID(sealed.sha256) else { continue }
                if store.containsSealed(sealed) {
                    do throws(BlobError) {
                        _ = try store.shareSealed(reference, to: folder, progress: reporter(name, fetching: false))
                    } catch {
                        outcome.notices.append("\(name): its sealed bytes could not be put into the folder: \(error)")
                        if mine { outcome.mayPublish = false }
                    }
                }
                if store.contains(blob, size: reference.size) { continue }
                if store.refusedSealed(sealed) {
                    outcome.waiting += 1  // refused before (in the quarantine): not fetched again
                    continue
                }
                fetch(sealedID, size: sealed.size, name: name, into: &outcome) { () throws(BlobError) in
                    _ = try store.fetchSealed(reference, tripID: tripID, from: folder, progress: reporter(name, fetching: true))
                }
                continue
            }
            if store.contains(blob, size: reference.size) {
                // In an owned trip plain bytes go into the folder only from the laptop that
                // attached them (an attachment written before schema 7): a plain reference
                // another member wrote never makes this laptop put plain bytes it holds (of
                // another trip, perhaps a sealed one) where the folder's host reads them.
                guard !sealing || mine else { continue }
                // Into an open trip's folder, bytes another device's attachment names go only
                // when no sealed trip of this home holds the same bytes.
                if !mine, sealedElsewhere.names(reference.sha256) {
                    outcome.notices.append("\(name): not put into this open trip's folder in plain: a sealed trip of this laptop holds the same bytes (attach the file here again to share it on purpose)")
                    continue
                }
                if sealing && mayEdit && register.conflicts.isEmpty {
                    // Its writer seals it now: one laptop only (the one that wrote the value),
                    // so two laptops never seal it at once under two keys.
                    if reseal(id, reference, name: name, in: &replica, tripID: tripID, now: now, into: &outcome) { continue }
                }
                do throws(BlobError) {
                    _ = try store.share(blob, to: folder, progress: reporter(name, fetching: false))
                } catch {
                    outcome.notices.append("\(name): its bytes could not be put into the folder: \(error)")
                    if mine { outcome.mayPublish = false }
                }
                continue
            }
            fetch(blob, size: reference.size, name: name, into: &outcome) { () throws(BlobError) in
                _ = try store.fetch(blob, size: reference.size, from: folder, progress: reporter(name, fetching: true))
            }
        }
        if !outcome.mayPublish {
            outcome.notices.append("not published: a trip file must never name bytes its writer has not put into the folder; sync again once the folder takes them")
        }
        return outcome
    }

    /// Step 1 for one staged attachment: its bytes into the folder (sealed in an owned trip),
    /// then the attachment into the trip; kept staged, and said why, when either cannot be done.
    private func attachStaged(
        _ entry: StagedAttachments.Entry, mayEdit: Bool, sealing: Bool, to replica: inout ReplicaState, now: UInt64, into outcome: inout Outcome
    ) {
        let tripID = replica.document.tripID
        if replica.document.attachments[entry.id] != nil { return }  // written by an earlier sync that stopped before clearing the list
        guard mayEdit else {
            outcome.staged.entries.append(entry)
            outcome.notices.append("\(entry.name) stays staged: this laptop may not change the trip now (ask the owner for the editor role)")
            return
        }
        let itemKnown = replica.document.items[entry.item] != nil || replica.document.tombstones[entry.item] != nil
        guard itemKnown, let blob = BlobID(entry.blob.sha256) else {
            outcome.staged.entries.append(entry)
            outcome.notices.append("\(entry.name) stays staged: the trip holds no item \(entry.item)")
            return
        }
        var reference = entry.blob
        do throws(BlobError) {
            // The first publish names these bytes: a copy already there is hashed first.
            if sealing {
                // Sealed when staged (`attach`), so an interrupted share resumes the same
                // sealed copy; sealed here when the trip became owned after staging.
                if reference.sealed.map({ !store.containsSealed($0) }) ?? true { reference.sealed = try store.seal(blob, tripID: tripID) }
                _ = try store.shareSealed(reference, to: folder, verifyPresent: true, progress: reporter(entry.name, fetching: false))
            } else {
                reference.sealed = nil
                _ = try store.share(blob, to: folder, verifyPresent: true, progress: reporter(entry.name, fetching: false))
            }
        } catch {
            var kept = entry
            kept.blob.sealed = reference.sealed  // the next sync resumes this sealed copy
            outcome.staged.entries.append(kept)
            outcome.notices.append("\(entry.name) stays staged (not yet shared): \(error)")
            return
        }
        do {
            try replica.document.attach(
                entry.id, item: entry.item, blob: reference, name: entry.name, caption: entry.caption, hlc: &replica.clock, now: now,
                toDeletedItem: true)
            outcome.attached += 1
            if replica.document.items[entry.item] == nil {
                outcome.notices.append("\(entry.name) is attached to an item deleted meanwhile: hidden until the item is restored")
            }
        } catch {
            outcome.staged.entries.append(entry)
            outcome.notices.append("\(entry.name) stays staged: \(error)")
        }
    }

    /// Seals the plain bytes of this laptop's own attachment `id` of an owned trip, puts the
    /// sealed copy into the folder and writes the blob register again naming it (docs/DESIGN.md,
    /// "Encryption: sealed attachments"); true when done. The plain folder copy is left to
    /// `gc --folder`, which removes it once no trip file names it and its retention has passed.
    private func reseal(
        _ id: AttachmentID, _ reference: BlobReference, name: String, in replica: inout ReplicaState, tripID: TripID, now: UInt64,
        into outcome: inout Outcome
    ) -> Bool {
        guard let blob = BlobID(reference.sha256) else { return false }
        var sealed: SealedBlob
        do throws(BlobError) {
            sealed = try store.seal(blob, tripID: tripID)
            _ = try store.shareSealed(
                BlobReference(sha256: reference.sha256, size: reference.size, type: reference.type, sealed: sealed), to: folder, verifyPresent: true,
                progress: reporter(name, fetching: false))
        } catch {
            outcome.notices.append("\(name): not sealed yet (its plain bytes stay in the folder): \(error)")
            return false
        }
        do throws(EditError) {
            try replica.document.sealBlob(id, with: sealed, hlc: &replica.clock, now: now)
        } catch {
            outcome.notices.append("\(name): not sealed yet (its plain bytes stay in the folder): \(error)")
            return false
        }
        outcome.resealed += 1
        outcome.notices.append(
            "\(name): its bytes are now sealed in the folder; the plain copy there is removed by `gc --folder` once no trip file names it and its retention has passed")
        return true
    }

    /// Fetches the folder's blob `blob` of `size` bytes (plain or sealed) by `copy`, when it is
    /// there: still travelling is counted as waiting; a wrong copy is reported (a full-size
    /// plain one that does not hash to its name is removed, so the laptop holding the photo
    /// puts it back).
    private func fetch(_ blob: BlobID, size: Int64, name: String, into outcome: inout Outcome, _ copy: () throws(BlobError) -> Void) {
        do throws(BlobError) {
            switch try folder.presence(of: blob, size: size) {
            case .present:
                try copy()
            case .absent, .otherSize:
                outcome.waiting += 1  // still travelling: shown as arriving
            case .notAFile:
                outcome.waiting += 1
                outcome.notices.append("\(folder.path(of: blob)): not a regular file where \(name)'s bytes belong; never used")
            }
        } catch {
            outcome.waiting += 1
            switch error.reason {
            case .incomplete, .missing: break  // arriving
            case .mismatch:
                // Full-size bytes that are not the ones named: garbage under that name, and a
                // laptop that holds the right bytes only re-shares into an empty place.
                var line = "\(name): \(error)"
                do throws(BlobError) {
                    if try folder.remove(blob) { line += "; the folder's wrong copy was removed, so the laptop holding the photo puts it back" }
                } catch {
                    line += "; the folder's wrong copy could not be removed (\(error))"
                }
                outcome.notices.append(line)
            default: outcome.notices.append("\(name): \(error)")
            }
        }
    }
}
