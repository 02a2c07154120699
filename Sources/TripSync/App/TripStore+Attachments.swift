import Foundation
import TripSyncPlatform
import TripSyncCore
import TripSyncHome
import TripSyncSync

/// One attachment as a person sees it (`attachments --json`): the registers' current values
/// and where its bytes are.
public struct AttachmentEntry: Hashable, Sendable {
    /// Where an attachment's bytes are, from this laptop's point of view.
    public enum State: String, Hashable, Sendable {
        /// Attached here, bytes in this home, not yet in any folder: only this laptop sees it.
        case staged
        /// In the trip, with its bytes in this home (checked against their hash when used).
        case shared
        /// In the trip, its bytes not here yet (they travel on their own): a later sync fetches them.
        case arriving
        /// Bytes that arrived did not match their hash: never used, fetched again.
        case quarantined
    }

    /// The attachment's id.
    public var id: AttachmentID
    /// The item it belongs to.
    public var item: ItemID
    /// The name it was attached under.
    public var name: String
    /// The caption, or nil.
    public var caption: String?
    /// The bytes it names (their digest, size, type and sealed copy: the library's own).
    package var blob: BlobReference
    /// Where the bytes are.
    public var state: State
    /// Whether the caption (or another register) holds a conflict.
    public var hasConflict: Bool
    /// The caption's conflict: the caption shown and the others written at once, to settle with
    /// `TripEditor.resolveCaption(of:keeping:)`; nil when it holds one value (the same conflict
    /// `ConflictList.registers` lists for a shown attachment).
    public var captionConflict: RegisterConflict?
    /// Whether it is detached (listed only when asked for).
    public var isDetached: Bool

    /// The media type of its bytes, such as `image/jpeg` or `application/pdf` (sniffed from the
    /// bytes, never taken from the name).
    public var type: String { blob.type }
    /// The size of its bytes.
    public var size: Int64 { blob.size }
}

extension AttachmentEntry {
    /// Every attachment of `document` (or of `item`) as `home` sees it: staged ones first, then
    /// by item and name; detached ones only with `detached`; an attachment of a deleted item is
    /// hidden unless `item` names that item. Reads the home's staged list and stats its blobs
    /// (no blob is read); creates nothing.
    package static func list(in document: TripDocument, home: Home, of item: ItemID? = nil, detached: Bool = false) throws -> [AttachmentEntry] {
        let blobs = home.layout.blobs + "/"
        // No quarantine folder yet means nothing was quarantined; any other failure is told.
        let quarantinePath = home.layout.quarantine
        let quarantined = try FileIO.folderTextNames(quarantinePath, what: "this home's attachment quarantine")
        let quarantine = Set(quarantined.map { String($0.prefix(64)) })
        func held(_ blob: BlobReference) -> Bool {
            guard BlobID(blob.sha256) != nil, let (stamp, isRegular, _, _) = SyncState.stamp(blobs + blob.sha256) else { return false }
            return isRegular && stamp.size == blob.size
        }
        var result: [AttachmentEntry] = []
        for entry in try StagedAttachments.load(home, document.tripID).entries where item == nil || entry.item == item {
            result.append(
                AttachmentEntry(
                    id: entry.id, item: entry.item, name: entry.name, caption: entry.caption, blob: entry.blob, state: .staged,
                    hasConflict: false, captionConflict: nil, isDetached: false))
        }
        var shared: [AttachmentEntry] = []
        for (id, attachment) in document.attachments {
            guard let itemID = attachment.item?.value, let blob = attachment.blob?.value, let name = attachment.name?.value else { continue }
            if let item, itemID != item { continue }
            if attachment.isDetached {
                if !detached { continue }
            } else if item == nil && !document.isShown(id) {
                continue
            }
            // A sealed copy that did not open is quarantined under its own name.
            let refused = quarantine.contains(blob.sha256) || blob.sealed.map { quarantine.contains($0.sha256) } == true
            let state: AttachmentEntry.State = held(blob) ? .shared : refused ? .quarantined : .arriving
            shared.append(
                AttachmentEntry(
                    id: id, item: itemID, name: name, caption: attachment.caption?.value ?? nil, blob: blob, state: state,
                    hasConflict: attachment.hasConflicts,
                    captionConflict: attachment.caption.flatMap { RegisterConflict(.caption(id, item: itemID), $0) }, isDetached: attachment.isDetached))
        }
        shared.sort { ($0.item, $0.name, $0.id) < ($1.item, $1.name, $1.id) }
        return result + shared
    }
}

