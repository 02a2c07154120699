/// Attachment writes (docs/DESIGN.md, "Attachments"). Each either writes all its registers
/// or nothing: the stamps come from copies of the clocks, kept only when every one was issued.
extension TripDocument {
    /// Adds attachment `id` to the live item `item` (or, with `toDeletedItem`, to a deleted
    /// one: an attachment staged before a companion deleted its item is kept, hidden until the
    /// item is restored): four registers under new dots.
    ///
    /// The caller has already delivered `blob`'s bytes to every folder it publishes to (a
    /// state never names bytes its writer has not delivered).
    package mutating func attach(
        _ id: AttachmentID, item: ItemID, blob: BlobReference, name: String, caption: String?,
        hlc: inout HybridLogicalClock, now: UInt64, toDeletedItem: Bool = false
    ) throws(EditError) {
        guard attachments[id] == nil else { throw EditError(.itemExists, "an attachment \(id) exists already") }
        if !(toDeletedItem && tombstones[item] != nil) { _ = try liveItem(item) }
        try Self.checkAttachment(name: name, caption: caption, blob: blob)
        var newHLC = hlc
        var newClock = clock
        let device = deviceID
        func stamp() throws(EditError) -> Rev { try Self.stamp(&newHLC, &newClock, device: device, now: now) }
        let attachment = Attachment(
            item: Register(value: item, rev: try stamp()), blob: Register(value: blob, rev: try stamp()),
            name: Register(value: name, rev: try stamp()), caption: Register(value: caption, rev: try stamp()))
        attachments[id] = attachment
        clock = newClock
        hlc = newHLC
    }

    /// Writes the caption of live attachment `id`; false when it already has that caption and
    /// no conflict.
    @discardableResult
    package mutating func setCaption(_ id: AttachmentID, to caption: String?, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) -> Bool {
        var attachment = try liveAttachment(id)
        if let violation = caption.flatMap({ TextRule.caption.violation(in: $0) }) {
            throw EditError("caption: " + TextRule.caption.message(for: violation, what: "a caption"))
        }
        if let current = attachment.caption, current.value == caption, current.conflicts.isEmpty { return false }
        attachment.caption = Register(value: caption, rev: try stamp(&hlc, now: now))
        attachments[id] = attachment
        return true
    }

    /// Writes live attachment `id`'s blob again with `sealed`, the sealed copy of the same plain
    /// bytes (re-sealing an attachment written before schema 7): one new dot on the `blob`
    /// register, the plain `sha256`, `size` and `type` unchanged. Refused when the blob is
    /// sealed already or holds a conflict (the person settles that first).
    ///
    /// The caller has already delivered the sealed bytes to every folder it publishes to.
    package mutating func sealBlob(_ id: AttachmentID, with sealed: SealedBlob, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        var attachment = try liveAttachment(id)
        guard let register = attachment.blob, register.value.sealed == nil, register.conflicts.isEmpty else {
            throw EditError("attachment \(id): its bytes are sealed already, or its blob holds a conflict")
        }
        var value = register.value
        value.sealed = sealed
        try Self.checkAttachment(name: attachment.name?.value ?? "attachment", caption: nil, blob: value)
        attachment.blob = Register(value: value, rev: try stamp(&hlc, now: now))
        attachments[id] = attachment
    }

    /// Detaches live attachment `id`: its registers stay (a restore brings it back), and the
    /// delete value records when and what this replica had seen.
    package mutating func detach(_ id: AttachmentID, at: UTCTimestamp, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        var attachment = try liveAttachment(id)
        let seen = clock
        attachment.deleted = Register(value: Deletion(at: at, seen: seen), rev: try stamp(&hlc, now: now))
        attachments[id] = attachment
    }

    /// Brings detached attachment `id` back: every register re-stamped with a new dot (a
    /// caption written while detached included), and the detach values replaced.
    package mutating func restoreAttachment(_ id: AttachmentID, hlc: inout HybridLogicalClock, now: UInt64) throws(EditError) {
        guard var attachment = attachments[id] else { throw EditError(.noSuchAttachment, "no attachment \(id)") }
        guard attachment.isDetached else { throw EditError(.attachmentNotDetached, "attachment \(id) is not detached") }
        guard let item = attachment.item, let blob = attachment.blob, let name = attachment.name else {
            throw EditError(.noSuchAttachment, "attachment \(id) keeps too little to restore (no item, bytes or name)")
        }
        var newHLC = hlc
        var newClock = clock
        let device = deviceID
        func stamp() throws(EditError) -> Rev { try Self.stamp(&newHLC, &newClock, device: device, now: now) }
        // Each winner takes a new dot; conflicting values stay listed, as an item's restore keeps them.
        func restamp<V>(_ register: Register<V>) throws(EditError) -> Register<V> {
            var restored = register
            restored.rev = try stamp()
            return restored
        }
        attachment.item = try restamp(item)
        attachment.blob = try restamp(blob)
        attachment.name = try restamp(name)
        attachment.caption = try restamp(attachment.caption ?? Register(value: nil, rev: Rev(counter: 1, device: device)))
        attachment.deleted = nil
        attachments[id] = attachment
        clock = newClock
        hlc = newHLC
    }

    /// Refuses a name or caption readers would refuse (checked before any byte is copied).
    package static func checkAttachmentText(name: String, caption: String?) throws(EditError) {
        if let problem = AttachmentRules.nameProblem(name) { throw EditError("name: " + problem) }
        if let violation = caption.flatMap({ TextRule.caption.violation(in: $0) }) {
            throw EditError("caption: " + TextRule.caption.message(for: violation, what: "a caption"))
        }
    }

    /// The live (not detached) attachment `id`.
    package func liveAttachment(_ id: AttachmentID) throws(EditError) -> Attachment {
        guard let attachment = attachments[id] else { throw EditError(.noSuchAttachment, "no attachment \(id)") }
        guard !attachment.isDetached else { throw EditError(.attachmentDetached, "attachment \(id) is detached; restore it first") }
        return attachment
    }

    /// Refuses an attachment readers would refuse.
    package static func checkAttachment(name: String, caption: String?, blob: BlobReference) throws(EditError) {
        try checkAttachmentText(name: name, caption: caption)
        guard BlobReference.isDigest(blob.sha256), (0...BlobReference.maxSize).contains(blob.size), BlobReference.isMediaType(blob.type) else {
            throw EditError("blob: expected a SHA-256 as 64 lowercase hex digits, a size in bytes and a media type")
        }
        if let sealed = blob.sealed {
            guard BlobReference.isDigest(sealed.sha256), sealed.key.count == SealedBlob.keyBytes, sealed.size == SealedBlob.sealedSize(plaintext: blob.size)
            else {
                throw EditError("blob.sealed: expected the sealed bytes' SHA-256, their exact size and a 32-byte key")
            }
        }
    }

    /// Whether attachment `id` is shown: live, and its item live (an attachment of a deleted
    /// item is hidden until the item is restored).
    package func isShown(_ id: AttachmentID) -> Bool {
        guard let attachment = attachments[id], !attachment.isDetached, let item = attachment.item?.value else { return false }
        return items[item] != nil
    }

    /// How many shown attachments each live item has.
    package var shownAttachmentCounts: [ItemID: Int] {
        var counts: [ItemID: Int] = [:]
        for (id, attachment) in attachments where isShown(id) {
            if let item = attachment.item?.value { counts[item, default: 0] += 1 }
        }
        return counts
    }
}
