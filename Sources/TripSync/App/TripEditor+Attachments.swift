import TripSyncCore

/// Attachment writes through the editor (docs/DESIGN.md, "Attachments"). Attaching is not
/// here: an attachment enters the trip only through the sync that delivered its bytes
/// (`TripStore.attach` stages it).
extension TripEditor {
    /// Writes the caption of a live attachment; false when it already had that caption.
    @discardableResult
    package mutating func setCaption(_ id: AttachmentID, to caption: String?) throws(EditError) -> Bool {
        let changed = try document.setCaption(id, to: caption, hlc: &clock, now: now)
        if changed { wrote = true }
        return changed
    }

    /// Detaches a live attachment: restorable, and it beats a concurrent caption edit.
    package mutating func detach(_ id: AttachmentID) throws(EditError) {
        try document.detach(id, at: UTCTimestamp(millisecondsSinceEpoch: now), hlc: &clock, now: now)
        wrote = true
    }

    /// Brings a detached attachment back with everything it held.
    public mutating func restoreAttachment(_ id: AttachmentID) throws(TripError) {
        try TripError.typed {
            try document.restoreAttachment(id, hlc: &clock, now: now)
            wrote = true
        }
    }
}