/// What `attach` did: the staged attachment, and what it found about the photo's location.
public struct AttachOutcome: Hashable, Sendable {
    /// The attachment, staged (shown on this laptop as not yet shared).
    public var entry: AttachmentEntry
    /// Where the photo says it was taken (Exif or XMP GPS of a JPEG, PNG, WebP or HEIC), before
    /// any strip; `.notPhoto` for other types.
    package var location: JPEGLocation.Finding
    /// Whether the stored copy is without the location (`stripLocation`).
    public var stripped: Bool
}

/// Why an attachment command could not run (the message says what to do).
package struct AttachmentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What a person reads.
    package var message: String
    /// Creates an error.
    package init(_ message: String) { self.message = message }
    /// The message.
    package var description: String { message }
}

extension TripStore {
    /// The largest attachment `attach` takes unless told otherwise: 100 MiB.
    public static var defaultAttachmentLimit: Int64 { BlobStore.defaultLimit }

    /// Attaches the file at `path` to the live item `item` (docs/DESIGN.md, "Attachments"):
    /// the bytes are copied into this home at once (hashed while copied, refused above the
    /// home's limit) and the attachment is staged; the next sync puts the bytes into the trip
    /// folder and only then writes it into the trip. In an owned trip the bytes are also sealed
    /// at once under a key of their own, and only that sealed copy ever goes into the folder
    /// (docs/DESIGN.md, "Encryption: sealed attachments"). A photo (JPEG, PNG, WebP, HEIC) recording
    /// where it was taken is reported; with `stripLocation` the stored copy has no location, and
    /// a file whose location cannot be removed (another type, some HEIC files) is refused.
    /// Refused on a laptop that may not change the trip.
    public func attach(file path: String, to item: ItemID, caption: String?, stripLocation: Bool, limit: Int64 = TripStore.defaultAttachmentLimit) throws -> AttachOutcome {
        try TripError.door { try attachLocked(file: path, to: item, caption: caption, stripLocation: stripLocation, limit: limit) }
    }

