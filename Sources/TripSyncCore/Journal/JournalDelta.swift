
/// One edit's effect, as an edit journal record holds it (docs/DESIGN.md, "The edit journal"):
/// a document in the replica's own canonical JSON that holds every item, tombstone and
/// attachment the edit changed (whole, with their revs) and the trip's small parts whole (its
/// clock, registers, devices, acks, owner, members, successions). Replaying sets each of them;
/// so replaying is deterministic, and replaying the records again over a replica that already
/// holds them changes nothing.
package struct JournalDelta: Sendable {
    /// The changed parts, as a document.
    package let document: TripDocument

    /// The effect of going from `before` to `after`, or nil when an edit removed an item,
    /// tombstone or attachment outright (no record says that; the caller rewrites the replica
    /// whole instead).
    package init?(from before: TripDocument, to after: TripDocument) {
        guard before.tripID == after.tripID else { return nil }
        var items: [ItemID: ItemFields] = [:]
        for (id, item) in after.items where before.items[id] != item { items[id] = item }
        var tombstones: [ItemID: Tombstone] = [:]
        for (id, tombstone) in after.tombstones where before.tombstones[id] != tombstone { tombstones[id] = tombstone }
        var attachments: [AttachmentID: Attachment] = [:]
        for (id, attachment) in after.attachments where before.attachments[id] != attachment { attachments[id] = attachment }
        // Only moves between `items` and `tombstones` are expressible: nothing may vanish.
        if after.items.count + after.tombstones.count < before.items.count + before.tombstones.count { return nil }
        for id in before.items.keys where after.items[id] == nil && after.tombstones[id] == nil { return nil }
        for id in before.tombstones.keys where after.tombstones[id] == nil && after.items[id] == nil { return nil }
        for id in before.attachments.keys where after.attachments[id] == nil { return nil }
        document = TripDocument(
            tripID: after.tripID, deviceID: after.deviceID, clock: after.clock, trip: after.trip, devices: after.devices, items: items,
            tombstones: tombstones, acks: after.acks, owner: after.owner, members: after.members, attachments: attachments,
            successions: after.successions)
    }

    private init(document: TripDocument) {
        self.document = document
    }

    /// The record's payload: the delta document's canonical JSON.
    package var payload: [UInt8] { CanonicalWriter.encode(document) }

    /// A record's payload read back: the decoder's checks of types, keys and register order
    /// (the values were checked as edits when they were made, and the record's checksum says
    /// they are the bytes written). Nil, with the first problem, when it does not decode.
    package static func decode(_ payload: ArraySlice<UInt8>) -> Result<JournalDelta, EditJournal.Failure> {
        payload.withUnsafeBufferPointer { buffer -> Result<JournalDelta, EditJournal.Failure> in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .failure(EditJournal.Failure(message: "an empty record", offset: nil)) }
            var decoder = DocumentDecoder(scanner: JSONScanner(base: base, count: buffer.count), zones: nil)
            do {
                guard let document = try decoder.decode() else {
                    let first = decoder.context.issues.first.map { "\($0)" } ?? "not a trip document"
                    return .failure(EditJournal.Failure(message: "a record that does not decode (\(first))", offset: nil))
                }
                return .success(JournalDelta(document: document))
            } catch {
                return .failure(EditJournal.Failure(message: "a record that is not JSON (\(error))", offset: nil))
            }
        }
    }

    /// Checks the record's values as a reader checks a file's (`DocumentValidator`: dots and
    /// `seen` against the record's clock, zones, an end before its start, grants, attachments),
    /// with the items its attachments name taken from `target`. Grants and the owner's claim
    /// are verified only when the record changes them (they are the same signatures again
    /// otherwise, checked when the replica or an earlier record was read).
    package func check(against target: TripDocument, validator: DocumentValidator) throws(EditJournal.Failure) {
        var check = document
        for attachment in check.attachments.values {
            guard let item = attachment.item?.value, check.items[item] == nil, check.tombstones[item] == nil else { continue }
            if let live = target.items[item] {
                check.items[item] = live
            } else if let dead = target.tombstones[item] {
                check.tombstones[item] = dead
            }
        }
        if check.owner == target.owner && check.members == target.members {
            check.owner = nil
            check.members = [:]
        }
        if let error = validator.issues(in: check).first(where: { $0.severity == .error }) {
            throw EditJournal.Failure(message: "a record whose values do not check (\(error))", offset: nil)
        }
    }

    /// Sets every part the record holds in `document`. Throws when the record is of another trip.
    package func apply(to target: inout TripDocument) throws(EditJournal.Failure) {
        guard document.tripID == target.tripID else {
            throw EditJournal.Failure(message: "a record of trip \(document.tripID), not of this trip (\(target.tripID))", offset: nil)
        }
        target.deviceID = document.deviceID
        target.clock = document.clock
        target.trip = document.trip
        target.devices = document.devices
        target.acks = document.acks
        target.owner = document.owner
        target.members = document.members
        target.successions = document.successions
        for (id, item) in document.items {
            target.items[id] = item
            if target.tombstones[id] != nil { target.tombstones[id] = nil }
        }
        for (id, tombstone) in document.tombstones {
            target.tombstones[id] = tombstone
            if target.items[id] != nil { target.items[id] = nil }
        }
        for (id, attachment) in document.attachments { target.attachments[id] = attachment }
    }
}
