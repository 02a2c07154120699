import TripSyncPlatform
import TripSyncCore

/// Sealed attachments (schema 7, docs/DESIGN.md "Sealed attachments"): an owned trip's blob
/// goes into its trip folder only as a sealed copy, made here once with a fresh random key and
/// kept in `HOME/blobs/sealed/` so the same bytes can be put into the folder again (a removed
/// folder copy, a resumed copy). The plain bytes stay in `HOME/blobs/` for the home's readers.
extension BlobStore {
    /// The path of the sealed copy named `id` in the home, as printed.
    package func sealedPath(of id: BlobID) -> String { sealedFolder.display(id.entryName) }

    /// Whether the home holds the sealed copy `sealed` (of its size): one `stat`, no read.
    package func containsSealed(_ sealed: SealedBlob) -> Bool {
        guard let id = BlobID(sealed.sha256) else { return false }
        return BlobPresence.look(id, in: sealedFolder, size: sealed.size) == .present
    }

    /// Whether the sealed copy `sealed` was refused here before (it is in the quarantine as
    /// `<sha256>.sealed-refused`): the same bytes with the same key would be refused again, so
    /// they are not fetched at every sync. Removing the quarantined file lets a sync try again.
    package func refusedSealed(_ sealed: SealedBlob) -> Bool {
        quarantine.kind(of: Self.refusedName(sealed.sha256)) != nil
    }

    /// The quarantine's name for a refused sealed copy named `sha256`.
    static func refusedName(_ sha256: String) -> EntryName { EntryName("\(sha256).sealed-refused") }

    /// The sealed copies the home holds (regular files named by a SHA-256), in order.
    package func listSealed() throws(BlobError) -> [BlobID] {
        try BlobPresence.list(sealedFolder)
    }

    /// Removes the sealed copy `id` from the home (for `gc`) durably; true when it was there.
    @discardableResult
    package func removeSealed(_ id: BlobID) throws(BlobError) -> Bool {
        let removed = sealedFolder.remove(id.entryName)
        if removed {
            do { try sealedFolder.synchronize(for: id.entryName, done: "removed") } catch { throw BlobError(error, blob: id) }
        }
        return removed
    }

    /// Seals the home's blob `id`, for trip `tripID`, under a fresh random 32-byte key (never derived from the
    /// bytes, so the same photo sealed twice gives two unrelated copies) and keeps the sealed
    /// copy in `HOME/blobs/sealed/` under its own SHA-256, durably.
    /// - Throws: `BlobError`: the plain blob missing, too large, or not matching its name
    ///   (quarantined), or the file system's failure.
    package func seal(_ id: BlobID, tripID: TripID) throws(BlobError) -> SealedBlob {
        let plaintext = try bytes(of: id)
        let key = Sodium.randomSecret(SealedBlob.keyBytes)
        let sealedBytes = Sodium.streamSeal(plaintext, key: key, additionalData: SealedBlob.additionalData(tripID: tripID, plaintextSHA256: id.hex))
        let name = BlobID(of: sealedBytes)
        do {
            try sealedFolder.writeAtomically(sealedBytes, to: name.entryName)
        } catch {
            throw BlobError(error, blob: name)
        }
        return SealedBlob(sha256: name.hex, size: Int64(sealedBytes.count), key: key.withBytes { Array($0) })
    }

    /// Puts the sealed copy of `reference` into the trip folder: the resumable, verified copy
    /// of `share`, from `HOME/blobs/sealed/`.
    /// - Throws: `BlobError` as `share` does; `.missing` when the home holds no sealed copy.
    package func shareSealed(_ reference: BlobReference, to folder: FolderBlobStore, verifyPresent: Bool = false, progress: BlobProgress? = nil)
        throws(BlobError) -> BlobCopyResult
    {
        guard let sealed = reference.sealed, let id = BlobID(sealed.sha256) else {
            throw BlobError(path: folder.tripFolder.display(FolderBlobStore.folderName), blob: nil, reason: .missing)
        }
        return try share(id, from: sealedFolder, to: folder, verifyPresent: verifyPresent, progress: progress)
    }