    private func attachLocked(file path: String, to item: ItemID, caption: String?, stripLocation: Bool, limit: Int64) throws -> AttachOutcome {
        try locked {
            try checkMayEdit()
            _ = try state.document.liveItem(item)
            let name = AttachmentNames.name(forFile: path)
            // Name and caption before the bytes: a refused attachment copies nothing.
            try TripDocument.checkAttachmentText(name: name, caption: caption)
            let store = try BlobStore(home: home.path, limit: limit)
            var stored: BlobCopyResult
            do throws(BlobError) {
                stored = try store.add(file: path)
            } catch {
                // The person's own file: say so in their words, not the store's.
                if error.reason == .missing { throw AttachmentError("\(path): no such file; nothing was attached") }
                throw error
            }
            // Every photo type whose location is read (JPEG, PNG, WebP, HEIC) is reported; with
            // stripLocation, a type that cannot be stripped is refused rather than stored as is.
            let type = stored.type ?? .octetStream
            let isPhoto = PhotoLocation.readTypes.contains(type)
            let bytes = isPhoto ? try store.bytes(of: stored.blob) : []
            let location = isPhoto ? PhotoLocation.find(in: bytes) : .notPhoto
            var stripped = false
            if stripLocation {
                let original = stored.blob
                let result: JPEGLocation.Stripped
                do throws(PhotoLocationError) {
                    guard isPhoto else { throw PhotoLocationError(type: type, finding: .notPhoto) }
                    result = try PhotoLocation.strip(bytes)
                } catch {
                    try discardUnnamed(original, in: store)
                    throw AttachmentError("\(path): --strip-location: \(error); nothing was attached (attach it without --strip-location to share it as it is)")
                }
                if !result.changes.isEmpty {
                    // result.finding is what the input recorded; the copy is read again.
                    let left = PhotoLocation.find(in: result.bytes)
                    guard !left.recordsLocation else {
                        try discardUnnamed(original, in: store)
                        throw AttachmentError("\(path): the location could not be removed safely (\(left)); not attached")
                    }
                    stored = try store.add(bytes: result.bytes)
                    stripped = true
                    // The copy that records the location is not kept (unless an attachment names it).
                    try discardUnnamed(original, in: store)
                }
            }
            var reference = BlobReference(sha256: stored.blob.hex, size: stored.size, type: (stored.type ?? .octetStream).rawValue)
            try TripDocument.checkAttachment(name: name, caption: caption, blob: reference)
            if state.document.owner != nil {
                // An owned trip's bytes reach its folder only sealed: sealed now, under a fresh
                // key, so the sync shares (and resumes) this one sealed copy (docs/DESIGN.md,
                // "Encryption: sealed attachments").
                reference.sealed = try store.seal(stored.blob, tripID: state.document.tripID)
            }
            let entry = StagedAttachments.Entry(
                id: Identifier.random(), item: item, blob: reference, name: name, caption: caption,
                stagedAt: UTCTimestamp(millisecondsSinceEpoch: FileMerger.wallClockMilliseconds()))
            var staged = try StagedAttachments.load(home, state.document.tripID)
            staged.entries.append(entry)
            try staged.save(home, state.document.tripID)
            let shown = AttachmentEntry(
                id: entry.id, item: item, name: name, caption: caption, blob: reference, state: .staged, hasConflict: false, captionConflict: nil, isDetached: false)
            return AttachOutcome(entry: shown, location: location, stripped: stripped)
        }
    }

    /// Removes blob `id` from the home when no attachment of any trip here names it (a copy
    /// `attach` made and did not use); kept when a trip file cannot be read (it may name it).
    private func discardUnnamed(_ id: BlobID, in store: BlobStore) throws {
        let (names, _, _, unreadable) = try BlobCleanup.homeNames(home)
        guard unreadable.isEmpty, !names.values.contains(where: { $0.contains(id.hex) }) else { return }
        _ = try store.remove(id)
    }

    /// Every attachment of the trip (or of `item`), staged ones first, then by item and name;
    /// detached ones only with `detached`. An attachment of a deleted item is hidden.
    public func attachments(of item: ItemID? = nil, detached: Bool = false) throws -> [AttachmentEntry] {
        try TripError.door { try locked { try AttachmentEntry.list(in: state.document, home: home, of: item, detached: detached) } }
    }

    /// The attachment (staged, live or detached) whose id is or starts with `text` (at least 4
    /// characters); throws a `TripError` (`.notFound`, `.ambiguous`, `.invalidValue` for too short a prefix).
    public func attachment(_ text: String) throws -> AttachmentEntry { try TripError.door { try findAttachment(text) } }

    /// `attachment(_:)`, throwing the library's own errors.
    private func findAttachment(_ text: String) throws -> AttachmentEntry {
        switch ItemLookup.match(text, among: try attachments(detached: true), id: \.id.description) {
        case .one(let found): return found
        case .tooShort:
            throw EditError(.shortItemPrefix, "attachment id '\(text)' is too short: give at least \(ItemLookup.minimumPrefix) characters of the id")
        case .none:
            throw EditError(.noSuchAttachment, "no attachment matches '\(text)'", remedy: "the trip's attachments list names them", facts: ErrorFacts(item: text, thing: "attachment"))
        case .several(let matches):
            let lines = matches.map { "hint:   \($0.id)  \($0.name)" + ($0.isDetached ? " (detached)" : $0.state == .staged ? " (staged)" : "") }
            throw EditError(
                .ambiguousItem, "attachment id '\(text)' matches \(matches.count) attachments; type more of the id\n" + (["hint: the candidates are:"] + lines).joined(separator: "\n"))
        }
    }

