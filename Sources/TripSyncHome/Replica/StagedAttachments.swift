import Foundation
import TripSyncPlatform
import TripSyncCore

/// Attachments made on this laptop whose bytes no folder has yet: `HOME/staged/<tripId>.json`,
/// mode 0600, never in a trip file (docs/DESIGN.md, "Attachments"). The next sync copies each
/// one's bytes into the trip folder and only then writes the attachment into the trip, so no
/// published state names bytes its writer has not delivered.
package struct StagedAttachments: Sendable, Equatable {
    /// One staged attachment: what `attach` will write into the trip once its bytes are shared.
    package struct Entry: Sendable, Equatable {
        package var id: AttachmentID
        package var item: ItemID
        package var blob: BlobReference
        package var name: String
        package var caption: String?
        package var stagedAt: UTCTimestamp

        package init(id: AttachmentID, item: ItemID, blob: BlobReference, name: String, caption: String?, stagedAt: UTCTimestamp) {
            self.id = id
            self.item = item
            self.blob = blob
            self.name = name
            self.caption = caption
            self.stagedAt = stagedAt
        }
    }

    /// The staged attachments, in the order they were made.
    package var entries: [Entry] = []

    /// No staged attachments.
    package init() {}

    /// The file of `trip` in `home`.
    package static func path(_ home: Home, _ trip: TripID) -> String { home.layout.staged(trip) }

    /// Reads the file as untrusted input; an absent file is an empty list.
    package static func load(_ home: Home, _ trip: TripID) throws -> StagedAttachments {
        let path = path(home, trip)
        guard FileManager.default.fileExists(atPath: path) else { return StagedAttachments() }
        func bad(_ pointer: String) -> FileSystemError {
            FileSystemError(path: path, message: "this home's list of attachments not yet shared is damaged at \(pointer); move it away (its photos stay in HOME/blobs) and attach them again")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(try FileIO.readFile(path, maxBytes: 16 << 20))
        } catch let error as FileSystemError {
            throw error
        } catch {
            throw bad("the top (not JSON)")
        }
        guard case .array(let list)? = json["staged"] else { throw bad("/staged") }
        var staged = StagedAttachments()
        for (index, entry) in list.enumerated() {
            let pointer = "/staged/\(index)"
            guard let id = entry["id"]?.stringValue.flatMap(Identifier.init) else { throw bad(pointer + "/id") }
            guard let item = entry["item"]?.stringValue.flatMap(Identifier.init) else { throw bad(pointer + "/item") }
            guard let sha = entry["sha256"]?.stringValue, BlobReference.isDigest(sha) else { throw bad(pointer + "/sha256") }
            guard let size = entry["size"]?.intValue, (0...BlobReference.maxSize).contains(size) else { throw bad(pointer + "/size") }
            guard let type = entry["type"]?.stringValue, BlobReference.isMediaType(type) else { throw bad(pointer + "/type") }
            guard let name = entry["name"]?.stringValue, AttachmentRules.nameProblem(name) == nil else { throw bad(pointer + "/name") }
            let caption: String?
            switch entry["caption"] {
            case .null?, nil: caption = nil
            case .string(let text)?:
                guard TextRule.caption.violation(in: text) == nil else { throw bad(pointer + "/caption") }
                caption = text
            default: throw bad(pointer + "/caption")
            }
            guard let at = entry["stagedAt"]?.stringValue.flatMap(LocalTimeParser.timestamp) else { throw bad(pointer + "/stagedAt") }
            // An owned trip's attachment is sealed when it is staged (one key, one sealed copy,
            // so an interrupted share resumes): the sealed copy's key, name and exact size.
            var sealed: SealedBlob?
            if let value = entry["sealed"] {
                guard let key = value["key"]?.stringValue.flatMap({ Base64.decode($0, count: SealedBlob.keyBytes) }),
                    let digest = value["sha256"]?.stringValue, BlobReference.isDigest(digest),
                    let sealedSize = value["size"]?.intValue, sealedSize == SealedBlob.sealedSize(plaintext: size)
                else { throw bad(pointer + "/sealed") }
                sealed = SealedBlob(sha256: digest, size: sealedSize, key: key)
            }
            staged.entries.append(
                Entry(
                    id: id, item: item, blob: BlobReference(sha256: sha, size: size, type: type, sealed: sealed), name: name, caption: caption,
                    stagedAt: at))
        }
        return staged
    }

    /// Writes the list atomically and durably (0600); an empty list removes the file.
    package func save(_ home: Home, _ trip: TripID) throws {
        let path = StagedAttachments.path(home, trip)
        if entries.isEmpty {
            if unlink(path) != 0 && errno != ENOENT { throw FileIO.systemError(path, "remove") }
            return
        }
        try FileIO.makeFolder(home.layout.staged)
        let list: [JSONValue] = entries.map { entry in
            var members: [String: JSONValue] = [
                "id": .string(entry.id.description), "item": .string(entry.item.description), "sha256": .string(entry.blob.sha256),
                "size": .int(entry.blob.size), "type": .string(entry.blob.type), "name": .string(entry.name),
                "caption": entry.caption.map(JSONValue.string) ?? .null, "stagedAt": .string(entry.stagedAt.description),
            ]
            if let sealed = entry.blob.sealed {
                members["sealed"] = ["key": .string(sealed.keyBase64), "sha256": .string(sealed.sha256), "size": .int(sealed.size)]
            }
            return .object(members)
        }
        let json: JSONValue = ["staged": .array(list)]
        try FileIO.writeAtomically(Array((json.text + "\n").utf8), to: path, mode: 0o600)
    }
}
