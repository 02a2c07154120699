/// An attachment's id (a UUID, like an item's).
public typealias AttachmentID = Identifier

/// The bytes an attachment names: their SHA-256, size and type (sniffed from the first bytes,
/// never taken from the file name). docs/DESIGN.md, "Attachments".
package struct BlobReference: Hashable, Sendable {
    /// Lowercase hex of the SHA-256 of the bytes (64 characters); also the blob's file name.
    package var sha256: String
    /// The size in bytes.
    package var size: Int64
    /// The media type, such as `image/jpeg` or `application/pdf`.
    package var type: String
    /// In an owned trip (schema 7), how the bytes are sealed in the trip folder: the name, size
    /// and key of the sealed copy; nil for bytes kept plain (an open trip, or an attachment
    /// written before schema 7).
    package var sealed: SealedBlob?

    /// Creates a reference.
    package init(sha256: String, size: Int64, type: String, sealed: SealedBlob? = nil) {
        self.sha256 = sha256
        self.size = size
        self.type = type
        self.sealed = sealed
    }

    /// The name of its bytes in a trip folder: the sealed copy's when sealed, the plaintext's
    /// otherwise.
    package var folderSHA256: String { sealed?.sha256 ?? sha256 }

    /// Whether `text` is 64 lowercase hex digits.
    package static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `text` is a media type of the form `type/subtype` in lower case (letters, digits
    /// and `.+-`), at most 100 bytes.
    package static func isMediaType(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 100, let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > 0, slash < bytes.count - 1 else { return false }
        func ok(_ byte: UInt8) -> Bool {
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E || byte == 0x2B || byte == 0x2D
        }
        return bytes[..<slash].allSatisfy(ok) && bytes[(slash + 1)...].allSatisfy(ok)
    }

    /// The largest size a reference may state (1 TiB): a bound on hostile values, not the
    /// per-attachment limit a home applies (`Home` settings).
    package static let maxSize: Int64 = 1 << 40
}

/// The fields of an attachment, in canonical (byte) order of their names.
package enum AttachmentField: String, CaseIterable, Hashable, Sendable {
    /// The bytes: digest, size and type.
    case blob
    /// Free text about it, or null.
    case caption
    /// The item it belongs to.
    case item
    /// The name it was attached under (the file's name, for `extract`).
    case name
}

/// One attachment: the item it belongs to, the bytes it names, its name and caption, each a
/// register that merges like an item's; and, when it was detached, the `deleted` register.
///
/// A live attachment holds all four registers. A detached one keeps them (so a restore brings
/// it back, and a caption written while it was detached stays visible), and holds `deleted`.
/// An attachment whose item is deleted is hidden, not deleted: restoring the item brings it back.
package struct Attachment: Hashable, Sendable {
    /// The item it belongs to.
    package var item: Register<ItemID>?
    /// The bytes it names.
    package var blob: Register<BlobReference>?
    /// The name it was attached under.
    package var name: Register<String>?
    /// The caption, or null.
    package var caption: Register<String?>?
    /// Present when detached; concurrent detaches leave one value each.
    package var deleted: Register<Deletion>?

    /// Creates an attachment.
    package init(
        item: Register<ItemID>? = nil, blob: Register<BlobReference>? = nil, name: Register<String>? = nil,
        caption: Register<String?>? = nil, deleted: Register<Deletion>? = nil
    ) {
        self.item = item
        self.blob = blob
        self.name = name
        self.caption = caption
        self.deleted = deleted
    }

    /// Whether all four registers are present.
    package var isComplete: Bool { item != nil && blob != nil && name != nil && caption != nil }

    /// Whether it was detached (and not restored since).
    package var isDetached: Bool { deleted != nil }

    /// Every dot it holds, with the field's name (`deleted` for the delete register).
    package var dots: [(field: String, rev: Rev)] {
        var result: [(field: String, rev: Rev)] = []
        func add<V>(_ field: String, _ register: Register<V>?) {
            guard let register else { return }
            result.append((field, register.rev))
            for conflict in register.conflicts { result.append((field, conflict.rev)) }
        }
        add("blob", blob)
        add("caption", caption)
        add("deleted", deleted)
        add("item", item)
        add("name", name)
        return result
    }

    /// Whether any register holds a conflict.
    package var hasConflicts: Bool {
        !(item?.conflicts.isEmpty ?? true) || !(blob?.conflicts.isEmpty ?? true) || !(name?.conflicts.isEmpty ?? true)
            || !(caption?.conflicts.isEmpty ?? true)
    }
}