    /// The bytes of attachment `id`, checked against their hash; an attachment whose bytes
    /// are not here says so.
    public func bytes(of id: AttachmentID) throws -> [UInt8] { try TripError.door { try readBytes(of: id) } }

    /// `bytes(of:)`, throwing the library's own errors.
    private func readBytes(of id: AttachmentID) throws -> [UInt8] {
        let entry = try attachment(id.description)
        guard let blob = BlobID(entry.blob.sha256) else { throw AttachmentError("attachment \(id) names no valid SHA-256") }
        guard entry.state == .shared || entry.state == .staged else {
            throw AttachmentError("\(entry.name): its bytes have not arrived on this laptop yet (\(entry.state.rawValue)); sync again once they have")
        }
        return try TripError.door { try BlobStore(home: home.path).bytes(of: blob) }
    }

    /// Writes the caption of attachment `id` (nil clears it): in the staged list when it is not
    /// shared yet, else a register write merged like any field (a write that has seen a
    /// caption's conflict settles it). False when the caption was already that, with no
    /// conflict. Refused for a detached attachment, a caption readers would refuse, or a laptop
    /// that may not change the trip.
    @discardableResult
    public func setCaption(_ id: AttachmentID, to caption: String?) throws -> Bool { try TripError.door { try writeCaption(id, to: caption) } }

    /// `setCaption(_:to:)`, throwing the library's own errors.
    private func writeCaption(_ id: AttachmentID, to caption: String?) throws -> Bool {
        let staged = try locked { () throws -> Bool? in
            var staged = try StagedAttachments.load(home, state.document.tripID)
            guard let index = staged.entries.firstIndex(where: { $0.id == id }) else { return nil }
            try checkMayEdit()
            try TripDocument.checkAttachmentText(name: staged.entries[index].name, caption: caption)
            guard staged.entries[index].caption != caption else { return false }
            staged.entries[index].caption = caption
            try staged.save(home, state.document.tripID)
            return true
        }
        if let staged { return staged }
        return try edit { trip in try trip.setCaption(id, to: caption) }
    }

    /// Drops a staged attachment (it was never shared), or detaches a shared one (a write: a
    /// tombstone, restorable; a detach beats a concurrent caption edit).
    public func detach(_ id: AttachmentID) throws { try TripError.door { try dropOrDetach(id) } }

    /// `detach(_:)`, throwing the library's own errors.
    private func dropOrDetach(_ id: AttachmentID) throws {
        let dropped = try locked { () throws -> Bool in
            var staged = try StagedAttachments.load(home, state.document.tripID)
            guard let index = staged.entries.firstIndex(where: { $0.id == id }) else { return false }
            try checkMayEdit()
            staged.entries.remove(at: index)
            try staged.save(home, state.document.tripID)
            return true
        }
        if !dropped { try edit { trip in try trip.detach(id) } }
    }
}

/// The name an attachment takes from a file's path.
enum AttachmentNames {
    /// The file's last path component, made a valid attachment name: control characters and
    /// `\` become `_`, cut to 255 characters; "attachment" when nothing is left.
    static func name(forFile path: String) -> String {
        var base = FileIO.baseName(of: path)
        base = String(String.UnicodeScalarView(base.unicodeScalars.map { TextRule.isControl($0.value) || $0 == "\\" ? "_" : $0 }))
        if base.unicodeScalars.count > 255 { base = String(String.UnicodeScalarView(base.unicodeScalars.suffix(255))) }
        if base.isEmpty || base == "." || base == ".." { return "attachment" }
        return base
    }
}

extension AttachmentError: TripSyncError {
    /// `.refused`: an attachment refused.
    package var errorKind: TripSyncErrorKind { .refused }
}