    /// Brings the sealed blob `reference` of trip `tripID` from the trip folder into the home: the sealed copy
    /// by the resumable, verified copy of `fetch` (its bytes checked against its name, a
    /// mismatch quarantined) into `HOME/blobs/sealed/`, then opened with its key and checked:
    /// the plaintext must have the reference's size and SHA-256 (the associated data binds it
    /// too). Only then are the plain bytes stored, durably, in `HOME/blobs/`. A sealed copy that
    /// does not open (a flipped byte, a cut stream, another blob's bytes, a wrong key) is moved
    /// to the quarantine and never used. Nothing to do when the home holds the plain bytes.
    /// - Throws: `BlobError` naming the file: missing or incomplete (still arriving), wrong
    ///   size, too large, a mismatch, `.sealRefused`, busy, or the file system's failure.
    package func fetchSealed(_ reference: BlobReference, tripID: TripID, from folder: FolderBlobStore, progress: BlobProgress? = nil) throws(BlobError) -> BlobCopyResult {
        guard let sealed = reference.sealed, let id = BlobID(sealed.sha256), let plain = BlobID(reference.sha256) else {
            throw BlobError(path: folder.tripFolder.display(FolderBlobStore.folderName), blob: nil, reason: .missing)
        }
        if contains(plain, size: reference.size) {
            return BlobCopyResult(blob: plain, size: reference.size, type: nil, resumedFrom: 0, alreadyThere: true)
        }
        guard reference.size <= limit else { throw BlobError(path: folder.path(of: id), blob: id, reason: .tooLarge(size: reference.size, limit: limit)) }
        // The stream of `size` plain bytes has exactly this size (readers check it too).
        guard sealed.size == SealedBlob.sealedSize(plaintext: reference.size) else {
            throw BlobError(path: folder.path(of: id), blob: id, reason: .sealRefused(why: "its size is not the sealed size of the attachment's bytes", quarantined: nil))
        }
        var resumed: Int64 = 0
        if !containsSealed(sealed) {
            guard let source = try folder.blobFolder(create: false) else { throw BlobError(path: folder.path(of: id), blob: id, reason: .missing) }
            let copy = BlobCopy(
                source: source, sourceName: id.entryName, partialFolder: partial, partialName: id.partialName, destination: sealedFolder,
                expected: id, expectedSize: sealed.size, limit: sealed.size, quarantine: quarantine)
            resumed = try copy.run(progress: progress).resumedFrom
        }
        let (file, stamp) = try BlobFile.open(id.entryName, in: sealedFolder, blob: id)
        guard stamp.size == sealed.size else { throw BlobError(path: file.path, blob: id, reason: .wrongSize(size: stamp.size, expected: sealed.size)) }
        var sealedBytes: [UInt8]
        do {
            sealedBytes = try FileIO.readAll(file.fd, size: Int(stamp.size), path: file.path, maxBytes: Int(sealed.size))
        } catch {
            throw BlobError(error, blob: id)
        }
        var keyBytes = sealed.key
        let key = SecretBytes(taking: &keyBytes)
        let why: String
        switch Sodium.streamOpen(sealedBytes, key: key, additionalData: SealedBlob.additionalData(tripID: tripID, plaintextSHA256: plain.hex)) {
        case .success(var plaintext):
            defer { SecretBytes.wipe(&plaintext) }
            if Int64(plaintext.count) == reference.size && BlobID(of: plaintext) == plain {
                do {
                    try blobs.writeAtomically(plaintext, to: plain.entryName)
                } catch {
                    throw BlobError(error, blob: plain)
                }
                let type = BlobType.sniff(Array(plaintext.prefix(BlobType.sniffLength)))
                return BlobCopyResult(blob: plain, size: reference.size, type: type, resumedFrom: resumed, alreadyThere: false)
            }
            why = "they open as other bytes than the attachment names"
        case .failure(let failure):
            why = Self.describe(failure)
        }
        SecretBytes.wipe(&sealedBytes)
        let moved = quarantine(id.entryName, in: sealedFolder, as: Self.refusedName(id.hex))
        throw BlobError(path: folder.path(of: id), blob: id, reason: .sealRefused(why: why, quarantined: moved))
    }

    /// Why a secret stream did not open, for a person.
    static func describe(_ failure: Sodium.StreamFailure) -> String {
        switch failure {
        case .tooShort: return "shorter than a sealed stream"
        case .badKey: return "the key does not have 32 bytes"
        case .chunkRefused(let index): return "chunk \(index + 1) does not open: a changed byte, a wrong key, or another blob's bytes"
        case .finalMissing: return "the stream was cut: its last chunk is not tagged final"
        case .dataAfterFinal(let index): return "bytes follow the final chunk \(index + 1)"
        }
    }
}
